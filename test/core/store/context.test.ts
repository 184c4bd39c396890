/** The search context rules (src/core/store/context.ts), shared by both adapters. */
import { describe, expect, it } from 'vitest';
import { buildMemory } from '../../../src/core/memory/memory.js';
import { batchContexts, dateWords, NEIGHBOUR_CHARS, neighbourText, threadContexts, windowContexts } from '../../../src/core/store/context.js';

describe('the search context of a thread', () => {
  it('gives each memory the text of two neighbours before and two after, older first', () => {
    expect(threadContexts(['a', 'b', 'c', 'd', 'e'])).toEqual([
      { before: '', after: 'b\nc' },
      { before: 'a', after: 'c\nd' },
      { before: 'a\nb', after: 'd\ne' },
      { before: 'b\nc', after: 'e' },
      { before: 'c\nd', after: '' },
    ]);
    expect(threadContexts(['alone'])).toEqual([{ before: '', after: '' }]);
  });

  it('lends at most NEIGHBOUR_CHARS of a neighbour, cut at a space', () => {
    const long = `${'word '.repeat(400)}end`;
    const lent = neighbourText(long);
    expect(lent.length).toBeLessThanOrEqual(NEIGHBOUR_CHARS);
    expect(lent.endsWith('word')).toBe(true);
    expect(neighbourText('  short  ')).toBe('short');
    expect(neighbourText('x'.repeat(NEIGHBOUR_CHARS + 5))).toBe('x'.repeat(NEIGHBOUR_CHARS));
  });

  it('re-indexes around a place: the neighbours whose context reaches it, computed from a window that reaches theirs', () => {
    const row = (content: string) => ({ content });
    const before = ['a', 'b', 'c', 'd'].map(row);
    const after = ['f', 'g', 'h', 'i'].map(row);
    // A memory added at the place: the two before it, itself and the two after change.
    expect(windowContexts(before, row('e'), after).map(({ row: r, context }) => [r.content, context.before, context.after])).toEqual([
      ['c', 'a\nb', 'd\ne'],
      ['d', 'b\nc', 'e\nf'],
      ['e', 'c\nd', 'f\ng'],
      ['f', 'd\ne', 'g\nh'],
      ['g', 'e\nf', 'h\ni'],
    ]);
    // A memory gone from the place (archived, forgotten): its neighbours close ranks.
    expect(windowContexts(before, undefined, after).map(({ row: r, context }) => [r.content, context.before, context.after])).toEqual([
      ['c', 'a\nb', 'd\nf'],
      ['d', 'b\nc', 'f\ng'],
      ['f', 'c\nd', 'g\nh'],
      ['g', 'd\nf', 'h\ni'],
    ]);
    // At the start of a thread.
    expect(windowContexts([], row('a'), [row('b')]).map(({ context }) => context)).toEqual([
      { before: '', after: 'b' },
      { before: 'a', after: '' },
    ]);
  });

  it("builds a batch's contexts per thread in thread order (createdAt, then batch order), leaving joins to stored threads", () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
    const make = (content: string, minute: number, thread: string | null, extra = {}) =>
      buildMemory({ agentId: 'a', content, createdAt: at(minute), thread, ...extra }, new Date());
    const batch = [
      make('second', 1, 't'),
      make('first', 0, 't'),
      make('third', 1, 't'),
      make('archived', 1, 't', { archivedAt: at(2) }),
      make('none', 0, null),
      make('joining', 0, 'stored'),
    ];
    const { contexts, joins } = batchContexts(batch, [{ agentId: 'a', thread: 'stored' }]);
    expect(contexts[1]).toEqual({ before: '', after: 'second\nthird' });
    expect(contexts[0]).toEqual({ before: 'first', after: 'third' });
    expect(contexts[2]).toEqual({ before: 'first\nsecond', after: '' });
    expect([contexts[3], contexts[4], contexts[5]]).toEqual([undefined, undefined, undefined]);
    expect(joins).toEqual([{ agentId: 'a', thread: 'stored', ids: [batch[5]!.id] }]);
  });

  it('says the date in words, in UTC: month, year, weekday', () => {
    expect(dateWords('2023-05-08T23:30:00.000Z')).toBe('May 2023 Monday');
    expect(dateWords('2024-02-29T00:00:00.000Z')).toBe('February 2024 Thursday');
    expect(dateWords('2026-12-31T23:59:59.999Z')).toBe('December 2026 Thursday');
  });
});
