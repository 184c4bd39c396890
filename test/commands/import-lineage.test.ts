/**
 * Issue 27 (defect 9 and its variation): `memory import` through the built CLI on both engines refuses lineage that
 * names another agent's rows — a `derivedFrom` id of another agent's memory, a `promotedFrom` id of another agent's
 * candidate — with exit 2 and file:line, and imports nothing from that file; the agent's own ids are kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSandbox, json, type EngineSandbox, type SandboxEngine } from '../helpers/cli.js';
import { reply, useModelServer } from '../helpers/model-server.js';

const ENGINES: readonly SandboxEngine[] = ['sqlite', 'postgres'];
const server = useModelServer({ per: 'suite' });

const boxes: EngineSandbox[] = [];
afterEach(async () => {
  for (const box of boxes.splice(0)) await box.dispose();
});

interface ImportError {
  error: { code: string; details: { files: { imported: number; error?: { code: string; message: string } }[] } };
}

describe.each(ENGINES)('memory import: lineage across agents is refused (%s)', (engine) => {
  it('refuses a promotedFrom of another agent’s candidate and a derivedFrom of another agent’s memory: exit 2, file:line, nothing imported', async () => {
    const box = await engineSandbox(engine);
    boxes.push(box);
    const env = (agent: string) => ({ HIPPO_AGENT: agent, HIPPO_MODEL: 'ollama:test-model', HIPPO_BASE_URL: server.baseUrl('ollama') });
    // A memory and a candidate of each agent (the model stand-in proposes one insight citing the memory).
    const ids: Record<string, { memory: string; candidate: string }> = {};
    for (const agent of ['bob', 'ana']) {
      const added = await box.hippo(['memory', 'add', `${agent} deploys on Tuesdays`, '--json'], { env: env(agent) });
      expect(added.exitCode, String(added.stderr)).toBe(0);
      server.respondWith(reply.json({ candidates: [{ claim: `${agent} deploys on Tuesdays.`, sources: ['m1'] }] }));
      const rapid = await box.hippo(['rem', 'rapid', '--json'], { env: env(agent) });
      expect(rapid.exitCode, String(rapid.stderr)).toBe(0);
      ids[agent] = {
        memory: json<{ memory: { id: string } }>(added).memory.id,
        candidate: json<{ candidates: { id: string }[] }>(rapid).candidates[0]!.id,
      };
    }
    const write = (name: string, lines: readonly object[]) => {
      const path = join(box.dir, name);
      writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
      return path;
    };
    const anaMemories = async () => json<{ memories: { content: string }[] }>(await box.hippo(['memory', 'list', '--json'], { env: env('ana') })).memories;
    const before = (await anaMemories()).length;

    for (const [name, line, message] of [
      [
        'promoted.jsonl',
        { content: 'a stolen lesson', promotedFrom: ids.bob!.candidate },
        `field "promotedFrom" names ${ids.bob!.candidate}, which is not a candidate of agent "ana"`,
      ],
      [
        'derived.jsonl',
        { content: 'a stolen insight', derivedFrom: [ids.bob!.memory] },
        `field "derivedFrom" names ${ids.bob!.memory}, which is not a memory of agent "ana"`,
      ],
    ] as const) {
      const file = write(name, [{ content: `fine line of ${name}` }, line]);
      // As text too, once.
      for (const args of name === 'promoted.jsonl'
        ? [
            ['memory', 'import', file, '--json'],
            ['memory', 'import', file],
          ]
        : [['memory', 'import', file, '--json']]) {
        const result = await box.hippo(args, { env: env('ana') });
        expect(result.exitCode, String(result.stderr)).toBe(2);
        if (args.includes('--json')) {
          const { error } = json<ImportError>(result);
          expect(error.details.files).toEqual([
            expect.objectContaining({ imported: 0, error: { code: 'bad_import_line', message: `${file}:2: ${message}; nothing from this file was imported` } }),
          ]);
        } else {
          expect(String(result.stderr)).toContain(`${file}:2: ${message}`);
        }
      }
      expect(await anaMemories()).toHaveLength(before);
    }

    // Ana's own candidate and memory are hers to name; the same lines given to bob's import are refused for him.
    const own = write('own.jsonl', [{ content: 'ana’s promoted lesson', promotedFrom: ids.ana!.candidate, derivedFrom: [ids.ana!.memory] }]);
    const imported = await box.hippo(['memory', 'import', own, '--json'], { env: env('ana') });
    expect(imported.exitCode, String(imported.stderr)).toBe(0);
    expect(await anaMemories()).toHaveLength(before + 1);
    const bobs = await box.hippo(['memory', 'import', own, '--json'], { env: env('bob') });
    expect(bobs.exitCode).toBe(2);
    expect(json<ImportError>(bobs).error.details.files[0]!.error!.message).toMatch(
      /own\.jsonl:1: field "(?:promotedFrom|derivedFrom)" names \S+, which is not a (?:candidate|memory) of agent "bob"/,
    );
  }, 180_000);
});
