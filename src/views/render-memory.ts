import type { DemoResult } from '../core/demo.js';
import { UsageError } from '../core/errors.js';
import type { ImportResult } from '../core/memory/import.js';
import type { ArchiveResult } from '../core/memory/lifecycle.js';
import type { AddMemoryResult, Memory } from '../core/memory/memory.js';
import { safeText } from '../core/text-guard.js';
import { cut, table, timeColumn, type Column, type TextContext, type TextView, type View } from './output.js';
import { shownNote } from './hints.js';

/** `memory list`: one row per memory — id, creation time, durability, tags, and the content cut to the width left. */
export function memoryTable(memories: readonly Memory[], context: TextContext): string {
  const created = timeColumn(
    'CREATED',
    memories.map((memory) => memory.createdAt),
    context,
  );
  const columns: Column[] = [
    { header: 'ID', style: 'dim' },
    { header: created.header, style: 'dim' },
    { header: 'DURABILITY', style: 'dim', optional: true },
    { header: 'TAGS', style: 'dim', optional: true },
    { header: 'CONTENT', flex: true },
  ];
  const rows = memories.map((memory, index) => [
    memory.id,
    created.cells[index]!,
    memory.archivedAt ? `${memory.durability} (archived)` : memory.durability,
    cut(memory.tags.join(', '), 30),
    safeText(memory.content, { lines: 'join' }),
  ]);
  return table(columns, rows, context);
}

/** The full record of one memory, as `memory show` prints it; times as people read them. */
export function memoryDetail(memory: Memory, { paint, time }: Pick<TextContext, 'paint' | 'time'>): string {
  const at = (value: string | null) => (value === null ? null : time(value, { seconds: true }));
  const rows: [string, string | null | undefined][] = [
    ['id', memory.id],
    ['agent', memory.agentId],
    ['durability', memory.durability],
    ['tags', memory.tags.join(', ') || null],
    ['subject', memory.subject],
    ['source', memory.source],
    ['thread', memory.thread],
    ['version of', memory.versionOf],
    ['created', at(memory.createdAt)],
    ['updated', memory.updatedAt !== memory.createdAt ? at(memory.updatedAt) : null],
    ['expires', at(memory.expiresAt)],
    ['archived', memory.archivedAt ? `${at(memory.archivedAt)} (${memory.archivedReason ?? ''})` : null],
    ['derived from', memory.derivedFrom.join(', ') || null],
    ['promoted from', memory.promotedFrom],
    ['retrieved', memory.retrievalCount > 0 ? `${memory.retrievalCount}× (last ${at(memory.lastRetrievedAt)})` : null],
    ['reflected', at(memory.lastReflectedAt)],
  ];
  const head = rows
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([label, value]) => `${paint('dim', label.padEnd(13))} ${safeText(String(value))}`)
    .join('\n');
  return `${head}\n\n${safeText(memory.content)}`;
}

/** `memory list`: the table, or that there is none; warnings (another agent has memories) on stderr and in JSON. */
export const memoryListView: View<{ memories: Memory[]; total: number; truncated: boolean; warnings: string[] }> = {
  text: ({ memories }, context) => (memories.length === 0 ? 'no memories' : memoryTable(memories, context)),
  notes: ({ memories, warnings, ...listed }, { json }) => [...warnings, shownNote(memories.length, listed, { json })],
};

export const memoryShowView: TextView<{ memory: Memory; versions?: Memory[]; forgottenSources?: string[] }> = (
  { memory, versions = [], forgottenSources = [] },
  context,
) => {
  const flagged =
    forgottenSources.length > 0
      ? `\n${context.paint('bold', `a source was forgotten: ${forgottenSources.join(', ')} (memory forget; this insight may restate it)`)}`
      : '';
  const detail = memoryDetail(memory, context) + flagged;
  if (versions.length === 0) return detail;
  const lines = versions.map((version) => `  ${version.id}  ${context.time(version.archivedAt ?? version.updatedAt, { seconds: true })}`);
  return `${detail}\n\n${context.paint('dim', `older versions (${versions.length}, newest first; archived):`)}\n${lines.join('\n')}`;
};

export const memoryAddView: View<AddMemoryResult> = {
  json: ({ memory, duplicateOf }) => ({ memory, duplicateOf }),
  text: ({ memory }, { paint, time }) =>
    `added ${paint('bold', memory.id)} (${memory.durability}${memory.expiresAt ? `, expires ${time(memory.expiresAt)}` : ''})`,
  notes: ({ duplicateOf }) => [duplicateOf.length > 0 && `warning: same text as ${duplicateOf.join(', ')} (added anyway)`],
};

export const memoryArchiveView: View<ArchiveResult> = {
  json: ({ archived, alreadyArchived }) => ({ archived, alreadyArchived }),
  text: ({ archived, alreadyArchived }) =>
    [...archived.map((memory) => `archived ${memory.id}`), ...alreadyArchived.map((id) => `${id} was already archived`)].join('\n'),
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `memory import --dry-run`: what each file would do; nothing was written. Exit 2 when a file would be refused. */
function importDryRunText(result: ImportResult): string {
  const lines = result.files.map((file) => {
    if (file.error) return `  refuse  ${safeText(file.error.message, { lines: 'join' })}`;
    const parts = [`would add ${file.imported}`];
    if (file.duplicates > 0) parts.push(`${file.duplicates} of them repeat text already stored`);
    if (file.existing > 0) parts.push(`skip ${file.existing} already present`);
    return `  ${parts.join(', ')}  ${safeText(file.path, { lines: 'join' })}`;
  });
  const refused = result.files.filter((file) => file.error).length;
  const head = `dry run: would add ${result.imported} ${result.imported === 1 ? 'memory' : 'memories'}, skip ${result.existing} already present, refuse ${plural(refused, 'file')}`;
  return [head, ...lines, 'nothing written (dry run)'].join('\n');
}

export const memoryImportView: View<ImportResult> = {
  text: (result) => {
    if (result.dryRun) return importDryRunText(result);
    if (result.files.some((file) => file.error)) return undefined; // the failure says it all
    const files = result.files.length;
    const existing = result.existing > 0 ? `, ${result.existing} already present (skipped)` : '';
    return `imported ${result.imported} memories from ${files} file${files === 1 ? '' : 's'}${existing}`;
  },
  notes: (result) => [
    !result.dryRun && result.duplicates > 0 && `warning: ${result.duplicates} imported memories repeat text already stored (kept; see memory list)`,
  ],
  // A file that failed imported nothing (its own transaction); the others are kept, and the command exits 2.
  failure: (result) => {
    const failed = result.files.filter((file) => file.error);
    if (failed.length === 0 || result.dryRun) return undefined;
    const others = result.files.length - failed.length;
    // Only when there were other files: "0 memories imported from the other files" of none says nothing true.
    const rest = others > 0 ? `\n${result.imported} memories imported from the other ${plural(others, 'file')}` : '';
    return new UsageError(
      'import_failed',
      `${failed.length} of ${result.files.length} files not imported (nothing from them was written):\n${failed.map((file) => `  ${file.error!.message}`).join('\n')}${rest}`,
      { details: { ...result } },
    );
  },
  exitCode: (result) => (result.dryRun && result.files.some((file) => file.error) ? 2 : undefined),
};

/** `memory export --output FILE`. */
export const memoryExportFileView: TextView<{ exported: number; path: string }> = ({ exported, path }) =>
  `exported ${exported} memories to ${safeText(path, { lines: 'join' })}`;

/** `memory export` to stdout: the lines are the output, so the count goes to stderr. */
export const memoryExportStdoutView: View<{ exported: number }> = { notes: ({ exported }) => [`exported ${exported} memories`] };

/**
 * `demo`: what was loaded and where; then on stderr how to use it — the exports that point a shell at the demo store
 * (when it is not the default one) and the agent with most notes, and a search to try.
 */
export function demoView(dbPath: string): View<DemoResult & { path: string; demoStore: boolean }> {
  return {
    json: (result) => result,
    text: (result, { time }) => {
      const where = `${safeText(dbPath, { lines: 'join' })}${result.demoStore ? ' (the demo store; your own store is untouched)' : ''}`;
      const head =
        result.status === 'already-loaded'
          ? `the demo is already loaded in ${where}; nothing written`
          : `loaded ${result.memories} demo memories into ${where}`;
      const agents = result.agents.map((agent) => `  ${safeText(agent.agentId, { lines: 'join' })}: ${agent.memories} memories, newest ${time(agent.newest)}`);
      return [head, ...agents].join('\n');
    },
    notes: (result, { json, hint }) => {
      if (json) return [];
      const first = [...result.agents].sort((a, b) => b.memories - a.memories)[0]?.agentId ?? 'default';
      const exports = { ...(hint.context.db ? { HIPPO_DB: hint.context.db } : {}), HIPPO_AGENT: first };
      return [
        `to use it in this shell:  ${hint.exportLine(exports)}`,
        `then try:                 hippo search deploy`,
        `or in one line:           ${hint(['search', 'deploy'], { agent: first })}`,
      ];
    },
  };
}
