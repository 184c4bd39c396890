import type { ConfigEntry, ConfigFileReport } from '../core/config.js';
import { safeText } from '../core/text-guard.js';
import { table, type Column, type TextView, type View } from './output.js';

const inline = (text: string) => safeText(text, { lines: 'join' });

/** A value as `config get` prints it: a list space-separated (what `config set` takes back), nothing when unset. */
export function valueText(value: ConfigEntry['value']): string {
  if (value === null) return '';
  return inline(Array.isArray(value) ? value.join(' ') : String(value));
}

const CONFIG_COLUMNS: Column[] = [{ header: 'KEY', style: 'bold' }, { header: 'VALUE' }, { header: 'MEANING', style: 'dim', flex: true }];

/** `config list`: the file, then every key with its value there (`-` when not set) and what it means. */
export const configListView: View<ConfigFileReport> = {
  text: (report, context) => {
    const rows = report.keys.map((entry) => [entry.key, entry.value === null ? '-' : valueText(entry.value), entry.description]);
    const where = `${inline(report.path)}${report.exists ? '' : ' (no file yet: every key is unset)'}`;
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
