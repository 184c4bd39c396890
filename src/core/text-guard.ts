/**
 * The one text guard (docs/output.md): stored or model-derived text on its way to a terminal. Nothing else decides
 * which characters are safe to show.
 */

/** What the guard shows in place of a control or invisible format character. */
export const MARKER = '\uFFFD';

/**
 * C0 and C1 control characters other than tab and line feed. ESC, BEL, CSI and friends start terminal escape sequences
 * (clear the screen, retitle the window, rewrite what a reviewer sees); a bare CR lets later text overwrite a line.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;

/**
 * Unicode's Bidi_Control characters: embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the
 * LRM, RLM and ALM marks. An RLO (U+202E) makes the text after it read backwards, so stored text could show the
 * reviewer something other than what it says.
 */
const BIDI_CONTROL = /\p{Bidi_Control}/gu;

/**
 * Other invisible format characters (Unicode's Cf) that hide text or change how it reads without showing themselves:
 * the soft hyphen, zero-width space, word joiner and invisible operators, the deprecated format controls, the BOM,
 * interlinear annotation marks, and the like. Kept: ZWNJ and ZWJ (emoji sequences and several scripts need them), the
 * prepended concatenation marks that draw visibly with their digits, and the Egyptian hieroglyph format controls.
 */
const INVISIBLE_FORMAT = /[\u00AD\u180E\u200B\u2060-\u2064\u206A-\u206F\uFEFF\uFFF9-\uFFFB\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0001}]/gu;

/**
 * Unicode tag characters (U+E0020–U+E007F) are invisible and can carry a whole hidden ASCII message; they are kept
 * only where they belong, in an emoji tag sequence after a black flag (🏴 + tags + cancel tag: the flags of England,
 * Scotland and Wales).
 */
const STRAY_TAG = /(?<!\u{1F3F4}[\u{E0020}-\u{E007E}]*)[\u{E0020}-\u{E007F}]/gu;

/** True when `text` holds a C0/C1 control character other than tab and line feed, or a bidi control character. */
export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  BIDI_CONTROL.lastIndex = 0;
  return CONTROL.test(text) || BIDI_CONTROL.test(text);
}

/**
 * True when the text guard would show a marker for some character of `text`: a C0/C1 control (tab, line feed and CR
 * included), a bidi control, an invisible format character or a stray tag character. For names that must read as
 * what they are (agent ids): one that holds such a character can look like another.
 */
export function hasHiddenCharacters(text: string): boolean {
  return [/\p{Cc}/u, BIDI_CONTROL, INVISIBLE_FORMAT, STRAY_TAG].some((pattern) => {
    pattern.lastIndex = 0;
    return pattern.test(text);
  });
}

/** Characters Unicode says to show as nothing where they are not supported: joiners, variation selectors, fillers, tags. */
const DEFAULT_IGNORABLES = /\p{Default_Ignorable_Code_Point}/gu;

/** `text` without its default-ignorable characters (what an id shows as, for telling ids apart). */
export function withoutDefaultIgnorables(text: string): string {
  return text.replace(DEFAULT_IGNORABLES, '');
}

export interface SafeTextOptions {
  /**
   * `keep` (default): line breaks stay, CRLF and a bare CR both becoming a line feed. `join`: one line — every run of
   * whitespace (line breaks included) becomes one space, and the ends are trimmed.
   */
  lines?: 'keep' | 'join';
  /** What a tab becomes (default: it stays a tab). The review screen measures columns, so it uses spaces. */
  tab?: string;
}

/**
 * The one text guard: makes stored or model-derived text (memory content, claims, tags, model ids, agent ids, file
 * names) safe to print on a terminal. C0/C1 control characters other than tab and newline, bidi controls, and
 * invisible format characters each become one visible U+FFFD (�), so text can neither drive the terminal nor hide or
 * reorder what a reader sees. Every text renderer and the review screen pass such text through this.
 */
export function safeText(text: string, options: SafeTextOptions = {}): string {
  let out = text.replace(/\r\n?/g, '\n');
  if (options.tab !== undefined) out = out.replaceAll('\t', options.tab);
  out = out.replace(CONTROL, MARKER).replace(BIDI_CONTROL, MARKER).replace(INVISIBLE_FORMAT, MARKER).replace(STRAY_TAG, MARKER);
  return options.lines === 'join' ? out.replace(/\s+/g, ' ').trim() : out;
}
