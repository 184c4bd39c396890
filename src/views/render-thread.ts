import type { ThreadResult } from '../core/memory/rethread.js';
import { safeText } from '../core/text-guard.js';
import type { View } from './output.js';

const memories = (count: number) => `${count} ${count === 1 ? 'memory' : 'memories'}`;

/** `memory thread`: how many memories moved where, and how many were there already. */
export const memoryThreadView: View<ThreadResult> = {
  json: ({ thread, moved, unchanged }) => ({ thread, moved, unchanged }),
  text: ({ thread, moved, unchanged }) => {
    const where = thread === null ? 'out of their thread' : `into thread "${safeText(thread, { lines: 'join' })}"`;
    const lines = [`moved ${memories(moved.length)} ${where}; their search context follows`];
    if (unchanged.length > 0) lines.push(`${memories(unchanged.length)} ${thread === null ? 'had no thread' : 'were in it already'} (left as they were)`);
    return lines.join('\n');
  },
};
