/** JSON as text: every `--json` document and exported line, on one line, terminal-safe and lossless (docs/output.md). */

/**
 * Characters that JSON.stringify leaves raw but a terminal would act on (C1 controls such as the 8-bit CSI, bidi
 * controls) or a JavaScript parser would split lines on (U+2028, U+2029): written as `\uXXXX` escapes, which JSON
 * parsers read back as the very same characters.
 */
const JSON_UNSAFE = /[\u007F-\u009F\p{Bidi_Control}\u2028\u2029]/gu;

/** A JSON document as text on one line, terminal-safe and lossless: every `--json` document and exported line (docs/output.md). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Items of an array written whole go out this many to a piece.
const JSON_BATCH = 256;

/**
 * `jsonText(value)` in pieces, for a large document: an object's members and an array's items are written one at a
 * time down to `depth` levels (each piece below that is one `jsonText`), so the whole document is never one string.
 * Joined, the pieces are exactly `jsonText(value)` for plain data (objects, arrays, strings, numbers, booleans, null).
 */
export function* jsonTextPieces(value: unknown, depth = 2): Generator<string> {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    // As JSON.stringify inside an array (an object's member of this kind is skipped before it gets here).
    yield 'null';
    return;
  }
  if (depth <= 0 || typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield jsonText(value);
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    if (depth === 1) {
      // Items written whole: a batch at a time, each batch one `jsonText` of its items with the brackets taken off.
      for (let from = 0; from < value.length; from += JSON_BATCH) yield `${from > 0 ? ',' : ''}${jsonText(value.slice(from, from + JSON_BATCH)).slice(1, -1)}`;
    } else {
      for (const [index, item] of value.entries()) {
        if (index > 0) yield ',';
        yield* jsonTextPieces(item, depth - 1);
      }
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${first ? '' : ','}${jsonText(key)}:`;
    first = false;
    yield* jsonTextPieces(item, depth - 1);
  }
  yield '}';
}
