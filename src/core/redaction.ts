/**
 * The egress redaction policy (issue 17; docs/redaction.md): when validated personal data in a prompt is replaced by
 * placeholders before the prompt may leave the machine. The replacing itself is pure and lives with the recognisers
 * (`facts/redact.ts`); this module decides whether it applies and with which kinds.
 *
 * Mode: the caller's choice (the CLI's flag) > config `redact` > `auto`. `auto` redacts whenever the text may leave
 * the machine: a model at a non-loopback base URL, any command model (we cannot see where a command sends its stdin),
 * and every prompt-only handoff (a person may paste it anywhere); not for a model server on loopback. `always` and
 * `never` say what they mean. Kinds: config `redactKinds`, else email, phone, iban and card.
 */
import { loadConfig, type HippoConfig } from './config.js';
import { parseRedactKinds, parseRedactMode, type RedactMode } from './config-values.js';
import { DEFAULT_REDACT_KINDS, type RedactKind } from './facts/kinds.js';
import { RedactionIncompleteError } from './errors.js';
import type { RedactionCounts, Redactor } from './facts/redact.js';
import type { ModelConfig } from './model/config.js';
import { staysOnMachine } from './model/loopback.js';

/** Where a prompt goes: a model server on loopback, one elsewhere, a command, or a person (a prompt-only handoff). */
export type Destination = 'loopback' | 'remote' | 'command' | 'handoff';

export interface RedactionPolicy {
  mode: RedactMode;
  /** Where the mode came from: the caller's own choice (`option`: the CLI's flag), the config file, or the default. */
  modeSource: 'option' | 'config' | 'default';
  kinds: RedactKind[];
  kindsSource: 'config' | 'default';
}

/** What a command reports about redaction: the policy, where the text goes, whether it applies, and counts per kind. */
export interface RedactionReport {
  mode: RedactMode;
  modeSource: RedactionPolicy['modeSource'];
  kinds: RedactKind[];
  /** Where the text would go; `none` when no model is configured. */
  destination: Destination | 'none';
  applies: boolean;
  /** Distinct values per kind replaced (or, in a dry run, that would be): numbers only, never the values. */
  counts: RedactionCounts;
}

/** The policy in force: `mode` (the caller's choice) > config `redact` > `auto`; kinds from config `redactKinds`. */
export function resolveRedaction(input: { mode?: RedactMode; env?: NodeJS.ProcessEnv; config?: HippoConfig } = {}): RedactionPolicy {
  const config = input.config ?? loadConfig({ env: input.env ?? process.env });
  const mode = input.mode ?? (config.redact === undefined ? 'auto' : parseRedactMode(config.redact, 'config "redact"'));
  const modeSource = input.mode !== undefined ? 'option' : config.redact !== undefined ? 'config' : 'default';
  const kinds = config.redactKinds === undefined ? [...DEFAULT_REDACT_KINDS] : parseRedactKinds(config.redactKinds, 'config "redactKinds"');
  return { mode, modeSource, kinds, kindsSource: config.redactKinds === undefined ? 'default' : 'config' };
}

/** Where a model config sends its prompts. */
export function destinationOf(config: ModelConfig): Destination {
  if (config.provider === 'command') return 'command';
  return staysOnMachine(config) ? 'loopback' : 'remote';
}

/** Whether the policy redacts text going to `destination` (`none`: no model; only `always` redacts then). */
export function redactionApplies(policy: Pick<RedactionPolicy, 'mode'>, destination: Destination | 'none'): boolean {
  if (policy.mode === 'always') return true;
  if (policy.mode === 'never') return false;
  return destination === 'remote' || destination === 'command' || destination === 'handoff';
}

/**
 * A redactor for one request under `policy`, with the phone regions in force (the same as extract's), or undefined
 * when the policy does not redact text going to `destination`.
 */
export async function redactorFor(policy: RedactionPolicy, destination: Destination | 'none'): Promise<Redactor | undefined> {
  if (!redactionApplies(policy, destination)) return undefined;
  // Loaded here: the regions bring libphonenumber's metadata and the redactor the recognisers, and this module is
  // loaded by every command that may call a model.
  const [{ resolveRegions }, { Redactor }] = await Promise.all([import('./regions.js'), import('./facts/redact.js')]);
  const { region, regions } = resolveRegions();
  return new Redactor({ kinds: policy.kinds, region: region ?? null, regions });
}

/**
 * Stops a request whose redacted text still holds a value of a redacted kind (the redactor's second reading, with the
 * placeholders in place, found one the first reading missed): `redaction_incomplete`, exit 9, nothing sent.
 */
export function assertNothingLeft(redactor: Redactor | undefined): void {
  const kinds = redactor?.leftBehind() ?? [];
  if (kinds.length > 0) throw new RedactionIncompleteError(kinds);
}

/** The report of one request: the policy, the destination, whether it applied, and the redactor's counts. */
export function redactionReport(policy: RedactionPolicy, destination: Destination | 'none', redactor: Redactor | undefined): RedactionReport {
  return {
    mode: policy.mode,
    modeSource: policy.modeSource,
    kinds: policy.kinds,
    destination,
    applies: redactionApplies(policy, destination),
    counts: redactor?.counts() ?? {},
  };
}

/** A run row's counts for a redaction: `redactedEmail: 2`… (kinds with at least one value; numbers only). */
export function redactionRunCounts(counts: RedactionCounts): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts)
      .filter((entry): entry is [string, number] => entry[1] !== undefined && entry[1] > 0)
      .map(([kind, n]) => [`redacted${kind.charAt(0).toUpperCase()}${kind.slice(1)}`, n]),
  );
}
