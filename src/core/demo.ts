import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConflictError } from './errors.js';
import { buildMemory } from './memory/memory.js';
import { DURABILITIES } from './records.js';
import type { Store, StoreOps } from './store/port.js';

export const DEMO_SOURCE = 'demo';

/**
 * The sample for `hippo demo` (docs/design.md §3) lives in `data/demo.jsonl` at the package root, one note a line:
 * several weeks of work notes from a small SaaS team, written by two agents, `ops-agent` (an ops/devops AI agent) and
 * `alice` (the product/engineering lead), oldest first. The loader turns `ageHours` into `createdAt = now - ageHours`,
 * so the newest notes always fall inside the last 24 hours.
 *
 * The notes carry recurring patterns for REM distillation (Friday deploys failing on a migration lock, a flaky
 * rounding test, a customer asking the same question again), decisions with their reasons, preferences, and contact
 * details for fact extraction. Every email, phone number (libphonenumber-js/max) and IBAN (ibantools) is valid; the
 * phone numbers use fictional/reserved ranges where one exists, and every person, company domain and account is
 * invented (the IBANs are the standard documentation examples). A few notes hold pasted prompt-injection text, kept on
 * purpose so the safety features have something to show.
 *
 * The file is read only when the demo is loaded: importing the library (or running any other command) never reads it.
 * `src/core/demo.ts` and `dist/core/demo.js` both sit two levels below the package root, so one relative URL serves
 * the sources (tests, bin/dev.js) and the build; `package.json` ships `data/`.
 */
export const DEMO_FILE = new URL('../../data/demo.jsonl', import.meta.url);

const demoNote = z.strictObject({
  /** Two agents: an ops/devops AI agent and a person (product/engineering lead). */
  agent: z.enum(['ops-agent', 'alice']),
  /** How long before "now" the note was written; the loader computes createdAt = now - ageHours. */
  ageHours: z.number().nonnegative(),
  subject: z.string().optional(),
  durability: z.enum(DURABILITIES).optional(),
  tags: z.array(z.string()),
  content: z.string().min(1),
});
export type DemoNote = z.infer<typeof demoNote>;

let cached: readonly DemoNote[] | undefined;

/** The demo notes, read and checked on first use. A malformed line is a broken install: it names the line. */
export function demoNotes(): readonly DemoNote[] {
  if (cached) return cached;
  const lines = readFileSync(DEMO_FILE, 'utf8').split('\n');
  const notes: DemoNote[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = demoNote.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`data/demo.jsonl:${index + 1} is not a demo note: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    notes.push(parsed.data);
  });
  cached = notes;
  return notes;
}

export interface DemoResult {
  /** `loaded`: written now; `already-loaded`: the database holds exactly the demo already, so nothing was written. */
  status: 'loaded' | 'already-loaded';
  memories: number;
  agents: { agentId: string; memories: number; newest: string }[];
  /** Demo memories removed first (with --force). */
  replaced: number;
}

export interface LoadDemoOptions {
  /** Replace earlier demo rows (and load into a store holding other memories). */
  force?: boolean;
  /**
   * The store is the demo's own (`<data dir>/hippo/demo.db`): memories added there since are the user's experiments
   * and are kept, and a demo already there is left as it is, so loading again never fails.
   */
  ownStore?: boolean;
}

/**
 * Loads the demo sample dated relative to now. A database with other memories is refused unless `force` (or it is the
 * demo's own store); the demo is never duplicated: a second load finds it already there, and `force` replaces the
 * earlier demo rows.
 */
export async function loadDemo(store: Store, options: LoadDemoOptions = {}): Promise<DemoResult> {
  const notes = demoNotes();
  const agents = [...new Set(notes.map((note) => note.agent))];
  return store.transaction(async (tx) => {
    const counts = await tx.memories.demoCounts(DEMO_SOURCE);
    if (!options.force) {
      if (counts.demo === notes.length && (counts.demo === counts.total || options.ownStore)) return summary(tx, 'already-loaded', 0);
      if (counts.total > 0 && !options.ownStore) {
        throw new ConflictError(
          'database_not_empty',
          `the database already holds ${counts.total} ${counts.total === 1 ? 'memory' : 'memories'}; the demo loads only into an empty one (force it to replace earlier demo data, or use a fresh database)`,
          { details: { memories: counts.total } },
        );
      }
    }
    // Only the demo agents' demo rows: a note of yours that happens to say `--source demo` is not ours to delete.
    const replaced = await tx.memories.deleteBySource(DEMO_SOURCE, agents);
    const now = tx.clock().getTime();
    // Oldest first, so ids (ULIDs) sort the same way as createdAt.
    const oldestFirst = [...notes].sort((a, b) => b.ageHours - a.ageHours);
    const memories = oldestFirst.map((note) => {
      const createdAt = new Date(now - note.ageHours * 3_600_000);
      return buildMemory(
        {
          agentId: note.agent,
          content: note.content,
          tags: note.tags,
          subject: note.subject,
          durability: note.durability,
          source: DEMO_SOURCE,
          createdAt: createdAt.toISOString(),
        },
        createdAt,
      );
    });
    await tx.memories.insertMany(memories);
    return summary(tx, 'loaded', replaced);
  });
}

async function summary(tx: StoreOps, status: DemoResult['status'], replaced: number): Promise<DemoResult> {
  const agents = (await tx.memories.agentCounts({ source: DEMO_SOURCE })).map((agent) => ({
    agentId: agent.agentId,
    memories: agent.memories + agent.archived,
    newest: agent.newest,
  }));
  return { status, memories: agents.reduce((sum, agent) => sum + agent.memories, 0), agents, replaced };
}
