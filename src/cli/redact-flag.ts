import * as Flags from '@oclif/core/flags';
import type { RedactMode } from '../core/config-values.js';

/** `--redact` / `--no-redact` (docs/redaction.md): the command's redaction mode, over config `redact` and `auto`. */
export const redactFlag = Flags.boolean({
  allowNo: true,
  description:
    'replace emails, phones, IBANs and cards in what is sent to a model by placeholders (default: config "redact", else whenever the text may leave this machine); --no-redact sends them as written',
});

/** The mode a `--redact`/`--no-redact` stands for; undefined when neither was given. */
export function redactMode(flag: boolean | undefined): RedactMode | undefined {
  return flag === undefined ? undefined : flag ? 'always' : 'never';
}
