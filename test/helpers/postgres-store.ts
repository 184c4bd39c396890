/**
 * The PostgreSQL adapter under test: a store on a fresh database of the test server (test/helpers/postgres.ts), its
 * snapshots in a temp XDG data dir, and builders for the port's rows (memories, candidates, runs, handoffs) with
 * every field set, so a round trip can be compared field for field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HippoError } from '../../src/core/errors.js';
import { newId } from '../../src/core/ids.js';
import { contentHash, type Memory } from '../../src/core/memory/memory.js';
import type { Run } from '../../src/core/runs.js';
import { openPostgresStore } from '../../src/core/store/postgres/adapter.js';
import { parsePostgresUrl } from '../../src/core/store/postgres/connect.js';
import type { CandidateRecord, HandoffRecord, Store } from '../../src/core/store/port.js';
import { freshDatabase, type FreshDatabase } from './postgres.js';
import { handoffRow, runRow } from './rows.js';

export interface AdapterStore {
  store: Store;
  database: FreshDatabase;
  /** The XDG data dir the store's snapshots go under. */
  dataHome: string;
  /** Moves the store's clock. */
  setNow(iso: string): void;
  /** Opens a second store (another pool: another "process") on the same database. */
  reopen(): Promise<Store>;
  /** Closes every store opened here, drops the database, removes the data dir. */
  dispose(): Promise<void>;
}

export const T0 = '2026-11-02T09:30:00.000Z';

export async function openAdapterStore(options: { database?: FreshDatabase; env?: NodeJS.ProcessEnv } = {}): Promise<AdapterStore> {
  const database = options.database ?? (await freshDatabase());
  const dataHome = mkdtempSync(join(tmpdir(), 'hippo-pg-data-'));
  let now = T0;
  const clock = () => new Date(now);
  const env = { XDG_DATA_HOME: dataHome, ...options.env };
  const opened: Store[] = [];
  const open = async () => {
    const store = await openPostgresStore(parsePostgresUrl(database.url, {}), { clock, env });
    opened.push(store);
    return store;
  };
  const store = await open();
  return {
    store,
    database,
    dataHome,
    setNow: (iso) => {
      now = iso;
    },
    reopen: open,
    dispose: async () => {
      for (const each of opened) await each.close();
      await database.drop();
      rmSync(dataHome, { recursive: true, force: true });
    },
  };
}

/** ISO time `minutes` after T0 (negative: before). */
export function at(minutes: number): string {
  return new Date(Date.parse(T0) + minutes * 60_000).toISOString();
}

/** A memory with every field set; `createdAt` defaults to T0. */
export function memory(agentId: string, content: string, overrides: Partial<Memory> = {}): Memory {
  const createdAt = overrides.createdAt ?? T0;
  return {
    id: newId('mem', Date.parse(createdAt)),
    agentId,
    content,
    durability: 'standard',
    tags: [],
    subject: null,
    source: 'cli',
    createdAt,
    updatedAt: createdAt,
    expiresAt: null,
    archivedAt: null,
    archivedReason: null,
    derivedFrom: [],
    promotedFrom: null,
    contentHash: contentHash(overrides.content ?? content),
    lastReflectedAt: null,
    retrievalCount: 0,
    lastRetrievedAt: null,
    thread: null,
    versionOf: null,
    ...overrides,
  };
}

export function candidate(agentId: string, claim: string, overrides: Partial<CandidateRecord> = {}): CandidateRecord {
  return {
    id: newId('cand', Date.parse(T0)),
    agentId,
    claim,
    editedClaim: null,
    status: 'pending',
    sourceMemoryIds: [newId('mem')],
    tags: ['lesson'],
    generatedBy: 'test:model',
    provider: 'test',
    generatedAt: T0,
    runId: newId('run'),
    promptSha256: 'a'.repeat(64),
    reviewer: null,
    reviewRationale: null,
    decidedAt: null,
    promotedMemoryId: null,
    forgottenSourceIds: [],
    reopenedBy: null,
    reopenedAt: null,
    reopenReason: null,
    claimNorm: claim.replace(/\s+/g, ' ').trim(),
    prompt: `the prompt for ${claim}`,
    ...overrides,
  };
}

/** A running run of alice's, started at T0 (test/helpers/rows.ts). */
export function run(overrides: Partial<Run> = {}): Run {
  return runRow('alice', T0, overrides);
}

/** A handoff made at T0 (test/helpers/rows.ts). */
export function handoff(agentId: string, overrides: Partial<HandoffRecord> = {}): HandoffRecord {
  return handoffRow(agentId, T0, overrides);
}

/** The HippoError a promise rejects with; fails the test when it resolves or rejects with something else. */
export async function rejection(promise: Promise<unknown>): Promise<HippoError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ('value' in outcome) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  if (outcome.error instanceof HippoError) return outcome.error;
  throw outcome.error;
}

/** Everything an async iterable yields. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
