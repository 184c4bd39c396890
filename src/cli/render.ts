import type { Memory } from '../core/memory.js';
import { cut, printable, shortDate, type Painter } from './output.js';

/** One line per memory: id, date, durability, tags, then the content cut to the width left. */
export function memoryLine(memory: Memory, paint: Painter, width: number): string {
  const tags = memory.tags.length > 0 ? ` [${memory.tags.join(', ')}]` : '';
  const archived = memory.archivedAt ? ' (archived)' : '';
  const head = `${memory.id}  ${shortDate(memory.createdAt)}  ${memory.durability}${tags}${archived}`;
  const room = Math.max(20, width - head.length - 2);
  return `${paint('dim', head)}  ${cut(memory.content, room)}`;
}

/** The full record of one memory, as `memory show` prints it. */
export function memoryDetail(memory: Memory, paint: Painter): string {
  const rows: [string, string | null | undefined][] = [
    ['id', memory.id],
    ['agent', memory.agentId],
    ['durability', memory.durability],
    ['tags', memory.tags.join(', ') || null],
    ['subject', memory.subject],
    ['source', memory.source],
    ['created', memory.createdAt],
    ['updated', memory.updatedAt !== memory.createdAt ? memory.updatedAt : null],
    ['expires', memory.expiresAt],
    ['archived', memory.archivedAt ? `${memory.archivedAt} (${memory.archivedReason ?? ''})` : null],
    ['derived from', memory.derivedFrom.join(', ') || null],
    ['promoted from', memory.promotedFrom],
    ['retrieved', memory.retrievalCount > 0 ? `${memory.retrievalCount}× (last ${memory.lastRetrievedAt})` : null],
    ['reflected', memory.lastReflectedAt],
  ];
  const head = rows
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([label, value]) => `${paint('dim', label.padEnd(13))} ${printable(String(value))}`)
    .join('\n');
  return `${head}\n\n${printable(memory.content)}`;
}
