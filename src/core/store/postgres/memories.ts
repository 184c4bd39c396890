/**
 * The memories of a PostgreSQL store (port.ts `MemoryRepo`). Every statement names the agent unless the method reads
 * all agents by contract (`existingIds`, `agentsWithNew`, `agentCounts`, maintenance, `demoCounts`). The rules the
 * core owns (eligibility for distillation, docs/design.md §4.1; the maintenance verdicts, src/core/nightly/maintenance.ts)
 * are written here in PostgreSQL's SQL clause for clause as the SQLite adapter writes them (store/sqlite/memories.ts).
 */
import type { Memory } from '../../records.js';
import { UsageError } from '../../errors.js';
import type {
  AgentCount,
  GatherQuery,
  ListQuery,
  MaintenanceCountsByAgent,
  MaintenanceCutoffs,
  MaintenanceRule,
  MemoryRepo,
  SearchHit,
  SearchQuery,
} from '../port.js';
import { cursorRows, insertRows } from './bulk.js';
import { finishSnippet, mapRawQueryError, searchSql } from './fts.js';
import type { Session, TxState } from './session.js';
import { columnList, fromRow, MEMORY_TABLE, placeholders, toParams } from './tables.js';

const COLUMNS = columnList(MEMORY_TABLE.columns);
const COLUMN_NAMES = MEMORY_TABLE.columns.map((column) => column.name);
/** The columns an update leaves alone. */
const IDENTITY = new Set(['id', 'agent_id', 'created_at']);
const MAINTENANCE_RULES: readonly MaintenanceRule[] = ['expired', 'archivedEphemeral', 'archivedUnused'];

function toMemory(row: Record<string, unknown>): Memory {
  return fromRow<Memory>(MEMORY_TABLE, row);
}

/** Builds `$n` parameters in order. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return `$${this.values.length}${cast ? `::${cast}` : ''}`;
  }
}

/**
 * The conditions that make a memory eligible for distillation (docs/design.md §4.1, as `eligibleConditions` in
 * rem/gather.ts): not archived, not expired, not permanent, not derived; in scope; never reflected on if asked.
 */
function eligible(
  p: Params,
  options: { now: string; scope: GatherQuery['scope']; since: string; tag?: string; unreflected: boolean },
  alias = 'memories',
): string[] {
  const a = `${alias}.`;
  const where = [
    `${a}archived_at IS NULL`,
    `(${a}expires_at IS NULL OR ${a}expires_at > ${p.add(options.now, 'timestamptz')})`,
    `${a}durability <> 'permanent'`,
    `cardinality(${a}derived_from) = 0`,
  ];
  if (options.scope === 'recent') where.push(`${a}created_at >= ${p.add(options.since, 'timestamptz')}`);
  if (options.scope === 'tagged') where.push(`${a}tags @> ARRAY[${p.add(options.tag ?? '', 'text')}]`);
  if (options.unreflected) where.push(`${a}last_reflected_at IS NULL`);
  return where;
}

/** The maintenance verdict of a row (nightly/maintenance.ts's VERDICT): which rule archives it, or NULL. */
function verdict(p: Params, cutoffs: MaintenanceCutoffs): string {
  const now = p.add(cutoffs.now, 'timestamptz');
  const youth = p.add(cutoffs.youth, 'timestamptz');
  const ephemeral = p.add(cutoffs.ephemeralCutoff, 'timestamptz');
  const unused = p.add(cutoffs.unusedCutoff, 'timestamptz');
  return `CASE
    WHEN expires_at IS NOT NULL AND expires_at < ${now} AND durability IN ('standard', 'ephemeral') THEN 'expired'
    WHEN created_at < ${youth} AND durability = 'ephemeral' AND created_at < ${ephemeral} THEN 'archivedEphemeral'
    WHEN created_at < ${youth} AND durability = 'standard' AND created_at < ${unused} AND retrieval_count <= 1
         AND (last_retrieved_at IS NULL OR last_retrieved_at < ${unused}) THEN 'archivedUnused'
  END`;
}

function countsByAgent(rows: { agent_id: string; verdict: MaintenanceRule; n: number }[]): MaintenanceCountsByAgent {
  const result: MaintenanceCountsByAgent = {};
  for (const row of rows) {
    result[row.agent_id] ??= { expired: 0, archivedEphemeral: 0, archivedUnused: 0 };
    result[row.agent_id]![row.verdict] = row.n;
  }
  return result;
}

export function memoryRepo(session: Session, bound?: TxState): MemoryRepo {
  const query = <R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []) =>
    session.query<R>(text, values, bound);

  return {
    async insert(memory) {
      const values = toParams(MEMORY_TABLE, memory);
      const result = await query(`INSERT INTO memories (${COLUMNS}) VALUES (${placeholders(values.length)}) ON CONFLICT (id) DO NOTHING`, values);
      return result.rowCount === 1;
    },

    async insertMany(memories) {
      if (memories.length === 0) return 0;
      // Every value is checked (NUL, types) before the transaction starts: a bad row refuses the whole call.
      for (const memory of memories) toParams(MEMORY_TABLE, memory);
      const run = (tx: TxState) => insertRows(session, tx, MEMORY_TABLE, memories);
      const tx = bound ?? session.current();
      return tx ? run(tx) : session.transaction(run);
    },

    async get(agentId, id) {
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE id = $1 AND agent_id = $2`, [id, agentId]);
      return rows[0] ? toMemory(rows[0]) : undefined;
    },

    async getMany(agentId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE agent_id = $1 AND id = ANY($2::text[])`, [agentId, [...ids]]);
      const byId = new Map(rows.map((row) => [row.id as string, toMemory(row)]));
      return ids.flatMap((id) => {
        const memory = byId.get(id);
        return memory ? [memory] : [];
      });
    },

    async existingIds(ids) {
      if (ids.length === 0) return new Set();
      const { rows } = await query<{ id: string }>('SELECT id FROM memories WHERE id = ANY($1::text[])', [[...ids]]);
      return new Set(rows.map((row) => row.id));
    },

    async idsWithHash(agentId, hash, exceptId) {
      const { rows } = await query<{ id: string }>(
        'SELECT id FROM memories WHERE agent_id = $1 AND content_hash = $2 AND ($3::text IS NULL OR id <> $3) ORDER BY created_at, id COLLATE "C"',
        [agentId, hash, exceptId ?? null],
      );
      return rows.map((row) => row.id);
    },

    async existingHashes(agentId, hashes) {
      if (hashes.length === 0) return new Set();
      const { rows } = await query<{ content_hash: string }>(
        'SELECT DISTINCT content_hash FROM memories WHERE agent_id = $1 AND content_hash = ANY($2::text[])',
        [agentId, [...hashes]],
      );
      return new Set(rows.map((row) => row.content_hash));
    },

    async list(q: ListQuery) {
      const p = new Params();
      const where = [`agent_id = ${p.add(q.agentId)}`];
      if (!q.includeArchived) where.push('archived_at IS NULL');
      if (q.tag !== undefined) where.push(`tags @> ARRAY[${p.add(q.tag, 'text')}]`);
      const { rows } = await query(
        `SELECT ${COLUMNS} FROM memories WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${p.add(q.limit, 'int')}`,
        p.values,
      );
      return rows.map(toMemory);
    },

    iterate(agentId) {
      const sql =
        agentId === undefined
          ? `SELECT ${COLUMNS} FROM memories ORDER BY created_at, id COLLATE "C"`
          : `SELECT ${COLUMNS} FROM memories WHERE agent_id = $1 ORDER BY created_at, id COLLATE "C"`;
      const rows = cursorRows(session, bound, sql, agentId === undefined ? [] : [agentId]);
      return (async function* () {
        for await (const row of rows) yield toMemory(row);
      })();
    },

    async archive(agentId, ids, reason, now) {
      if (ids.length === 0) return [];
      const { rows } = await query<{ id: string }>(
        `UPDATE memories SET archived_at = $1, archived_reason = $2, updated_at = $1
         WHERE agent_id = $3 AND id = ANY($4::text[]) AND archived_at IS NULL RETURNING id`,
        [now, reason, agentId, [...ids]],
      );
      const changed = new Set(rows.map((row) => row.id));
      return [...new Set(ids)].filter((id) => changed.has(id));
    },

    async unarchive(agentId, ids, now) {
      if (ids.length === 0) return [];
      const { rows } = await query<{ id: string }>(
        `UPDATE memories SET archived_at = NULL, archived_reason = NULL, updated_at = $1
         WHERE agent_id = $2 AND id = ANY($3::text[]) AND archived_at IS NOT NULL RETURNING id`,
        [now, agentId, [...ids]],
      );
      const changed = new Set(rows.map((row) => row.id));
      return [...new Set(ids)].filter((id) => changed.has(id));
    },

    async update(memory) {
      // Everything but identity and creation; the generated search vector follows by itself.
      const columns = MEMORY_TABLE.columns.filter((column) => !IDENTITY.has(column.name));
      const values = toParams(MEMORY_TABLE, memory, columns);
      const sets = columns.map((column, index) => `${column.name} = $${index + 3}`);
      const result = await query(`UPDATE memories SET ${sets.join(', ')} WHERE id = $1 AND agent_id = $2`, [memory.id, memory.agentId, ...values]);
      return result.rowCount === 1;
    },

    async versions(agentId, id) {
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE agent_id = $1 AND version_of = $2 ORDER BY updated_at DESC, id COLLATE "C" DESC`, [
        agentId,
        id,
      ]);
      return rows.map(toMemory);
    },

    async stampReflected(agentId, ids, now) {
      if (ids.length === 0) return;
      await query('UPDATE memories SET last_reflected_at = $1 WHERE agent_id = $2 AND id = ANY($3::text[])', [now, agentId, [...ids]]);
    },

    async recordRetrieval(agentId, ids, now) {
      if (ids.length === 0) return;
      // Rows locked in id order, so two searches bumping overlapping hits cannot deadlock. Best effort by contract: the
      // caller's tryTransaction bounds the wait for a row another transaction holds (lock_timeout) and gives up.
      await query(
        `UPDATE memories SET retrieval_count = retrieval_count + 1, last_retrieved_at = $3
         WHERE id IN (SELECT id FROM memories WHERE agent_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE)`,
        [agentId, [...ids], now],
      );
    },

    async gather(q) {
      const p = new Params();
      const where = [`agent_id = ${p.add(q.agentId)}`, ...eligible(p, q)].join(' AND ');
      const counted = await query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE ${where}`, p.values);
      const limit = p.add(q.limit, 'int');
      const { rows } = await query(`SELECT ${COLUMNS} FROM memories WHERE ${where} ORDER BY created_at DESC, id COLLATE "C" DESC LIMIT ${limit}`, p.values);
      return { eligible: counted.rows[0]!.n, memories: rows.map(toMemory) };
    },

    async agentsWithNew(now, since) {
      const p = new Params();
      const conditions = eligible(p, { now, scope: 'recent', since, unreflected: true }, 'm');
      // A loose index scan: hop from one agent id to the next along memories_agent_created (a few lookups per agent)
      // instead of reading every index entry for DISTINCT; each agent is then checked on its own index range.
      const { rows } = await query<{ agent_id: string }>(
        `WITH RECURSIVE agents (agent_id) AS (
           (SELECT agent_id FROM memories ORDER BY agent_id LIMIT 1)
           UNION ALL
           SELECT (SELECT m.agent_id FROM memories m WHERE m.agent_id > a.agent_id ORDER BY m.agent_id LIMIT 1) FROM agents a WHERE a.agent_id IS NOT NULL
         )
         SELECT a.agent_id FROM agents a
         WHERE a.agent_id IS NOT NULL AND EXISTS (SELECT 1 FROM memories m WHERE m.agent_id = a.agent_id AND ${conditions.join(' AND ')})
         ORDER BY a.agent_id COLLATE "C"`,
        p.values,
      );
      return rows.map((row) => row.agent_id);
    },

    async agentCounts(options: { source?: string } = {}): Promise<AgentCount[]> {
      const { rows } = await query<{ agent_id: string; memories: number; archived: number; newest: string }>(
        `SELECT agent_id, count(*) FILTER (WHERE archived_at IS NULL)::int AS memories, count(*) FILTER (WHERE archived_at IS NOT NULL)::int AS archived,
                max(created_at) AS newest
         FROM memories ${options.source === undefined ? '' : 'WHERE source = $1'} GROUP BY agent_id ORDER BY agent_id COLLATE "C"`,
        options.source === undefined ? [] : [options.source],
      );
      return rows.map((row) => ({ agentId: row.agent_id, memories: row.memories, archived: row.archived, newest: row.newest }));
    },

    async search(q: SearchQuery): Promise<SearchHit[]> {
      if (!Number.isInteger(q.limit) || q.limit < 1)
        throw new UsageError('bad_limit', 'the limit must be a whole number of at least 1', { details: { option: 'limit' } });
      const statement = searchSql({
        agentId: q.agentId,
        query: q.text,
        raw: q.raw,
        limit: q.limit,
        now: q.now,
        ...(q.tag !== undefined ? { tag: q.tag } : {}),
        ...(q.since !== undefined ? { since: q.since } : {}),
        ...(q.durability !== undefined ? { durability: q.durability } : {}),
        includeArchived: q.includeArchived ?? false,
        highlight: q.highlight,
        columns: COLUMN_NAMES,
      });
      if (!statement) return [];
      const { rows } = await session.query<Record<string, unknown> & { score: number; headline: string }>(statement.text, statement.values, bound, {
        ...(q.raw ? { mapError: mapRawQueryError } : {}),
      });
      return rows.map((row) => {
        const memory = toMemory(row);
        return { memory, score: row.score, snippet: finishSnippet(memory.content, row.headline, q.highlight) };
      });
    },

    async planMaintenance(cutoffs) {
      const p = new Params();
      const { rows } = await query<{ agent_id: string; verdict: MaintenanceRule; n: number }>(
        `SELECT agent_id, verdict, count(*)::int AS n
         FROM (SELECT agent_id, ${verdict(p, cutoffs)} AS verdict FROM memories WHERE archived_at IS NULL) v
         WHERE verdict IS NOT NULL GROUP BY agent_id, verdict ORDER BY agent_id COLLATE "C", verdict`,
        p.values,
      );
      return countsByAgent(rows);
    },

    async applyMaintenance(cutoffs, reasons) {
      const p = new Params();
      const rule = verdict(p, cutoffs);
      const reason = `CASE ${rule} ${MAINTENANCE_RULES.map((name) => `WHEN '${name}' THEN ${p.add(reasons[name], 'text')}`).join(' ')} END`;
      const now = p.add(cutoffs.now, 'timestamptz');
      // One statement: the rows are archived and reported together. The verdict reads columns the update leaves as
      // they were, so RETURNING computes the same rule the update applied.
      const { rows } = await query<{ agent_id: string; verdict: MaintenanceRule; n: number }>(
        `WITH archived AS (
           UPDATE memories SET archived_reason = ${reason}, archived_at = ${now}, updated_at = ${now}
           WHERE archived_at IS NULL AND (${rule}) IS NOT NULL
           RETURNING agent_id, ${rule} AS verdict
         )
         SELECT agent_id, verdict, count(*)::int AS n FROM archived GROUP BY agent_id, verdict ORDER BY agent_id COLLATE "C", verdict`,
        p.values,
      );
      return countsByAgent(rows);
    },

    async optimizeSearchIndex() {
      // The GIN index takes new entries into a pending list (fastupdate) that searches scan linearly; merging it into
      // the index proper is what FTS5's merge is on SQLite. ANALYZE refreshes the planner's statistics after a night's
      // archiving. One step: neither holds a lock that blocks readers or writers for long.
      await query("SELECT gin_clean_pending_list(to_regclass('memories_fts'))");
      await query('ANALYZE memories');
      return 1;
    },

    async demoCounts(source) {
      const { rows } = await query<{ total: number; demo: number }>(
        'SELECT count(*)::int AS total, count(*) FILTER (WHERE source = $1)::int AS demo FROM memories',
        [source],
      );
      return rows[0]!;
    },

    async deleteBySource(source, agentIds) {
      if (agentIds.length === 0) return 0;
      const result = await query('DELETE FROM memories WHERE source = $1 AND agent_id = ANY($2::text[])', [source, [...agentIds]]);
      return result.rowCount ?? 0;
    },
  };
}
