import type { CheckResult, CopyResult } from '../core/db-copy.js';
import { withoutPassword } from '../core/paths.js';
import { safeText } from '../core/text-guard.js';
import { hintBuilder } from './hints.js';
import type { TextView } from './output.js';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * `hippo db copy`: what went where, table by table, with the hashes both sides agreed on; then the MCP tokens left
 * behind, each with the command that creates it anew on the target (against the target, its password left out).
 */
export const copyView: TextView<CopyResult> = (result, { hint }) => {
  const { tokensNotCopied: tokens } = result;
  const target = hintBuilder({ db: withoutPassword(result.to.location) }, hint(['x'], { agent: null }).split(' ')[0]);
  const create = tokens.agents.flatMap(({ agentId, labels }) =>
    labels.map((label) => `  ${target(['mcp', 'token', 'create', ...(label === null ? [] : ['--label', label])], { agent: agentId })}`),
  );
  return safeText(
    [
      `copied ${plural(result.rows, 'row')} from ${result.from.location} (${result.from.engine}) to ${result.to.location} (${result.to.engine}), verified:`,
      ...result.tables.map((table) => `  ${table.table.padEnd(10)} ${String(table.rows).padStart(9)}  sha256 ${table.sha256.slice(0, 16)}`),
      ...(tokens.live === 0
        ? []
        : [
            `MCP tokens are not copied (credentials of the store that issued them, not data): the source has ${plural(tokens.live, 'live token')}. Create ${tokens.live === 1 ? 'it' : 'them'} anew on the copy and give the new secrets to their clients:`,
            ...create,
          ]),
    ].join('\n'),
  );
};

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
