import { UsageError } from '../errors.js';
import { requireCount } from '../limits.js';
import type { Memory } from '../records.js';
import type { StoreOps } from '../store/port.js';
import { iso } from '../time.js';

export const SCOPES = ['recent', 'tagged', 'all'] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_SINCE_MS = 24 * 3_600_000;
export const DEFAULT_MAX_MEMORIES = 50;
export const DEFAULT_CHAR_BUDGET = 24_000;
export const MAX_MEMORY_CHARS = 2_000;
export const TRUNCATION_MARKER = '…[truncated]';
/** The most memories one prompt may gather, and the largest character budget (a prompt, not a corpus). */
export const MAX_GATHERED = 10_000;
export const MAX_CHAR_BUDGET = 100_000_000;

export interface GatherOptions {
  agentId: string;
  scope?: Scope;
  /** `recent` scope: memories created at or after this time (default: 24 h before now). */
  since?: Date;
  /** `tagged` scope: required. */
  tag?: string;
  /** Only memories never reflected on (the nightly default). */
  unreflected?: boolean;
  maxMemories?: number;
  /** Characters of memory text the prompt may carry. */
  charBudget?: number;
}

export interface GatheredMemory {
  /** Short alias shown to the model (`m1`…`mN`), mapped back to `memory.id` by hippo. */
  ref: string;
  memory: Memory;
  /** The text put in the prompt: the content, or its first 2 000 characters and a visible marker. */
  text: string;
  truncated: boolean;
}

export interface GatherResult {
  memories: GatheredMemory[];
  /** Eligible memories in scope before the caps. */
  eligible: number;
  /** Eligible memories the caps left out, by cap. */
  leftOut: { byCount: number; byBudget: number };
  chars: number;
}

/** Cuts a long memory at a code-point boundary and marks the cut so neither the model nor a reviewer mistakes it. */
export function clip(content: string, max = MAX_MEMORY_CHARS): { text: string; truncated: boolean } {
  if (content.length <= max) return { text: content, truncated: false };
  let end = max;
  const code = content.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
  return { text: content.slice(0, end) + TRUNCATION_MARKER, truncated: true };
}

/**
 * docs/design.md §4.1: the agent's own memories that are not archived, expired, permanent or derived, in scope, newest first,
 * capped by count and then by the character budget (stopping at the first memory that does not fit, so what is shown
 * is always the newest contiguous stretch).
 */
export async function gather(store: StoreOps, options: GatherOptions): Promise<GatherResult> {
  const scope = options.scope ?? 'recent';
  const maxMemories = options.maxMemories ?? DEFAULT_MAX_MEMORIES;
  const charBudget = options.charBudget ?? DEFAULT_CHAR_BUDGET;
  if (!SCOPES.includes(scope)) {
    throw new UsageError('bad_scope', `the scope must be one of ${SCOPES.join(', ')}`, { details: { option: 'scope', allowed: [...SCOPES] } });
  }
  requireCount(maxMemories, 'maxMemories', { min: 1, max: MAX_GATHERED });
  requireCount(charBudget, 'charBudget', { min: 1, max: MAX_CHAR_BUDGET });
  if (scope === 'tagged' && !options.tag) {
    throw new UsageError('tag_required', 'the tagged scope needs a tag (it never means "everything")', { details: { option: 'tag', scope } });
  }

  const now = store.clock();
  const { eligible, memories: rows } = await store.memories.gather({
    agentId: options.agentId,
    now: iso(now),
    scope,
    since: iso(options.since ?? new Date(now.getTime() - DEFAULT_SINCE_MS)),
    tag: options.tag,
    unreflected: options.unreflected ?? false,
    limit: maxMemories,
  });

  const memories: GatheredMemory[] = [];
  let chars = 0;
  for (const memory of rows) {
    const { text, truncated } = clip(memory.content);
    if (chars + text.length > charBudget) break;
    chars += text.length;
    memories.push({ ref: `m${memories.length + 1}`, memory, text, truncated });
  }
  return {
    memories,
    eligible,
    leftOut: { byCount: Math.max(0, eligible - rows.length), byBudget: rows.length - memories.length },
    chars,
  };
}
