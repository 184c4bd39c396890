/**
 * The rejected-claim detector scored on its dev set (near-duplicate-pairs.ts): precision must stay at or above 0.95
 * (a genuinely new insight wrongly skipped is one the reviewer never sees); recall is reported, and held above the
 * floor docs/governance.md, "Rejections that teach" states so a change that quietly stops catching rewordings fails too.
 */
import { describe, expect, it } from 'vitest';
import { compareSignatures, isNearDuplicate, signature } from '../../../src/core/rem/near-duplicate.js';
import { CLAIM_PAIRS } from './near-duplicate-pairs.js';

function score() {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  const wrong: string[] = [];
  for (const pair of CLAIM_PAIRS) {
    const verdict = compareSignatures(signature(pair.claim), signature(pair.rejected));
    const near = verdict === 'near';
    if (near && pair.same) tp++;
    else if (near) fp++;
    else if (pair.same) fn++;
    else tn++;
    if (near !== pair.same) wrong.push(`${pair.same ? 'missed' : 'FALSE'} [${pair.kind}] ${verdict}: ${pair.rejected} | ${pair.claim}`);
  }
  return { tp, fp, fn, tn, precision: tp / (tp + fp), recall: tp / (tp + fn), wrong };
}

describe('the rejected-claim detector on its dev set', () => {
  it('has at least 150 pairs, both classes balanced', () => {
    const same = CLAIM_PAIRS.filter((pair) => pair.same).length;
    expect(CLAIM_PAIRS.length).toBeGreaterThanOrEqual(150);
    expect(Math.abs(same - (CLAIM_PAIRS.length - same))).toBeLessThanOrEqual(CLAIM_PAIRS.length * 0.1);
  });

  it('keeps precision at or above 0.95, with the recall docs/governance.md, "Rejections that teach" reports', () => {
    const result = score();
    if (process.env.HIPPO_DEVSET_VERBOSE) console.log(JSON.stringify({ ...result, wrong: result.wrong }, null, 2));
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    expect(result.recall).toBeGreaterThanOrEqual(0.7);
  });

  it('never calls a negated, renumbered or renamed claim the same', () => {
    for (const kind of ['negation', 'number', 'name', 'date', 'frequency'] as const) {
      for (const pair of CLAIM_PAIRS.filter((item) => item.kind === kind))
        expect(isNearDuplicate(pair.claim, pair.rejected), `${kind}: ${pair.claim}`).toBe(false);
    }
  });

  it('never calls a bounded number the same as the bare number (hostile review of issue 29)', () => {
    const rejected = 'Alice prefers 3 reviewers on a pull request';
    for (const claim of [
      'Alice prefers fewer than 3 reviewers on a pull request',
      'Alice prefers at most 3 reviewers on a pull request',
      'Alice prefers at least three reviewers on a pull request',
      'Alice prefers more than 3 reviewers on a pull request',
      'Alice prefers up to 3 reviewers on a pull request',
    ])
      expect(isNearDuplicate(claim, rejected), claim).toBe(false);
    expect(isNearDuplicate('Alice prefers under 3 reviewers on a pull request', 'Alice prefers fewer than three reviewers on pull requests')).toBe(true);
    expect(isNearDuplicate('Alice prefers three reviewers on pull requests', rejected)).toBe(true);
  });

  it('is symmetric and finds a claim the same as itself', () => {
    for (const pair of CLAIM_PAIRS) {
      expect(isNearDuplicate(pair.claim, pair.rejected)).toBe(isNearDuplicate(pair.rejected, pair.claim));
      expect(isNearDuplicate(pair.claim, pair.claim)).toBe(true);
    }
  });
});
