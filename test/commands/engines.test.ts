/**
 * The command suite on both engines (issue 11): every scenario here runs the real built CLI against a SQLite file and
 * against a fresh PostgreSQL database (one per sandbox, on the test server the global setup provides), then compares
 * the two transcripts — exit codes, text, and `--json` documents — after replacing what must differ (ids, times, the
 * store's location, scores). Each scenario also checks what it did on its own, so a bug common to both engines fails
 * too. No PostgreSQL → the global setup fails the run; nothing here skips.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/core/memory/memory.js';
import { openStore } from '../../src/core/store/store.js';
import { engineSandbox, json, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';
import { reply, useModelServer } from '../helpers/model-server.js';

const server = useModelServer({ per: 'suite' });
const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

interface Step {
  args: string[];
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** Records each command's outcome, normalised so the two engines' transcripts compare equal when they behave alike. */
class Transcript {
  readonly steps: Step[] = [];
  private readonly ids = new Map<string, string>();
  constructor(readonly box: EngineSandbox) {}

  async run(args: string[], options: Parameters<EngineSandbox['hippo']>[1] = {}): Promise<Result> {
    const result = await this.box.hippo(args, options);
    // Search ranks by each engine's own statistics (bm25 over FTS5; BM25 over tsvector, Snowball stemming: see
    // docs/postgres.md "What differs"), and snippet() and ts_headline pick their fragments differently: for a search,
    // the number of hits, the top hit and the shape of a hit are compared, not the order of the rest.
    const search = args[0] === 'search';
    this.steps.push({
      args: args.map((arg) => this.normalise(arg)),
      exitCode: result.exitCode,
      stdout: this.normalise(search ? searchSummary(String(result.stdout)) : String(result.stdout)),
      stderr: this.normalise(String(result.stderr)),
    });
    return result;
  }

  /** Ids in order of first appearance, times, the store, paths of the sandbox, scores and durations. */
  normalise(text: string): string {
    return (
      text
        .replace(/'?postgres(?:ql)?\\?:\/\/[^\s'";]+'?/g, '<db>')
        .replaceAll(this.box.db, '<db>')
        .replace(/\/[^\s"']*\/snapshots(?:\/[^\s"',]*)?/g, '<snapshots>')
        .replace(/\b[\w-]*\d{8}T\d{6}(?:\.\d+)?Z-run_[0-9A-Z]{26}[.\w]*/g, '<snapshot-name>')
        .replaceAll(this.box.dir, '<dir>')
        .replace(/\b(mem|cand|run|hof)_[0-9A-Z]{26}\b/g, (id, prefix: string) => {
          if (!this.ids.has(id)) this.ids.set(id, `${prefix}_#${[...this.ids.values()].filter((v) => v.startsWith(`${prefix}_`)).length + 1}`);
          return this.ids.get(id)!;
        })
        .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>')
        .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?(?: ?[+-]\d{2}:?\d{2}| UTC)?/g, '<time>')
        .replace(/"score":\s*-?[\d.e-]+/g, '"score":<score>')
        .replace(/\bscore -?[\d.e-]+/g, 'score <score>')
        .replace(/\b\d+(?:\.\d+)? (?:KiB|MiB|bytes)\b/g, '<size>')
        // The search index's housekeeping is the engine's own (FTS5 merge steps; GIN pending list and ANALYZE).
        .replace(/"fullText":"[^"]*"/g, '"fullText":<housekeeping>')
        // The snapshot's check is the engine's: quick_check of a SQLite copy, the manifest's checksums of a logical one.
        .replaceAll('"integrity":"manifest counts and sha256 ok"', '"integrity":"quick_check ok"')
        .replace(/^\(node:\d+\) /gm, '(node) ')
        .replace(/"(sizeBytes|totalBytes|durationMs|elapsedMs|ms)":\s*\d+/g, '"$1":<n>')
        .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s|kB|KB|MB|B)\b/g, '<n>')
    );
  }
}

/** JSON with every value replaced by its type: the shape of a document. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]));
  return value === null ? null : typeof value;
}

/** A search's output reduced to what both engines must agree on: how many hits, the top one, and a hit's shape. */
function searchSummary(stdout: string): string {
  try {
    const doc = JSON.parse(stdout) as { results?: { memory: { id: string } }[] } & Record<string, unknown>;
    if (Array.isArray(doc.results)) {
      return JSON.stringify({ ...doc, results: { count: doc.results.length, top: doc.results[0]?.memory.id ?? null, shape: shapeOf(doc.results[0] ?? null) } });
    }
  } catch {
    // text output
  }
  const lines = stdout.split('\n');
  const hits = lines.filter((line) => /^mem_\w+ /.test(line));
  const other = lines.filter((line) => !/^mem_\w+ /.test(line) && !/^ {2}\S/.test(line));
  return [`${hits.length} hits, top ${hits[0]?.split(' ')[0] ?? 'none'}`, ...other].join('\n');
}

/** Runs `scenario` on a sandbox of each engine; returns both transcripts and checks they match. */
async function onBothEngines(
  scenario: (t: Transcript, engine: SandboxEngine) => Promise<void>,
  setup?: (box: EngineSandbox) => Promise<void>,
): Promise<Record<SandboxEngine, Transcript>> {
  const transcripts = {} as Record<SandboxEngine, Transcript>;
  for (const engine of ENGINES) {
    const box = await engineSandbox(engine);
    boxes.push(box);
    await setup?.(box);
    const transcript = new Transcript(box);
    await scenario(transcript, engine);
    transcripts[engine] = transcript;
  }
  const [sqlite, postgres] = [transcripts.sqlite.steps, transcripts.postgres.steps];
  expect(postgres).toEqual(sqlite);
  return transcripts;
}

/** Seeds through the library (the same door the CLI uses): notes for two agents, one expired, one long unused. */
async function seed(box: EngineSandbox): Promise<void> {
  const store = await openStore({ path: box.db });
  try {
    const add = (memory: Parameters<typeof addMemory>[1]) => addMemory(store, memory);
    await add({ agentId: 'ops', content: 'Deploy of api v2.14 stalled on a migration lock.', tags: ['deploy'], createdAt: ago(3 * HOUR) });
    await add({ agentId: 'ops', content: 'Decided: migrations run on Tuesday mornings.', createdAt: ago(2 * HOUR) });
    await add({ agentId: 'ops', content: 'Standup moved to 10:15 today only.', durability: 'ephemeral', createdAt: ago(2 * DAY) });
    await add({ agentId: 'ops', content: 'The old VPN endpoint is vpn1.example.net.', createdAt: ago(200 * DAY) });
    await add({ agentId: 'other', content: 'Invoice run for Acme Foods goes out on the 3rd.', createdAt: ago(HOUR) });
  } finally {
    await store.close();
  }
}

const modelEnv = () => ({ HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama') });

describe('the command suite on SQLite and PostgreSQL: same text, same JSON, same exit codes', { timeout: 900_000 }, () => {
  it('memory add, list, show, search, archive, and their errors', async () => {
    const { postgres } = await onBothEngines(async (t) => {
      const added = json<{ memory: { id: string } }>(await t.run(['memory', 'add', 'Moved the billing cron to 02:30', '--tag', 'billing', '--json']));
      await t.run(['memory', 'add', '--durability', 'ephemeral', '--agent', 'ops'], { input: 'Standup at 10 today\n' });
      await t.run(['memory', 'add', 'Moved the billing   cron to 02:30', '--json']);
      await t.run(['memory', 'show', added.memory.id]);
      await t.run(['memory', 'show', added.memory.id, '--json']);
      await t.run(['memory', 'list', '--agent', 'ops']);
      await t.run(['memory', 'list', '--json', '--tag', 'billing']);
      await t.run(['search', 'billing cron']);
      await t.run(['search', 'standup', '--agent', 'ops', '--json']);
      await t.run(['memory', 'archive', added.memory.id, '--json']);
      await t.run(['memory', 'list', '--include-archived', '--json']);
      await t.run(['memory', 'show', 'mem_01JD0000000000000000000000', '--json']);
      await t.run(['memory', 'add', '   ', '--json']);
    });
    const steps = postgres.steps;
    expect(steps.map((step) => step.exitCode)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2]);
    expect(steps[3]!.stdout).toContain('Moved the billing cron to 02:30');
    expect(steps[7]!.stdout).toBe('2 hits, top mem_#1');
    expect(JSON.parse(steps[8]!.stdout)).toMatchObject({ results: { count: 1 } });
  });

  it('export and import: a round trip into a second store of the same engine, and a re-import that adds nothing', async () => {
    const { postgres } = await onBothEngines(async (t) => {
      const file = join(t.box.dir, 'export.jsonl');
      await t.run(['memory', 'export', '--output', file, '--json']);
      await t.run(['memory', 'export', '--agent', 'ops']);
      await t.run(['memory', 'import', file, '--json']);
      await t.run(['memory', 'import', file]);
      writeFileSync(join(t.box.dir, 'new.jsonl'), `${JSON.stringify({ content: 'Imported note about the cron.', tags: ['cron'] })}\n`);
      await t.run(['memory', 'import', join(t.box.dir, 'new.jsonl'), '--agent', 'ops', '--json']);
      await t.run(['search', 'cron', '--agent', 'ops', '--json']);
      writeFileSync(join(t.box.dir, 'bad.jsonl'), '{"content": "ok"}\nnot json\n');
      await t.run(['memory', 'import', join(t.box.dir, 'bad.jsonl'), '--json']);
    }, seed);
    expect(postgres.steps.map((step) => step.exitCode)).toEqual([0, 0, 0, 0, 0, 0, 2]);
    expect(JSON.parse(postgres.steps[5]!.stdout)).toMatchObject({ results: { count: 1 } });
  });

  it('rem rapid with the model server, candidates, show, promote and reject with their exit codes, runs', async () => {
    server.respondWith(
      reply.json({
        candidates: [
          { claim: 'Migrations belong on Tuesday mornings.', sources: ['m1', 'm2'] },
          { claim: 'Deploys stall on locks.', sources: ['m2'] },
        ],
      }),
    );
    const { postgres } = await onBothEngines(async (t) => {
      const env = { ...modelEnv(), HIPPO_AGENT: 'ops' };
      const rapid = json<{ run: { id: string }; candidates: { id: string }[] }>(await t.run(['rem', 'rapid', '--json'], { env }));
      await t.run(['rem', 'candidates'], { env });
      await t.run(['rem', 'candidates', '--json'], { env });
      const [one, two] = rapid.candidates;
      await t.run(['rem', 'show', one!.id], { env });
      await t.run(['rem', 'promote', one!.id], { env });
      await t.run(['rem', 'promote', one!.id, '--rationale', 'seen twice', '--reviewer', 'ana', '--json'], { env });
      await t.run(['rem', 'promote', one!.id, '--rationale', 'again', '--json'], { env });
      await t.run(['rem', 'reject', two!.id, '--reason', 'one-off'], { env });
      await t.run(['rem', 'promote', two!.id, '--rationale', 'x'], { env });
      await t.run(['rem', 'promote', two!.id, '--rationale', 'x', '--agent', 'other', '--json'], { env });
      await t.run(['rem', 'candidates', '--status', 'all', '--json'], { env });
      await t.run(['rem', 'runs'], { env });
      await t.run(['rem', 'runs', '--json'], { env });
      await t.run(['rem', 'runs', 'show', rapid.run.id, '--json'], { env });
      await t.run(['search', 'Tuesday', '--json'], { env });
    }, seed);
    const codes = postgres.steps.map((step) => step.exitCode);
    expect(codes.slice(0, 10)).toEqual([0, 0, 0, 0, 2, 0, 4, 0, 4, 3]);
  });

  it('rem rapid --prompt-only and rem ingest, twice (exit 4), and an answer citing a ref outside the handoff (exit 6)', async () => {
    const { postgres } = await onBothEngines(async (t) => {
      const env = { HIPPO_AGENT: 'ops' };
      const handoff = json<{ handoff: { id: string } }>(await t.run(['rem', 'rapid', '--prompt-only', '--json'], { env })).handoff;
      await t.run(['rem', 'rapid', '--prompt-only'], { env });
      const answer = join(t.box.dir, 'answer.md');
      writeFileSync(answer, 'Here:\n```json\n{"candidates":[{"claim":"Migrations belong on Tuesdays.","sources":["m2","m1"]}]}\n```\n');
      await t.run(['rem', 'ingest', handoff.id, answer, '--json', '--generated-by', 'gpt-x'], { env });
      await t.run(['rem', 'ingest', handoff.id, answer, '--json'], { env });
      await t.run(['rem', 'ingest', 'hof_01JD0000000000000000000000', answer], { env });
      const second = json<{ handoff: { id: string } }>(await t.run(['rem', 'rapid', '--prompt-only', '--json', '--since', '365d'], { env })).handoff;
      await t.run(['rem', 'ingest', second.id, '-', '--json'], { env, input: '{"candidates":[{"claim":"x","sources":["m9"]}]}' });
      await t.run(['rem', 'candidates', '--json'], { env });
    }, seed);
    expect(postgres.steps.map((step) => step.exitCode)).toEqual([0, 0, 0, 4, 3, 0, 6, 0]);
  });

  it('nightly run-once, snapshots, a second night, restore plan and --apply, runs', async () => {
    server.respondWith(reply.json({ candidates: [{ claim: 'Migrations belong on Tuesday mornings.', sources: ['m1'] }] }));
    const { postgres } = await onBothEngines(async (t, engine) => {
      const env = modelEnv();
      const nightResult = await t.run(['rem', 'nightly', 'run-once', '--json'], { env });
      const night = json<{ run: { id: string; snapshotPath: string; steps: { integrity: string } } }>(nightResult);
      expect(night.run.steps.integrity).toBe(engine === 'postgres' ? 'manifest counts and sha256 ok' : 'quick_check ok');
      await t.run(['rem', 'snapshots']);
      await t.run(['rem', 'snapshots', '--json']);
      await t.run(['rem', 'nightly', 'run-once', '--dry-run', '--json'], { env });
      await t.run(['memory', 'add', 'Zebrafish checklist lives in the wiki.', '--agent', 'ops']);
      await t.run(['rem', 'restore', night.run.id, '--agent', 'ops', '--json']);
      await t.run(['rem', 'restore', night.run.id, '--agent', 'ops', '--apply', '--json']);
      await t.run(['rem', 'restore', night.run.id, '--agent', 'ops', '--apply', '--yes', '--json']);
      await t.run(['search', 'zebrafish', '--agent', 'ops', '--json']);
      await t.run(['search', 'stalled', '--agent', 'ops', '--json']);
      await t.run(['rem', 'pause', '--json']);
      await t.run(['rem', 'nightly', 'run-once', '--json'], { env });
      await t.run(['rem', 'resume']);
      await t.run(['rem', 'runs', '--json']);
    }, seed);
    const codes = postgres.steps.map((step) => step.exitCode);
    expect(codes[0]).toBe(0);
    expect(codes[6]).toBe(2);
    expect(codes[7]).toBe(0);
    expect(JSON.parse(postgres.steps[8]!.stdout)).toMatchObject({ results: { count: 0 } });
  });

  it('threads: add to a thread, list it in order, and a search hit found through its neighbour says so', async () => {
    await onBothEngines(async (t) => {
      const ids: string[] = [];
      for (const text of ['Big news: we adopted a beagle from the shelter on Saturday!', 'What did you name him?', 'Biscuit. The kids voted on it.']) {
        ids.push(json<{ memory: { id: string } }>(await t.run(['memory', 'add', text, '--thread', 'kitchen chat', '--json'])).memory.id);
      }
      await t.run(['memory', 'add', 'A note outside the thread about the shelter roof.']);
      await t.run(['memory', 'list', '--thread', 'kitchen chat']);
      await t.run(['memory', 'list', '--thread', 'kitchen chat', '--json']);
      await t.run(['memory', 'show', ids[2]!]);
      const found = json<{ results: { memory: { id: string }; matched: string[]; nearby: { memoryId: string } | null }[] }>(
        await t.run(['search', 'beagle', '--json']),
      );
      // Each engine's own ranking and snippets aside, both find the turn after the beagle through it, and say so.
      expect(found.results[0]).toMatchObject({ memory: { id: ids[0] }, matched: ['content'], nearby: null });
      const biscuit = found.results.find((hit) => hit.memory.id === ids[2]);
      expect(biscuit).toMatchObject({ matched: ['context'], nearby: { memoryId: ids[0] } });
      await t.run(['search', 'beagle']);
      await t.run(['memory', 'add', 'x', '--thread', '   ', '--json']);
    });
  });

  it('demo into a named store, search the demo, config', async () => {
    await onBothEngines(async (t) => {
      await t.run(['demo', '--json']);
      await t.run(['demo']);
      await t.run(['search', 'billing cron', '--agent', 'ops-agent', '--json']);
      await t.run(['search', 'billing cron', '--agent', 'ops-agent']);
      await t.run(['memory', 'list', '--agent', 'ops-agent', '--limit', '3']);
      await t.run(['config', 'set', 'model', 'ollama:llama3.2']);
      await t.run(['config', 'list', '--json']);
      await t.run(['config', 'get', 'model']);
    });
  });
});
