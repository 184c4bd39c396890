/**
 * Hash partitioning by agent (docs/postgres.md "Partitions"): every agent-owned table (tables.ts `owner: 'agent'`) is
 * `PARTITION BY HASH (agent_id)` into a number of partitions chosen when the table is created, so a statement that
 * names one agent reads and writes one partition — the single-server form of what a Citus cluster does across
 * machines (`create_distributed_table(…, 'agent_id')`). A migration writes a table's columns by hand (they are its
 * history) and lets `partitionedTableSql` add the keys from the spec and the partitions.
 */
import { UsageError } from '../../errors.js';
import type { TableSpec } from '../tables.js';

/** Partitions of each agent-owned table when the environment does not choose (docs/postgres.md). */
export const DEFAULT_PARTITIONS = 16;
/** At most this many: more partitions cost planning time on every statement that names no agent. */
export const MAX_PARTITIONS = 1024;
/** The variable that chooses the count when a store's agent tables are created (read only then). */
export const PARTITIONS_ENV = 'HIPPO_PG_PARTITIONS';

/** The partition count from `HIPPO_PG_PARTITIONS` (1…1024), or the default; anything else is refused, exit 2. */
export function partitionsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[PARTITIONS_ENV]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_PARTITIONS;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1 || value > MAX_PARTITIONS) {
    throw new UsageError(
      'bad_partitions',
      `${PARTITIONS_ENV} must be a whole number from 1 to ${MAX_PARTITIONS} (the partitions of each agent table); nothing was changed`,
      {
        details: { variable: PARTITIONS_ENV, max: MAX_PARTITIONS },
      },
    );
  }
  return value;
}

/** The name of partition `remainder` of a table: `memories_p0` … */
export function partitionName(table: string, remainder: number): string {
  return `${table}_p${remainder}`;
}

/**
 * `CREATE TABLE <name> (<columns>, PRIMARY KEY (agent_id, id), UNIQUE …) PARTITION BY HASH (agent_id)` and its
 * `partitions` partitions, for an agent-owned table of the spec. `columns`: the column definitions (and CHECKs), as
 * the migration writes them. `name` defaults to the spec's (a migration that rebuilds a table creates it under a
 * temporary name and renames it; the partitions are named after the spec's table either way).
 */
export function partitionedTableSql(spec: TableSpec, columns: string, partitions: number, name: string = spec.name): string {
  if (spec.owner !== 'agent') throw new Error(`${spec.name} is not an agent's table: it is not partitioned`);
  if (spec.primary[0] !== 'agent_id' || spec.unique.some((unique) => unique[0] !== 'agent_id')) {
    throw new Error(`${spec.name}: every key of an agent's table starts with agent_id`);
  }
  if (!Number.isInteger(partitions) || partitions < 1) throw new Error(`bad partition count ${partitions}`);
  const keys = [`PRIMARY KEY (${spec.primary.join(', ')})`, ...spec.unique.map((unique) => `UNIQUE (${unique.join(', ')})`)];
  const lines = [`CREATE TABLE ${name} (\n${columns.trim().replace(/,\s*$/, '')},\n  ${keys.join(',\n  ')}\n) PARTITION BY HASH (agent_id);`];
  for (let remainder = 0; remainder < partitions; remainder++) {
    lines.push(`CREATE TABLE ${partitionName(spec.name, remainder)} PARTITION OF ${name} FOR VALUES WITH (MODULUS ${partitions}, REMAINDER ${remainder});`);
  }
  return lines.join('\n');
}
