import type { StoreOps } from '../store/port.js';
import { iso } from '../time.js';

/** `hippo rem pause` stores this row; `HIPPO_REM_PAUSE` pauses without touching the database. */
export const PAUSE_KEY = 'nightly.paused';

export interface PauseState {
  paused: boolean;
  /** What paused it: the stored flag (`hippo rem pause`) or the environment (`HIPPO_REM_PAUSE`). */
  by: 'hippo rem pause' | 'HIPPO_REM_PAUSE' | null;
  /** When `hippo rem pause` was run (null for the environment switch). */
  since: string | null;
}

/** Any value but empty, `0`, `false`, `no` or `off` pauses: a pause switch that errs on the side of pausing. */
export function pausedByEnv(env: NodeJS.ProcessEnv): boolean {
  const value = env.HIPPO_REM_PAUSE?.trim().toLowerCase();
  return value !== undefined && !['', '0', 'false', 'no', 'off'].includes(value);
}

export async function pauseState(store: StoreOps, env: NodeJS.ProcessEnv = process.env): Promise<PauseState> {
  const since = await store.settings.get(PAUSE_KEY);
  if (since !== undefined) return { paused: true, by: 'hippo rem pause', since };
  if (pausedByEnv(env)) return { paused: true, by: 'HIPPO_REM_PAUSE', since: null };
  return { paused: false, by: null, since: null };
}

/** Pauses nightly runs (idempotent: pausing twice keeps the first time). */
export async function pauseNightly(store: StoreOps): Promise<PauseState> {
  await store.settings.setIfAbsent(PAUSE_KEY, iso(store.clock()));
  return pauseState(store, {});
}

/** Resumes nightly runs; says whether they were paused by `hippo rem pause`. The environment switch stays as set. */
export async function resumeNightly(store: StoreOps): Promise<{ wasPaused: boolean }> {
  return { wasPaused: await store.settings.delete(PAUSE_KEY) };
}
