import type { ConfigEntry } from '../core/config.js';
import type { EffectiveConfigReport, EffectiveEntry } from '../core/config-effect.js';
import { safeText } from '../core/text-guard.js';
import { table, type Column, type TextView, type View } from './output.js';
import { cutTo } from './width.js';

const inline = (text: string) => safeText(text, { lines: 'join' });

/** A value as `config get` prints it: a list space-separated (what `config set` takes back), nothing when unset. */
export function valueText(value: ConfigEntry['value']): string {
  if (value === null) return '';
  return inline(Array.isArray(value) ? value.join(' ') : String(value));
}

const CONFIG_COLUMNS: Column[] = [
  { header: 'KEY', style: 'bold' },
  { header: 'VALUE' },
  { header: 'FROM', style: 'dim' },
  { header: 'MEANING', style: 'dim', flex: true, optional: true },
];

/** Where a value in effect comes from, in words: the variable, the file, or the default. */
function sourceWords(entry: EffectiveEntry): string {
  if (entry.source === 'env') return entry.env ?? 'environment';
  return entry.source === 'file' ? 'file' : 'default';
}

/**
 * `config list`: the file, then every key with the value in effect (what commands use without a flag) and where it
 * comes from — the environment variable that beats the file, the file, or the default — and what it means.
 */
export const configListView: View<EffectiveConfigReport> = {
  text: (report, context) => {
    const rows = report.keys.map((entry) => [
      entry.key,
      entry.effective === null ? (entry.note ?? '-') : cutTo(valueText(entry.effective), 48),
      sourceWords(entry),
      entry.description,
    ]);
    const where = `${inline(report.path)}${report.exists ? '' : ' (no file yet)'}`;
    return [context.paint('dim', where), table(CONFIG_COLUMNS, rows, context)].join('\n');
  },
  notes: ({ warnings }, { hint }) => [
    ...warnings,
    ...(warnings.length > 0 ? [`the file is refused while it holds them: remove one with ${hint(['config', 'unset', 'KEY'], { agent: null })}`] : []),
  ],
};

/** `config get KEY`: the value alone on stdout (empty when unset), so `$(hippo config get model)` works. */
export const configGetView: View<ConfigEntry & { path: string }> = {
  json: ({ key, value, path }) => ({ key, value, path }),
  text: ({ value }) => valueText(value),
  notes: ({ key, value }, { json }) => [!json && value === null && `${key} is not set in the config file`],
};

export const configSetView: View<ConfigEntry & { path: string }> = {
  json: ({ key, value, path }) => ({ key, value, path }),
  text: ({ key, value, path }) => `${key} = ${valueText(value)} (in ${inline(path)})`,
};

export const configUnsetView: TextView<{ key: string; removed: boolean; path: string }> = ({ key, removed, path }) =>
  removed ? `${inline(key)} removed from ${inline(path)}` : `${inline(key)} was not set in ${inline(path)}`;

export const configPathView: TextView<{ path: string; exists: boolean }> = ({ path }) => inline(path);
