import { ConflictError } from './errors.js';
import { DEMO_NOTES } from './demo-data.js';
import { buildMemory, insertMemory } from './memory.js';
import { inTransaction, type Store } from './store/store.js';

export const DEMO_SOURCE = 'demo';
export const DEMO_AGENTS = [...new Set(DEMO_NOTES.map((note) => note.agent))];

export interface DemoResult {
  /** `loaded`: written now; `already-loaded`: the database holds exactly the demo already, so nothing was written. */
  status: 'loaded' | 'already-loaded';
  memories: number;
  agents: { agentId: string; memories: number; newest: string }[];
  /** Demo memories removed first (with --force). */
  replaced: number;
}

/**
 * Loads the demo sample dated relative to now. A database with other memories is refused unless `force`; the demo
 * is never duplicated: a second load finds it already there, and `force` replaces the earlier demo rows.
 */
export function loadDemo(store: Store, options: { force?: boolean } = {}): DemoResult {
  return inTransaction(store, () => {
    const counts = store.db.prepare('SELECT count(*) AS total, sum(source = ?) AS demo FROM memories').get(DEMO_SOURCE) as {
      total: number;
      demo: number | null;
    };
    const demoRows = counts.demo ?? 0;
    if (!options.force) {
      if (counts.total === DEMO_NOTES.length && demoRows === counts.total) return summary(store, 'already-loaded', 0);
      if (counts.total > 0) {
        throw new ConflictError(
          'database_not_empty',
          `the database already holds ${counts.total} memories; the demo loads only into an empty one (force it to replace earlier demo data, or use a fresh database)`,
          { details: { memories: counts.total } },
        );
      }
    }
    // Only the demo agents' demo rows: a note of yours that happens to say `--source demo` is not ours to delete.
    const replaced = store.db
      .prepare(`DELETE FROM memories WHERE source = ? AND agent_id IN (${DEMO_AGENTS.map(() => '?').join(', ')})`)
      .run(DEMO_SOURCE, ...DEMO_AGENTS).changes;
    const now = store.clock().getTime();
    // Oldest first, so ids (ULIDs) sort the same way as createdAt.
    const notes = [...DEMO_NOTES].sort((a, b) => b.ageHours - a.ageHours);
    for (const note of notes) {
      const createdAt = new Date(now - note.ageHours * 3_600_000);
      const memory = buildMemory(
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
      insertMemory(store, memory);
    }
    return summary(store, 'loaded', replaced);
  });
}

function summary(store: Store, status: DemoResult['status'], replaced: number): DemoResult {
  const agents = store.db
    .prepare('SELECT agent_id AS agentId, count(*) AS memories, max(created_at) AS newest FROM memories WHERE source = ? GROUP BY agent_id ORDER BY agent_id')
    .all(DEMO_SOURCE) as DemoResult['agents'];
  return { status, memories: agents.reduce((sum, agent) => sum + agent.memories, 0), agents, replaced };
}
