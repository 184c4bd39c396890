import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

interface SearchJson {
  results: { memory: { id: string; content: string } }[];
  facts: {
    kind: string;
    value: string;
    normalized: string;
    label: string;
    origin: string;
    occurrences: { source: string; start: number; end: number; text: string }[];
  }[];
}

let box: Sandbox;
beforeAll(async () => {
  box = sandbox();
  expect((await box.hippo(['demo'])).exitCode).toBe(0);
});
afterAll(() => box.cleanup());

describe('fact box and extract on the demo data', () => {
  it('answers "phone number of the Dublin office" with the number, its label and its source', async () => {
    const result = await box.hippo(['search', 'phone number of the Dublin office', '--agent', 'ops-agent', '--json']);
    expect(result.exitCode).toBe(0);
    const { results, facts } = json<SearchJson>(result);
    const office = facts.find((fact) => fact.normalized === '+35312345678');
    expect(office).toMatchObject({ kind: 'phone', value: '+353 1 234 5678', label: 'reception', origin: 'validated' });
    const contents = new Map(results.map(({ memory }) => [memory.id, memory.content]));
    for (const fact of facts) {
      expect(fact.kind).toBe('phone');
      for (const occurrence of fact.occurrences) expect(contents.get(occurrence.source)?.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
    }
    expect(facts.length).toBeLessThanOrEqual(5);
    const text = await box.hippo(['search', 'phone number of the Dublin office', '--agent', 'ops-agent']);
    const [header, first] = String(text.stdout).split('\n');
    expect(header).toMatch(/^KIND\s+VALUE\s+LABEL\s+SOURCE\s+CHECK$/);
    expect(first).toMatch(/^phone\s+\+353 1 234 5678\s+reception\s+mem_\w{26}:1:\d+ \+1\s+validated \(IE\)$/);
  });

  it("extracts every validated kind from the agent's memories with --query, never a relative date", async () => {
    const result = await box.hippo([
      'extract',
      '--all',
      '--query',
      'contact details phone email IBAN renewal',
      '--agent',
      'ops-agent',
      '--limit',
      '50',
      '--json',
    ]);
    expect(result.exitCode).toBe(0);
    const { facts } = json<SearchJson>(result);
    const kinds = new Set(facts.map((fact) => fact.kind));
    for (const kind of ['email', 'phone', 'iban']) expect(kinds.has(kind), kind).toBe(true);
    for (const fact of facts.filter((f) => f.kind === 'date')) expect(fact.normalized >= '2020-01-01').toBe(true);
  });
});
