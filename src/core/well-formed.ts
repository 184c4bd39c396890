/** Unicode well-formedness: text that UTF-8 can hold, checked wherever text enters hippo (docs/design.md §10). */
import { UsageError } from './errors.js';

/**
 * True when `text` is well-formed Unicode: it holds no lone surrogate (an unpaired U+D800–U+DFFF). JSON escapes such
 * as `"\ud800"` can put one in a string, but no UTF-8 can encode it: stored, it would become bytes that are not UTF-8
 * at all, and an export would no longer read back. Every text that enters hippo from JSON (an imported line, a model's
 * answer) and every memory written passes this one check (docs/design.md §10).
 */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** The first string inside `value` (a parsed JSON value) that is not well-formed, as a path like `tags.1`; else undefined. */
export function illFormedField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : path || '(root)';
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = illFormedField(item, path ? `${path}.${index}` : String(index));
      if (found !== undefined) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      // A key is shown only when it is itself well-formed (it names the field in the message).
      if (!isWellFormed(key)) return path || '(root)';
      const found = illFormedField(item, path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The words for a lone surrogate, after "holds": one phrase for every place that refuses one. */
export const LONE_SURROGATE = 'a lone surrogate (an unpaired \\ud800–\\udfff escape), which is not Unicode text and cannot be stored as UTF-8';

/** Refuses text holding a lone surrogate: exit 2, code `lone_surrogate`, naming `what` (never quoting the text). */
export function requireWellFormed(text: string, what: string): string {
  if (!isWellFormed(text)) throw new UsageError('lone_surrogate', `${what} holds ${LONE_SURROGATE}`, { details: { field: what } });
  return text;
}
