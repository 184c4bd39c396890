import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACT_KINDS, Redactor } from '../../../src/core/facts/redact.js';
import { DEFAULT_REGIONS } from '../../../src/core/facts/region.js';
import { buildPhonesDevSet } from './phones-devset.js';
import { buildRegionsDevSet } from './regions-devset.js';

/**
 * The redactor (default kinds: email, phone, IBAN, card) over the development sets, each passage one request with its
 * home region and the default candidate regions (rev27f): what it costs ordinary text, and that no gold value leaves.
 *
 * - leaked: a gold value of a redacted kind that no placeholder covers whole, in a request that is not stopped.
 * - false stop: a request stopped (`leftBehind`) though every gold value of a redacted kind in it was replaced.
 * - false replace: a placeholder of a kind the passage is scored for that overlaps no gold value of that kind.
 *
 * The shared set is read as devset.test.ts reads it (CI=1 or HIPPO_FACTS_DEV_SET=…); the repository's sets always.
 * The ceilings are what the redactor does today (docs/redaction.md, "Cost on the development sets"): a new leak, false
 * stop or false replace fails. The leaks recorded are the phone recogniser's misses (national numbers with no home
 * region or only a candidate region, issue 28), not the redactor's.
 */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REACH_SHARED = process.env.HIPPO_REQUIRE_SHARED_DEV_SET === '1' || (process.env.CI ?? '') !== '' || (process.env.HIPPO_FACTS_DEV_SET ?? '') !== '';

function sharedSet(): string | undefined {
  const fromEnv = process.env.HIPPO_FACTS_DEV_SET;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  let dir = resolve(REPO_ROOT, '..');
  for (;;) {
    const candidate = resolve(dir, 'shared/data/facts-dev.jsonl');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

interface Passage {
  id: string;
  text: string;
  region: string | null;
  /** Gold values (any kind); `kinds` the kinds scored on the passage. */
  facts: ReadonlyArray<{ kind: string; start: number; end: number }>;
  kinds: readonly string[];
}

interface Cost {
  passages: number;
  gold: number;
  leaked: string[];
  falseStops: string[];
  falseReplaces: string[];
}

const REDACTED = new Set<string>(DEFAULT_REDACT_KINDS);

function cost(passages: readonly Passage[]): Cost {
  const result: Cost = { passages: passages.length, gold: 0, leaked: [], falseStops: [], falseReplaces: [] };
  for (const passage of passages) {
    const regions = DEFAULT_REGIONS.filter((code) => code !== passage.region);
    const redactor = new Redactor({ kinds: DEFAULT_REDACT_KINDS, region: passage.region, regions });
    const out = redactor.redact(passage.text);
    const stopped = redactor.leftBehind().length > 0;
    const gold = passage.facts.filter((fact) => REDACTED.has(fact.kind) && passage.kinds.includes(fact.kind));
    result.gold += gold.length;
    const uncovered = gold.filter((fact) => !out.spans.some((span) => span.originalStart <= fact.start && fact.end <= span.originalEnd));
    if (!stopped) for (const fact of uncovered) result.leaked.push(`${passage.id} ${fact.kind} ${passage.text.slice(fact.start, fact.end)}`);
    if (stopped && uncovered.length === 0) result.falseStops.push(`${passage.id} ${redactor.leftBehind().join()}`);
    for (const span of out.spans) {
      const kind = /^⟦(\w+) /.exec(span.placeholder)![1]!;
      if (!passage.kinds.includes(kind)) continue;
      if (!passage.facts.some((fact) => fact.kind === kind && fact.start < span.originalEnd && span.originalStart < fact.end)) {
        result.falseReplaces.push(`${passage.id} ${kind} ${JSON.stringify(passage.text.slice(span.originalStart, span.originalEnd))}`);
      }
    }
  }
  return result;
}

interface JsonLine {
  id: string;
  text: string;
  region: string | null;
  facts: Array<{ kind: string; start: number; end: number }>;
  kinds_checked: string[];
}

function jsonSet(path: string): Passage[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JsonLine)
    .filter((line) => line.kinds_checked.length > 0)
    .map((line) => ({ id: line.id, text: line.text, region: line.region, facts: line.facts, kinds: line.kinds_checked }));
}

function check(name: string, passages: () => Passage[], ceilings: { leaked: number; falseStops: number; falseReplaces: number }): void {
  it(`${name}: no more leaks, false stops or false replaces than recorded`, () => {
    const result = cost(passages());
    console.log(
      `\nredaction on the ${name}: ${result.passages} passages, ${result.gold} gold values of redacted kinds, ` +
        `${result.leaked.length} leaked, ${result.falseStops.length} false stops, ${result.falseReplaces.length} false replaces` +
        [...result.falseStops.map((line) => `\n  stop ${line}`), ...result.falseReplaces.map((line) => `\n  replace ${line}`)].join(''),
    );
    expect(result.passages).toBeGreaterThan(0);
    expect(result.leaked.length).toBeLessThanOrEqual(ceilings.leaked);
    expect(result.falseStops.length).toBeLessThanOrEqual(ceilings.falseStops);
    expect(result.falseReplaces.length).toBeLessThanOrEqual(ceilings.falseReplaces);
  }, 120_000);
}

describe('redaction on the development sets (rev27f)', () => {
  check('repository dev set', () => jsonSet(resolve(REPO_ROOT, 'test/fixtures/facts-dev.jsonl')), { leaked: 0, falseStops: 1, falseReplaces: 1 });
  check(
    'phones dev set',
    () =>
      buildPhonesDevSet().map((c) => ({
        id: c.id,
        text: c.text,
        region: c.region,
        facts: c.phones.map((phone) => ({ kind: 'phone', start: phone.start, end: phone.end })),
        kinds: ['phone'],
      })),
    { leaked: 2, falseStops: 0, falseReplaces: 1 },
  );
  check(
    'regions dev set',
    () =>
      buildRegionsDevSet().map((c) => ({
        id: c.id,
        text: c.text,
        region: c.region,
        facts: c.facts,
        kinds: ['phone', 'card', 'iban'].filter((kind) => !(c.unscored ?? []).some((unscored) => unscored === kind)),
      })),
    { leaked: 247, falseStops: 0, falseReplaces: 2 },
  );
  const shared = REACH_SHARED ? sharedSet() : undefined;
  if (shared === undefined && process.env.HIPPO_REQUIRE_SHARED_DEV_SET === '1') {
    it('shared dev set: required (HIPPO_REQUIRE_SHARED_DEV_SET=1)', () => {
      throw new Error('shared dev set not found: shared/data/facts-dev.jsonl beside the repository, or HIPPO_FACTS_DEV_SET');
    });
  } else if (shared === undefined) {
    // Skipped with a note, as devset.test.ts does; CI sets HIPPO_REQUIRE_SHARED_DEV_SET=1, so there a missing set fails.
    it('shared dev set', (context) => {
      context.skip('the shared dev set is scored in CI (CI=1) or with HIPPO_FACTS_DEV_SET=/path/to/facts-dev.jsonl');
    });
  } else {
    check('shared dev set', () => jsonSet(shared), { leaked: 0, falseStops: 2, falseReplaces: 3 });
  }
});
