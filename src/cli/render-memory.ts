import type { DemoResult } from '../core/demo.js';
import { UsageError } from '../core/errors.js';
import type { ImportResult } from '../core/import.js';
import type { AddMemoryResult, ArchiveResult, Memory } from '../core/memory.js';
import { safeText } from '../core/text.js';
import { cut, shortDate, type Painter, type TextView, type View } from './output.js';

/** One line per memory: id, date, durability, tags, then the content cut to the width left. */
export function memoryLine(memory: Memory, paint: Painter, width: number): string {
  const tags = memory.tags.length > 0 ? ` [${safeText(memory.tags.join(', '), { lines: 'join' })}]` : '';
  const archived = memory.archivedAt ? ' (archived)' : '';
  const head = `${memory.id}  ${shortDate(memory.createdAt)}  ${memory.durability}${tags}${archived}`;
  const room = Math.max(20, width - head.length - 2);
  return `${paint('dim', head)}  ${cut(memory.content, room)}`;
}

/** The full record of one memory, as `memory show` prints it. */
export function memoryDetail(memory: Memory, paint: Painter): string {
  const rows: [string, string | null | undefined][] = [
    ['id', memory.id],
    ['agent', memory.agentId],
    ['durability', memory.durability],
    ['tags', memory.tags.join(', ') || null],
    ['subject', memory.subject],
    ['source', memory.source],
    ['thread', memory.thread],
    ['created', memory.createdAt],
    ['updated', memory.updatedAt !== memory.createdAt ? memory.updatedAt : null],
    ['expires', memory.expiresAt],
    ['archived', memory.archivedAt ? `${memory.archivedAt} (${memory.archivedReason ?? ''})` : null],
    ['derived from', memory.derivedFrom.join(', ') || null],
    ['promoted from', memory.promotedFrom],
    ['retrieved', memory.retrievalCount > 0 ? `${memory.retrievalCount}× (last ${memory.lastRetrievedAt})` : null],
    ['reflected', memory.lastReflectedAt],
  ];
  const head = rows
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([label, value]) => `${paint('dim', label.padEnd(13))} ${safeText(String(value))}`)
    .join('\n');
  return `${head}\n\n${safeText(memory.content)}`;
}

export const memoryListView: TextView<{ memories: Memory[] }> = ({ memories }, { paint, width }) =>
  memories.length === 0 ? 'no memories' : memories.map((memory) => memoryLine(memory, paint, width)).join('\n');

export const memoryShowView: TextView<{ memory: Memory }> = ({ memory }, { paint }) => memoryDetail(memory, paint);

export const memoryAddView: View<AddMemoryResult> = {
  json: ({ memory, duplicateOf }) => ({ memory, duplicateOf }),
  text: ({ memory }, { paint }) => `added ${paint('bold', memory.id)} (${memory.durability}${memory.expiresAt ? `, expires ${memory.expiresAt}` : ''})`,
  notes: ({ duplicateOf }) => [duplicateOf.length > 0 && `warning: same text as ${duplicateOf.join(', ')} (added anyway)`],
};

export const memoryArchiveView: View<ArchiveResult> = {
  json: ({ archived, alreadyArchived }) => ({ archived, alreadyArchived }),
  text: ({ archived, alreadyArchived }) =>
    [...archived.map((memory) => `archived ${memory.id}`), ...alreadyArchived.map((id) => `${id} was already archived`)].join('\n'),
};

export const memoryImportView: View<ImportResult> = {
  text: (result) => {
    if (result.files.some((file) => file.error)) return undefined; // the failure says it all
    const files = result.files.length;
    const existing = result.existing > 0 ? `, ${result.existing} already present (skipped)` : '';
    return `imported ${result.imported} memories from ${files} file${files === 1 ? '' : 's'}${existing}`;
  },
  notes: (result) => [result.duplicates > 0 && `warning: ${result.duplicates} imported memories repeat text already stored (kept; see memory list)`],
  // A file that failed imported nothing (its own transaction); the others are kept, and the command exits 2.
  failure: (result) => {
    const failed = result.files.filter((file) => file.error);
    if (failed.length === 0) return undefined;
    return new UsageError(
      'import_failed',
      `${failed.length} of ${result.files.length} files not imported (nothing from them was written):\n${failed.map((file) => `  ${file.error!.message}`).join('\n')}\n${result.imported} memories imported from the other files`,
      { details: { ...result } },
    );
  },
};

/** `memory export --output FILE`. */
export const memoryExportFileView: TextView<{ exported: number; path: string }> = ({ exported, path }) =>
  `exported ${exported} memories to ${safeText(path, { lines: 'join' })}`;

/** `memory export` to stdout: the lines are the output, so the count goes to stderr. */
export const memoryExportStdoutView: View<{ exported: number }> = { notes: ({ exported }) => [`exported ${exported} memories`] };

export function demoView(dbPath: string): View<DemoResult> {
  return {
    text: (result) => {
      const head =
        result.status === 'already-loaded'
          ? 'demo data is already loaded (nothing written)'
          : `loaded ${result.memories} demo memories into ${safeText(dbPath, { lines: 'join' })}`;
      const agents = result.agents.map((agent) => `  ${safeText(agent.agentId, { lines: 'join' })}: ${agent.memories} memories, newest ${agent.newest}`);
      return [head, ...agents].join('\n');
    },
    notes: (result, json) => {
      const first = [...result.agents].sort((a, b) => b.memories - a.memories)[0]?.agentId ?? 'default';
      return [!json && `try: hippo search "deploy" --agent ${first}   (or export HIPPO_AGENT=${first})`];
    },
  };
}
