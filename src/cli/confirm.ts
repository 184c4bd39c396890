import { createInterface } from 'node:readline/promises';
import { UsageError } from '../core/errors.js';

/**
 * SPEC §3: a destructive action asks on a terminal; `--yes` skips the question; without a terminal it needs `--yes`
 * (exit 2 otherwise), so a script never hangs on a prompt. Returns false when the person declines.
 */
export async function confirmDestructive(question: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY || !process.stderr.isTTY || process.env.CI) {
    throw new UsageError('confirmation_required', `${question} — not a terminal, so pass --yes to confirm`);
  }
  const readline = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await readline.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    readline.close();
  }
}
