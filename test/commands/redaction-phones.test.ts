/**
 * Issue 28 through the real parts: the built CLI, a real SQLite file, `rem rapid --prompt-only` with redaction on. A
 * value that is not a phone — a credit-note number with letters glued on, an SSN, an invoice number, the digits that
 * open a street line, a ZIP+4 code — must reach the prompt as written, never as a phone placeholder; a real phone in
 * the same memories is still replaced.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

const NOT_PHONES = ['CN-2026-0142', '078-05-1120', '2024 00017', '88120 4471', '02139-4307'];
const MEMORIES = [
  'Credit note CN-2026-0142 was issued for the March refund.',
  'Payroll: her SSN: 078-05-1120 is on file with HR.',
  'Invoice no. 2024 00017 is overdue by two weeks.',
  'The new shop is at 88120 4471 Elm St Suite 12.',
  'Ship the samples to 77 Massachusetts Ave, Cambridge, MA 02139-4307.',
];
const PHONE = '+49 30 1234567';

let box: Sandbox;

beforeEach(async () => {
  box = sandbox();
  const store = await openSqliteStore({ path: box.db });
  const now = Date.now();
  for (const [index, content] of [...MEMORIES, `Call Jonas at the Berlin office on ${PHONE} about the samples.`].entries()) {
    await addMemory(store, { agentId: 'ops', content, createdAt: new Date(now - (index + 1) * 60_000).toISOString() });
  }
  await store.close();
  mkdirSync(join(box.env.XDG_CONFIG_HOME!, 'hippo'), { recursive: true });
  writeFileSync(join(box.env.XDG_CONFIG_HOME!, 'hippo', 'config.json'), JSON.stringify({ redact: 'always' }));
});
afterEach(() => box.cleanup());

describe('rem rapid --prompt-only with redaction: a phone is a phone', () => {
  for (const region of ['US', 'DE', 'GB']) {
    it(`keeps credit-note, SSN, invoice, street-line and ZIP numbers as written and still replaces the phone (home ${region})`, async () => {
      const result = await box.hippo(['rem', 'rapid', '--prompt-only', '--json'], { env: { HIPPO_AGENT: 'ops', HIPPO_REGION: region } });
      expect(result.exitCode, String(result.stderr)).toBe(0);
      const body = json<{ prompt: string; redaction: { applies: boolean; counts: Record<string, number> } }>(result);
      expect(body.redaction).toMatchObject({ mode: 'always', applies: true, counts: { phone: 1 } });
      for (const value of NOT_PHONES) expect(body.prompt, value).toContain(value);
      expect(body.prompt).not.toContain(PHONE);
      expect(body.prompt).toContain('on ⟦phone 1⟧ about the samples');
      expect(body.prompt).not.toContain('⟦phone 2⟧');
    });
  }
});
