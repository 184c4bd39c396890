import { createInterface } from 'node:readline/promises';
import { ConflictError, UsageError } from '../core/errors.js';
import { safeText } from '../core/text-guard.js';

/**
 * A destructive action asks on a terminal; `--yes` skips the question; without a terminal it needs `--yes` (exit 2
 * otherwise), so a script never hangs on a prompt. A person who declines stops the command: exit 4, nothing changed.
 */
export async function confirmDestructive(question: string, yes: boolean): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY || process.env.CI) {
    throw new UsageError('confirmation_required', `${question} — not a terminal, so pass --yes to confirm`);
  }
  const readline = createInterface({ input: process.stdin, output: process.stderr });
  let answer: string;
  try {
    answer = await readline.question(`${safeText(question, { lines: 'join' })} [y/N] `);
  } finally {
    readline.close();
  }
  if (!/^y(es)?$/i.test(answer.trim())) throw new ConflictError('declined', 'nothing changed');
}
