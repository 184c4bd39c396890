import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { isKind, recognise, validated, type ValidatedKind } from '../../../src/core/facts/index.js';

/**
 * Precision and recall per kind on two development sets, scored as the shared set's README says: for each line and
 * each kind in `kinds_checked`, predictions of that kind are compared with gold facts of that kind on kind + start +
 * end; predictions of unchecked kinds are ignored; lines with an empty `kinds_checked` are skipped.
 *
 * - The repository's own set, `test/fixtures/facts-dev.jsonl`: passages written for hippo (notes, mail, chat,
 *   invoices; positives and look-alike negatives for every validated kind). Always scored, so a fresh clone tests
 *   the recognisers.
 * - The shared set, `shared/data/facts-dev.jsonl` beside the repository (595 passages from public recogniser test
 *   suites), scored in addition when it is there. `HIPPO_REQUIRE_SHARED_DEV_SET=1` (set by `.ci/run`) makes it
 *   mandatory: then a missing file fails. Without it a missing file skips those tests with a note (named in the
 *   run's summary). `CI=true` alone does not require it: any CI sets that, and only this project's CI has the set.
 *
 * The recognisers are general rules: nothing here or in src knows about individual lines. The floors sit just
 * below what they achieve, so a regression of a case or two per kind fails the test.
 */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OWN_SET = resolve(REPO_ROOT, 'test/fixtures/facts-dev.jsonl');
const SHARED_REQUIRED = process.env.HIPPO_REQUIRE_SHARED_DEV_SET === '1';
/**
 * Only CI (or a developer naming the file) reaches outside the repository for the shared set: a clone anywhere scores
 * its own set and nothing else (`CI=1` or `HIPPO_FACTS_DEV_SET=…` to score the shared one locally).
 */
const REACH_SHARED = SHARED_REQUIRED || (process.env.CI ?? '') !== '' || (process.env.HIPPO_FACTS_DEV_SET ?? '') !== '';
const SHARED_SET = REACH_SHARED ? findSharedSet() : resolve(REPO_ROOT, 'test/fixtures/no-shared-dev-set-outside-ci');

/**
 * `HIPPO_FACTS_DEV_SET`, else `shared/data/facts-dev.jsonl` in the nearest parent of the repository that has one
 * (`../shared` beside the main checkout, `../../shared` beside a worktree under `wt/`).
 */
function findSharedSet(): string {
  const fromEnv = process.env.HIPPO_FACTS_DEV_SET;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  let dir = resolve(REPO_ROOT, '..');
  for (;;) {
    const candidate = resolve(dir, 'shared/data/facts-dev.jsonl');
    if (existsSync(candidate) || dirname(dir) === dir) return candidate;
    dir = dirname(dir);
  }
}

type Floors = Record<ValidatedKind, { precision: number; recall: number }>;

const SHARED_FLOORS: Floors = {
  email: { precision: 0.95, recall: 0.95 },
  phone: { precision: 0.98, recall: 0.98 },
  iban: { precision: 0.98, recall: 0.98 },
  card: { precision: 0.93, recall: 0.93 },
  url: { precision: 0.98, recall: 0.97 },
  ip: { precision: 0.98, recall: 0.97 },
  date: { precision: 0.95, recall: 0.95 },
};

// Known misses (printed with every run): a section number that is a well-formed IPv4 address; with the default
// candidate regions, reference numbers read as phone numbers of another region (a credit note, a parcel tracking
// number).
const OWN_FLOORS: Floors = {
  email: { precision: 0.97, recall: 0.97 },
  phone: { precision: 0.89, recall: 0.97 },
  iban: { precision: 0.97, recall: 0.97 },
  card: { precision: 0.95, recall: 0.95 },
  url: { precision: 0.97, recall: 0.97 },
  ip: { precision: 0.96, recall: 0.97 },
  date: { precision: 0.95, recall: 0.95 },
};

interface GoldFact {
  kind: string;
  start: number;
  end: number;
  value: string;
}

interface DevLine {
  id: string;
  text: string;
  region: string | null;
  facts: GoldFact[];
  kinds_checked: string[];
}

interface Score {
  tp: number;
  fp: number;
  fn: number;
  misses: string[];
}

/**
 * The set's phone lines follow their source tests: one default region, valid numbers only. So the set is scored
 * with that region alone (`regions: []`); `withList` scores it with the default candidate regions as well, against the same floors (a national number of another region found then is a real number the source test did not look for).
 */
function scoreLines(lines: readonly DevLine[], withList = false): Map<ValidatedKind, Score> {
  const scores = new Map<ValidatedKind, Score>();
  for (const line of lines) {
    for (const name of line.kinds_checked) {
      if (!isKind(name) || !validated(name)) continue;
      const score = scores.get(name) ?? { tp: 0, fp: 0, fn: 0, misses: [] };
      scores.set(name, score);
      const predicted = new Set(
        recognise(name, line.text, withList ? { region: line.region } : { region: line.region, regions: [] }).map((m) => `${m.start}:${m.end}`),
      );
      const gold = new Set(line.facts.filter((fact) => fact.kind === name).map((fact) => `${fact.start}:${fact.end}`));
      for (const span of predicted) {
        if (gold.has(span)) score.tp++;
        else {
          score.fp++;
          score.misses.push(`FP ${line.id} ${span}`);
        }
      }
      for (const span of gold) {
        if (predicted.has(span)) continue;
        score.fn++;
        score.misses.push(`FN ${line.id} ${span}`);
      }
    }
  }
  return scores;
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole);

function table(scores: Map<ValidatedKind, Score>, floors: Floors): string {
  const rows = [...scores].map(([kind, s]) => {
    const precision = ratio(s.tp, s.tp + s.fp).toFixed(3);
    const recall = ratio(s.tp, s.tp + s.fn).toFixed(3);
    const floor = floors[kind];
    return `| ${kind.padEnd(5)} | ${String(s.tp).padStart(3)} | ${String(s.fp).padStart(3)} | ${String(s.fn).padStart(3)} | ${precision} | ${recall} | ${floor.precision.toFixed(2)} / ${floor.recall.toFixed(2)} |`;
  });
  return ['| kind  |  tp |  fp |  fn | precision | recall | floor P / R |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

function readDevSet(path: string): DevLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DevLine);
}

/**
 * The tests of one set. `missing` says what to do when the file is not there: undefined → it must be (a failure
 * that says where it was looked for), else the note the tests are skipped with.
 */
function scoreSet(name: string, path: string, floors: Floors, missing?: string): void {
  describe(`fact recognisers on the ${name} (${relative(REPO_ROOT, path) || path})`, () => {
    let lines: DevLine[] = [];
    let scored: DevLine[] = [];
    beforeEach((context) => {
      if (existsSync(path)) {
        if (lines.length === 0) {
          lines = readDevSet(path);
          scored = lines.filter((line) => line.kinds_checked.length > 0);
        }
        return;
      }
      if (missing !== undefined) context.skip(missing);
      throw new Error(
        `${name} not found at ${path}` +
          (path === OWN_SET ? '' : ': HIPPO_REQUIRE_SHARED_DEV_SET=1 requires it (shared/data/ beside the repository, or HIPPO_FACTS_DEV_SET)'),
      );
    });

    it('has a development set to score', () => {
      expect(lines.length).toBeGreaterThan(0);
      expect(scored.length).toBeGreaterThan(0);
    });

    it('has gold spans that are exact slices of their passages', () => {
      for (const line of lines) for (const fact of line.facts) expect(line.text.slice(fact.start, fact.end)).toBe(fact.value);
    });

    it('meets the per-kind precision and recall floors', () => {
      const scores = scoreLines(scored);
      console.log(`\n${name}: ${scored.length} scored lines of ${lines.length}\n${table(scores, floors)}`);
      const misses = [...scores.values()].flatMap((score) => score.misses);
      if (misses.length > 0) console.log(`misses:\n  ${misses.join('\n  ')}`);
      const listed = scoreLines(scored, true);
      console.log(`with the default candidate regions:\n${table(listed, floors)}`);
      const listedMisses = [...listed.values()].flatMap((score) => score.misses);
      if (listedMisses.length > 0) console.log(`misses:\n  ${listedMisses.join('\n  ')}`);
      expect([...scores.keys()].sort()).toEqual(['card', 'date', 'email', 'iban', 'ip', 'phone', 'url']);
      for (const [mode, byKind] of [
        ['single region', scores],
        ['default regions', listed],
      ] as const) {
        for (const [kind, score] of byKind) {
          expect(ratio(score.tp, score.tp + score.fp), `${mode}: ${kind} precision`).toBeGreaterThanOrEqual(floors[kind].precision);
          expect(ratio(score.tp, score.tp + score.fn), `${mode}: ${kind} recall`).toBeGreaterThanOrEqual(floors[kind].recall);
        }
      }
    });
  });
}

scoreSet('repository dev set', OWN_SET, OWN_FLOORS);
scoreSet(
  'shared dev set',
  SHARED_SET,
  SHARED_FLOORS,
  SHARED_REQUIRED
    ? undefined
    : !REACH_SHARED
      ? 'the shared dev set is scored in CI (CI=1) or with HIPPO_FACTS_DEV_SET=/path/to/facts-dev.jsonl; this run scores the repository set only'
      : `the shared dev set is not at ${SHARED_SET} (it lives in shared/data/ beside the repository; set HIPPO_FACTS_DEV_SET to its path, ` +
        'and HIPPO_REQUIRE_SHARED_DEV_SET=1 to make a missing file fail, as CI does)',
);
