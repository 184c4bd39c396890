import levenshtein from 'fast-levenshtein';

/**
 * "Did you mean …": the known name nearest to what was typed (Levenshtein distance, the measure
 * @oclif/plugin-not-found uses), or undefined when none is near enough to be a typo — 2 edits (a swapped pair of letters), or a third of the typed
 * length, and never more than 3 edits. Ties go to the earlier name in `known`.
 */
export function closest(typed: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(2, Math.ceil(typed.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = levenshtein.get(typed.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
