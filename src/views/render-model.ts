import { HippoError, type ExitCode } from '../core/errors.js';
import type { ModelCheckResult } from '../core/model/check.js';
import type { ModelConfigSource } from '../core/model/config.js';
import { safeText } from '../core/text-guard.js';
import type { View } from './output.js';
import { redactionLine } from './render-redaction.js';

/** Where the model setting came from, in the command line's words: core's `flag` is `--model` here. */
const sourceWords = (source: ModelConfigSource): string => (source === 'flag' ? '--model' : source);

/** One line of text, guarded: the model id a server reports is text from outside, like a stored claim. */
const inline = (text: string) => safeText(text, { lines: 'join' });

/**
 * `model check`: the resolved configuration and where content would go, then how the test call went. A failed check
 * is an error carrying its fix (and, under --json, the whole check as details); the configuration is shown first.
 */
export const modelCheckView: View<ModelCheckResult> = {
  text: (result, { paint }) => {
    if (!result.configured) return undefined;
    const lines = [
      `${paint('dim', 'provider')}   ${inline(result.provider)} (from ${inline(sourceWords(result.source))})`,
      `${paint('dim', 'model')}      ${inline(result.model)}`,
      ...(result.baseUrl ? [`${paint('dim', 'base URL')}   ${inline(result.baseUrl)}`] : []),
      ...(result.key ? [`${paint('dim', 'key')}        ${inline(result.key)}`] : []),
      `${paint('dim', 'content')}    ${result.leavesMachine ? paint(['bold', 'yellow'], `WARNING: ${inline(result.egress)}`) : inline(result.egress)}`,
      `${paint('dim', 'redaction')}  ${redactionLine(result.redaction)}`,
    ];
    if (!result.called) lines.push(`${paint('dim', 'check')}      not called (--offline)`);
    else if (result.ok)
      lines.push(`${paint('dim', 'check')}      ${paint('green', 'ok')} in ${result.latencyMs} ms (model reported: ${inline(result.reportedModel ?? '')})`);
    return lines.join('\n');
  },
  failure: (result) => {
    if (result.ok || !result.error) return undefined;
    const { error } = result;
    return new HippoError(error.code, `${error.message}\n${error.fix}`, error.exitCode as ExitCode, { details: { check: result } });
  },
};
