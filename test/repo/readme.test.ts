/**
 * The README's tour, run as a new user would: every line of every `sh` block from "A tour with the demo data" to the
 * next top-level section, in order, in one shell, in a fresh sandbox (HOME and the XDG dirs in a temp dir, a copy of
 * `examples/`, the built `bin/run.js` as `hippo` on PATH, a stand-in Ollama server on 127.0.0.1 as the model server).
 *
 * The README's own conventions (its Development section says them): a line exits 0 unless its comment announces
 * another code with `(exit N)`; a line whose comment says `(needs …)` needs what this test cannot provide and is
 * skipped; `cand_…` is the first pending candidate at that moment and `hof_…` the handoff id printed last;
 * `answer.json` is a model's reply citing the memories it was shown (the user's paste-into-a-chat step).
 */
import { execa } from 'execa';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, sandbox, type Sandbox } from '../helpers/cli.js';
import { reply, useModelServer } from '../helpers/model-server.js';

export interface TourLine {
  /** 1-based line number in README.md. */
  number: number;
  command: string;
  comment: string;
  expectedExit: number;
  skip: boolean;
}

/** The comment of a shell line: from the first `#` outside quotes that starts a word. */
function splitComment(line: string): { command: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') i++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '\\') i++;
    else if (char === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
  }
  return { command: line.trim(), comment: '' };
}

/** The command lines of the tour's `sh` blocks, with what each announces. */
export function tourLines(readme: string): TourLine[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith('## A tour with the demo data'));
  if (start < 0) throw new Error('README.md has no "## A tour with the demo data" section');
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const tour: TourLine[] = [];
  let inShell = false;
  for (let index = start; index < (end < 0 ? lines.length : end); index++) {
    const line = lines[index]!;
    if (line.startsWith('```')) {
      inShell = !inShell && line.trim() === '```sh';
      continue;
    }
    if (!inShell) continue;
    const { command, comment } = splitComment(line);
    if (command === '') continue;
    const exit = /\(exit (\d+)\b[^)]*\)/.exec(comment);
    tour.push({ number: index + 1, command, comment, expectedExit: exit ? Number(exit[1]) : 0, skip: /\(needs [^)]+\)/.test(comment) });
  }
  return tour;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** One bash script: each line as written (ids filled in), its exit code checked against what the README announces. */
function script(lines: readonly TourLine[]): string {
  const out = [
    'set -o pipefail',
    // The first pending candidate of the agent in effect, and the handoff id printed last.
    `__cand() { hippo rem candidates --json | node -e 'const d = JSON.parse(require("fs").readFileSync(0, "utf8")); const c = d.candidates.find((c) => c.status === "pending"); if (!c) process.exit(9); console.log(c.id)'; }`,
    `__hof() { grep -ho 'hof_[0-9A-Z]\\{26\\}' "$__TOUR/stderr.log" | tail -n 1; }`,
    ': > "$__TOUR/stderr.log"',
  ];
  for (const line of lines) {
    if (line.skip) {
      out.push(`echo ${quote(`>>> README.md:${line.number} skipped (${line.comment}): ${line.command}`)}`);
      continue;
    }
    const command = line.command.replaceAll('cand_…', '"$(__cand)"').replaceAll('hof_…', '"$(__hof)"');
    out.push(
      `echo ${quote(`>>> README.md:${line.number}: ${line.command}`)}`,
      `{ ${command}\n} 2> "$__TOUR/stderr.now"`,
      '__rc=$?',
      'cat "$__TOUR/stderr.now" >> "$__TOUR/stderr.log"; cat "$__TOUR/stderr.now"',
      `if [ "$__rc" -ne ${line.expectedExit} ]; then echo ${quote(`README.md:${line.number} exited `)}"$__rc"${quote(
        ` where the README announces ${line.expectedExit}: ${line.command}`,
      )}; exit 1; fi`,
    );
  }
  out.push('echo ">>> the tour ran to the end"');
  return out.join('\n');
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe("the README's tour", () => {
  const server = useModelServer();
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(() => box.cleanup());

  it('finds the tour lines and their announcements', () => {
    const lines = tourLines(README);
    expect(lines.length).toBeGreaterThan(15);
    expect(lines[0]!.command).toBe('hippo demo');
    expect(lines.filter((line) => line.skip).map((line) => line.command)).toEqual(["hippo rem rapid --via 'ollama run llama3.2'"]);
    // The demo store stays in effect until the tour says to leave it: after the facts and the distillation.
    const unset = lines.findIndex((line) => line.command.startsWith('unset HIPPO_DB'));
    expect(unset).toBeGreaterThan(lines.findIndex((line) => line.command.startsWith('hippo rem reject')));
    expect(unset).toBeGreaterThan(lines.findIndex((line) => line.command.startsWith('hippo extract')));
  });

  it('runs every line of the tour in a fresh sandbox, each exiting as the README says', { timeout: 300_000 }, async () => {
    // Whatever the model is asked, it stages two candidates citing the first two memories it was shown.
    server.respondWith(
      reply.json({
        candidates: [
          { claim: 'Deploys that run a migration need the lock check first.', sources: ['m1'] },
          { claim: 'Friday afternoons see most of the failed deploys.', sources: ['m2'] },
        ],
      }),
    );
    const home = join(box.dir, 'home');
    const shims = join(box.dir, 'shims');
    const work = join(home, 'hippo');
    mkdirSync(shims, { recursive: true });
    mkdirSync(work, { recursive: true });
    writeFileSync(join(shims, 'hippo'), `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(BIN)} "$@"\n`);
    chmodSync(join(shims, 'hippo'), 0o755);
    cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
    // The reply a user saves after pasting prompt.txt into a chat model.
    writeFileSync(
      join(work, 'answer.json'),
      'Here is the JSON you asked for:\n```json\n{"candidates": [{"claim": "Staging deploys fail when a migration waits on a lock.", "sources": ["m1"]}]}\n```\n',
    );
    const env: Record<string, string | undefined> = {
      PATH: `${shims}${delimiter}${process.env.PATH ?? ''}`,
      HOME: home,
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      // A model named in the tour (ollama:…) is served by the stand-in on 127.0.0.1.
      HIPPO_BASE_URL: server.baseUrl('ollama'),
      HIPPO_DB: undefined,
      HIPPO_AGENT: undefined,
      HIPPO_MODEL: undefined,
      HIPPO_REGION: undefined,
      HIPPO_API_KEY: undefined,
      OPENAI_API_KEY: undefined,
      ANTHROPIC_API_KEY: undefined,
      HIPPO_REVIEWER: 'readme-test',
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
      __TOUR: box.dir,
    };
    const lines = tourLines(README);
    const result = await execa('bash', ['-c', script(lines)], { cwd: work, env, extendEnv: true, reject: false, input: '', all: true });
    expect(result.exitCode, String(result.all)).toBe(0);
    expect(String(result.all)).toContain('>>> the tour ran to the end');
    // The model was asked by `hippo rem rapid` (the stand-in answered), and the demo store holds the promotion.
    expect(server.requests.length).toBeGreaterThan(0);
  });
});
