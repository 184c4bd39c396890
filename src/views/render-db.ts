import type { CheckResult, CopyResult } from '../core/db-copy.js';
import { safeText } from '../core/text-guard.js';
import type { TextView } from './output.js';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** `hippo db copy`: what went where, table by table, with the hashes both sides agreed on. */
export const copyView: TextView<CopyResult> = (result) =>
  safeText(
    [
      `copied ${plural(result.rows, 'row')} from ${result.from.location} (${result.from.engine}) to ${result.to.location} (${result.to.engine}), verified:`,
      ...result.tables.map((table) => `  ${table.table.padEnd(10)} ${String(table.rows).padStart(9)}  sha256 ${table.sha256.slice(0, 16)}`),
    ].join('\n'),
  );

/** `hippo db check`: the engine, where the data lives, versions, and each table read whole. */
export const checkView: TextView<CheckResult> = (result) =>
  safeText(
    [
      `store      ${result.location}`,
      `engine     ${result.engine} ${result.engineVersion}`,
      `schema     version ${result.schemaVersion}`,
      `nightly    ${result.lockHolder ? `running (${result.lockHolder.kind} ${result.lockHolder.runId})` : 'not running'}${result.paused ? ', paused' : ''}`,
      'tables     all rows read back:',
      ...result.tables.map((table) => `  ${table.table.padEnd(10)} ${String(table.rows).padStart(9)}  sha256 ${table.sha256.slice(0, 16)}`),
    ].join('\n'),
  );
