import { UsageError } from '../core/errors.js';
import { getMemory } from '../core/memory/memory.js';
import type { Store } from '../core/store/port.js';
import { editInEditor, requireTerminal } from './editor.js';

const REFUSAL = {
  what: 'memory edit without a change to make',
  instead: 'say what to change with --content TEXT (or --content - to read stdin), --add-tag, --set-tags, --subject, --durability or --expires',
};

/**
 * `memory edit --tag`: refused. On `memory add` it adds a tag; on edit it used to replace them all, silently dropping
 * the others — so the two meanings get two names.
 */
export function tagFlagRefusal(tags: readonly string[]): UsageError {
  const add = tags.map((tag) => `--add-tag ${JSON.stringify(tag)}`).join(' ');
  const set = tags.map((tag) => `--set-tags ${JSON.stringify(tag)}`).join(' ');
  return new UsageError('tag_flag_ambiguous', `memory edit takes no --tag: say ${add} to add, or ${set} to replace all the tags`, {
    details: { tags: [...tags] },
  });
}

/** `--set-tags`: the new tag list; a lone `--set-tags ""` clears them; undefined when not given. */
export function setTags(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  return values.filter((value) => value.trim() !== '');
}

/** The memory's text after the user edited it in $VISUAL / $EDITOR (refused off a terminal, before the store is read). */
export async function contentFromEditor(store: Store, agentId: string, id: string): Promise<string> {
  requireTerminal(REFUSAL);
  const memory = await getMemory(store, agentId, id);
  return editInEditor(memory.content, REFUSAL);
}
