/**
 * A hosted model played by the stand-in server: its base URL names `models.hosted.test` (not loopback, so the default
 * redaction policy `auto` redacts), which the preloaded hook resolves to 127.0.0.1. Shared by the redaction review tests.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineSandbox, ROOT, type SandboxEngine } from './cli.js';
import { reply, startModelServer, type ModelServer } from './model-server.js';

const HOOK = join(ROOT, 'test', 'fixtures', 'resolve-to-loopback.mjs');

/** The environment of a `hippo` run whose model is the stand-in `server` played as a hosted model. */
export const hostedEnv = (server: ModelServer, agent: string, region = 'IE'): Record<string, string> => ({
  HIPPO_AGENT: agent,
  HIPPO_REGION: region,
  HIPPO_MODEL: 'openai:hosted-model',
  HIPPO_BASE_URL: server.baseUrl('openai').replace('127.0.0.1', 'models.hosted.test'),
  HIPPO_API_KEY: 'sk-test-0123456789abcdef',
  NODE_OPTIONS: `--import=${HOOK}`,
});

/** Digits of a text, every script's decimal digits read as ASCII (a model reads them so). */
export const digitsOf = (text: string): string =>
  [...text]
    .map((c) => {
      if (!/\p{Nd}/u.test(c)) return '';
      let first = c.codePointAt(0)!;
      while (/\p{Nd}/u.test(String.fromCodePoint(first - 1))) first--;
      return String((c.codePointAt(0)! - first) % 10);
    })
    .join('');

/** What a redaction review case holds to: text or digits that must not leave, and how the case is run. */
export interface Part {
  /** Text that must not be sent. */
  text?: string;
  /** Digits that must not be sent (every script's digits read as ASCII, all other characters left out). */
  digits?: string;
  region?: string;
  /** Extra flags of `memory add` (tags, subject, thread). */
  add?: string[];
  /** `rem rapid --prompt-only`: the prompt is printed, not sent. */
  promptOnly?: boolean;
  engine?: SandboxEngine;
}

export interface Sent {
  exitCode: number;
  /** The raw request bodies and the decoded message texts (and the printed prompt with --prompt-only). */
  sent: string[];
  output: string;
}

/**
 * Adds `text` as a memory (on stdin, so control characters pass), runs `rem rapid` against a stand-in of its own (the
 * cases run concurrently); the exit code and everything that left.
 */
export async function sendToHosted(index: number, text: string, part: Part = {}): Promise<Sent> {
  const server = await startModelServer();
  const box = await engineSandbox(part.engine ?? 'sqlite');
  try {
    const agent = `rv${index}`;
    const added = await box.hippo(['memory', 'add', '--json', ...(part.add ?? [])], { env: { HIPPO_AGENT: agent }, input: text });
    expect(added.exitCode, String(added.stderr)).toBe(0);
    server.respondWith(reply.json({ candidates: [] }));
    const result = await box.hippo(['rem', 'rapid', '--json', ...(part.promptOnly ? ['--prompt-only'] : [])], {
      env: hostedEnv(server, agent, part.region),
    });
    // The raw body, and the decoded message text (JSON escapes such as `\u000b` would put digits of their own in the raw one).
    const sent = server.requests.flatMap((request) => [
      request.rawBody,
      ((request.body?.messages ?? []) as { content: string }[]).map((message) => message.content).join('\n'),
    ]);
    if (part.promptOnly) sent.push(String(result.stdout));
    return { exitCode: result.exitCode ?? -1, sent, output: `${String(result.stdout)}${String(result.stderr)}` };
  } finally {
    await box.dispose();
    await server.close();
  }
}

/** A validated value: replaced or stopped (exit 9), never sent, never exit 1. */
export async function notSent(index: number, text: string, part: Part): Promise<void> {
  const { exitCode, sent, output } = await sendToHosted(index, text, part);
  expect([0, 9], `${text}: exit ${exitCode} ${output}`).toContain(exitCode);
  for (const body of sent) {
    if (part.text !== undefined) expect(body, text).not.toContain(part.text);
    if (part.digits !== undefined) expect(digitsOf(body), text).not.toContain(part.digits);
  }
}

/** Ordinary text: sent as written (exit 0, one request, every fragment in its message unchanged). */
export async function sentAsWritten(index: number, text: string, fragments: readonly string[], region?: string): Promise<void> {
  const { exitCode, sent, output } = await sendToHosted(index, text, region === undefined ? {} : { region });
  expect(exitCode, `${text}: ${output}`).toBe(0);
  const message = sent[1] ?? '';
  for (const fragment of fragments) expect(message, fragment).toContain(fragment);
}

/** A review's cases of a validated value: name, text, what must not leave. */
export type ValueCase = readonly [string, string, Part];
/** A review's cases of ordinary text: name, text, a fragment that must go out as written, the home region. */
export type OrdinaryCase = readonly [string, string, string, string];

/**
 * The review files' case lists (test/commands/rev27*-scratch.test.ts), each case through the real CLI and a stand-in of
 * its own, numbered from `base` (its agent id): `held` (replaced or stopped, never sent), `open` (still sent:
 * `it.fails`, so a fix fails the case and it moves to a held list), `sent` (ordinary text sent as written) and `over`
 * (ordinary text still replaced or stopped: `it.fails`).
 */
export function reviewCases(title: string, kind: 'held' | 'open', cases: readonly ValueCase[], base: number): void;
export function reviewCases(title: string, kind: 'sent' | 'over', cases: readonly OrdinaryCase[], base: number): void;
export function reviewCases(title: string, kind: 'held' | 'open' | 'sent' | 'over', cases: readonly (ValueCase | OrdinaryCase)[], base: number): void {
  describe.concurrent(title, () => {
    (kind === 'open' || kind === 'over' ? it.fails : it).each(cases.map((item, index) => [item[0], index, item] as const))(
      `${kind}: %s`,
      (_name, index, item) =>
        kind === 'held' || kind === 'open'
          ? notSent(base + index, item[1], item[2] as Part)
          : sentAsWritten(base + index, item[1], [item[2] as string], (item as OrdinaryCase)[3]),
      120_000,
    );
  });
}
