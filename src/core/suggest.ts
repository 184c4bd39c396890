import { createRequire } from 'node:module';

/** fast-levenshtein (CommonJS), loaded at the first suggestion: it builds an `Intl.Collator` (ICU collation data) when
 * it loads, several milliseconds that every start paid, typo or not (docs/decisions.md, "oclif's parts, not its index"). */
let levenshtein: { get(a: string, b: string): number } | undefined;

/** Edit distance between two names, case-insensitive (what `closest` ranks by). */
export function editDistance(a: string, b: string): number {
  levenshtein ??= createRequire(import.meta.url)('fast-levenshtein') as { get(a: string, b: string): number };
  return levenshtein.get(a.toLowerCase(), b.toLowerCase());
}

/**
 * "Did you mean …": the known name nearest to what was typed (Levenshtein distance, the measure
 * @oclif/plugin-not-found uses), or undefined when none is near enough to be a typo — 2 edits (a swapped pair of letters), or a third of the typed
 * length, and never more than 3 edits. Ties go to the earlier name in `known`.
 */
export function closest(typed: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(2, Math.ceil(typed.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/**
 * The known names that begin with what was typed, word by word (`rem cand` → `rem candidates`, `mem list` → `memory
 * list`; words split at `:` or spaces), in `known`'s order: someone typing the start of a name means that name,
 * however far its full spelling is (issue 30: prefixes before edit distance).
 */
export function prefixed(typed: string, known: Iterable<string>): string[] {
  const words = typed.toLowerCase().split(/[: ]/);
  if (words.some((word) => word === '')) return [];
  return [...known].filter((name) => {
    const parts = name.toLowerCase().split(/[: ]/);
    return parts.length === words.length && words.every((word, index) => parts[index]!.startsWith(word)) && name.toLowerCase() !== typed.toLowerCase();
  });
}

/** "Did you mean": the names that begin with what was typed (`prefixed`), else the nearest (`closest`), else none. */
export function suggestions(typed: string, known: Iterable<string>): string[] {
  const names = [...known];
  const starts = prefixed(typed, names);
  if (starts.length > 0) return starts;
  const near = closest(typed, names);
  return near === undefined ? [] : [near];
}

/** "a, b or c". */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
