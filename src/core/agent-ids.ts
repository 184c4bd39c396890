/**
 * Agent ids that look alike (issue 27): `café` written precomposed (NFC) and as `cafe` + U+0301 (NFD) were two agents
 * that both show as `café`; `ops` with a Cyrillic `о` is a third. Ids are normalised to NFC on the way in
 * (`validateAgentId`), and a *new* agent id whose Unicode confusable skeleton (UTS #39: NFD, each character mapped to
 * its prototype in Unicode's confusables.txt with default-ignorable characters removed first, NFD again — the mapping
 * from the `unhomoglyph` package) equals an
 * existing agent's is refused, naming the existing one: exit 2, `confusable_agent`. An agent that already exists is
 * never refused, so a store that holds two look-alike ids from before keeps serving both (docs/decisions.md).
 */
import { UsageError } from './errors.js';
import type { StoreOps } from './store/port.js';
import { withoutDefaultIgnorables } from './text-guard.js';

const BLANKS = /[\s\u2800]+/gu;

/**
 * The UTS #39 skeleton function: two ids with the same skeleton look alike. Loaded only when needed (the first write
 * of a new agent): its table of some 6 000 look-alikes costs startup that most commands never need.
 */
export async function skeletonOf(): Promise<(id: string) => string> {
  const { default: unhomoglyph } = await import('unhomoglyph');
  // UTS #39 since Unicode 15.1: default-ignorable characters are removed before the prototypes, so an id that differs
  // from another only by a joiner or a variation selector inside an emoji (the only place validateAgentId keeps one)
  // looks like it: `team👨‍👩` beside `team👨👩` (review rev27j).
  // Blanks of any kind (white space, the Braille blank U+2800) as one space, none at either end: `ops` + U+2800 and
  // `ops  x` / `ops` + U+3000 + `x` show alike (review rev27k).
  return (id) =>
    unhomoglyph(withoutDefaultIgnorables(id.normalize('NFD')).replace(BLANKS, ' ').trim())
      .replace(BLANKS, ' ')
      .normalize('NFD');
}

/** `café` (U+0063 U+0061 U+0066 U+00E9): the code points too when an id is not plain ASCII, so look-alikes differ on screen. */
export function showAgentId(id: string): string {
  if (/^[\x20-\x7e]*$/.test(id)) return `"${id}"`;
  const points = [...id].map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
  return `"${id}" (${points})`;
}

export function confusableAgent(agentId: string, existing: string): UsageError {
  return new UsageError(
    'confusable_agent',
    `the agent id ${showAgentId(agentId)} looks like the existing agent ${showAgentId(existing)}; use that agent, or an id that does not look like it`,
    { details: { agentId, existing } },
  );
}

/** Whether the store knows `agentId`: it has a memory (archived ones count) or a token. */
async function known(store: StoreOps, agentId: string): Promise<boolean> {
  if ((await store.memories.list({ agentId, limit: 1, includeArchived: true })).length > 0) return true;
  return (await store.tokens.list(agentId)).length > 0;
}

/**
 * Refuses (`confusable_agent`, exit 2) the first of `agentIds` (NFC, validated) that the store does not know yet and
 * that looks like an agent it knows — or like another new one of the same batch. Known agents pass as they are. The
 * whole list of agents is read only when an id is new: the first write of an agent, not every write.
 */
export async function checkNewAgents(store: StoreOps, agentIds: Iterable<string>): Promise<void> {
  const fresh: string[] = [];
  for (const agentId of new Set(agentIds)) if (!(await known(store, agentId))) fresh.push(agentId);
  if (fresh.length === 0) return;
  const existing = new Set<string>([
    ...(await store.memories.agentCounts()).map((agent) => agent.agentId),
    ...(await store.tokens.list()).map((token) => token.agentId),
  ]);
  const skeleton = await skeletonOf();
  const seen = new Map<string, string>();
  for (const agentId of existing) seen.set(skeleton(agentId), agentId);
  for (const agentId of fresh) {
    const key = skeleton(agentId);
    const other = seen.get(key);
    if (other !== undefined && other !== agentId) throw confusableAgent(agentId, other);
    seen.set(key, agentId);
  }
}
