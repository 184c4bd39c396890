import type { RedactMode } from '../core/config-values.js';
import type { Destination, RedactionPolicy } from '../core/redaction.js';
import type { RedactionCounts } from '../core/facts/redact.js';

/** Where the mode came from, in the command line's words. */
function modeSource(mode: RedactMode, source: RedactionPolicy['modeSource']): string {
  if (source === 'option') return mode === 'never' ? '--no-redact' : '--redact';
  return source === 'config' ? 'config "redact"' : 'default';
}

const DESTINATIONS: Record<Destination | 'none', string> = {
  loopback: 'the model is on this machine',
  remote: 'the model is not on this machine',
  command: 'a model command may send it anywhere',
  handoff: 'a prompt-only handoff may be pasted anywhere',
  none: 'no model is configured',
};

/** `2 email, 1 card`: values per kind, never the values. */
export function countWords(counts: RedactionCounts): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n !== undefined && n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  return parts.length === 0 ? 'nothing to replace' : parts.join(', ');
}

/**
 * One line about redaction: the mode and where it came from, whether it applies for where the text goes, the kinds,
 * and (when counted) what it replaces — numbers per kind only.
 */
export function redactionLine(
  report: { mode: RedactMode; modeSource: RedactionPolicy['modeSource']; kinds: readonly string[]; destination: Destination | 'none'; applies: boolean },
  counts?: RedactionCounts,
): string {
  const why = `${report.mode} from ${modeSource(report.mode, report.modeSource)}; ${DESTINATIONS[report.destination]}`;
  if (!report.applies) return `off (${why})${counts === undefined ? '' : `; would find ${countWords(counts)}`}`;
  return `on (${why}): ${report.kinds.join(', ')} replaced by placeholders${counts === undefined ? '' : `; ${countWords(counts)}`}`;
}
