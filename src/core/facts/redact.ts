/**
 * Egress redaction, pure part (docs/design.md §12, issue 17; docs/redaction.md): the values the validated recognisers
 * find are replaced by placeholders before text may leave the machine, and put back in what comes back.
 *
 * - One `Redactor` per request: each distinct value (kind + normalised value) becomes one placeholder, `⟦card 1⟧`,
 *   numbered per kind in order of first appearance, the same in every passage of that request.
 * - Nothing in the input can forge one: the placeholder brackets and their look-alikes (`⟦⟧〚〛`) in the text are
 *   escaped to ASCII `[` `]` (one code unit for one, so offsets are kept), so the only `⟦…⟧` the model ever sees is
 *   ours.
 * - The way back (`restore`) replaces exactly the issued placeholders and refuses the whole answer when it holds any
 *   other placeholder-shaped text: a bracket of ours that is not part of an issued placeholder (`⟦card 9⟧`, `⟦Card 1⟧`,
 *   `⟦card 1`), or `[card 1]` written with other brackets (ASCII, full-width, CJK, angle, curly) when that text was not in what was sent (a "corrected"
 *   placeholder).
 * - A value split across a line break is found too: the recognisers also read the text with its line breaks as
 *   spaces (same length, same offsets), and overlapping finds (an IBAN whose digits read as a phone) become one span,
 *   of the kind of the longest find.
 * - A disguised value is found too (issue 27 review): the text is also read in a normal form (`readingOf`: NFKC, every
 *   decimal digit as ASCII, tabs as spaces, format characters such as zero-width spaces left out, runs of two or three
 *   blanks as one), each find mapped back to the text as written; and a value glued to a value found
 *   (`jane@example.ie.jane@example.org`) is read again with the one found masked (`findAll`), so it is replaced too.
 * - The second reading (`readAgain`) reads the redacted text in that normal form, with a sign glued to a placeholder
 *   and a semicolon between two characters as blanks (`guardCopy`): a value of a redacted kind still there stops the
 *   request (`leftBehind`).
 * - `toOriginal` maps a span of the redacted text back to the exact span of the original it stands for; a span that
 *   cuts through a placeholder has none.
 */
import { isRedactKind, REDACTABLE_KINDS, type RedactKind } from './kinds.js';
import { groupedValues } from './grouped.js';
import { ordinaryFinds, skeletonValues } from './skeleton.js';
import { cardsAnywhere, cardsInGroups } from './recognisers/card.js';
import { ibansAnywhere, ibansInGroups } from './recognisers/iban.js';
import { recogniserOf } from './recognisers/index.js';
import { LINE_TERMINATORS } from './text.js';
import type { RawMatch } from './types.js';

export { DEFAULT_REDACT_KINDS, isRedactKind, REDACTABLE_KINDS, type RedactKind } from './kinds.js';

export const PLACEHOLDER_OPEN = '⟦';
export const PLACEHOLDER_CLOSE = '⟧';
/** Our opening brackets and their look-alike; with the closing ones, escaped in input and refused in an answer outside a placeholder. */
const OPENERS = '⟦〚';
const LOOKALIKE = /[⟦⟧〚〛]/g;
const HAS_LOOKALIKE = /[⟦⟧〚〛]/;
/**
 * `[card 1]`, `[ Card 1 ]`, `[card #1]`, `【card 1】`, `<card 1>`, `{card 1}`: a placeholder in other brackets (ASCII,
 * full-width, CJK, angle, curly), as a model "correcting" ours may write it.
 */
const LOOKALIKE_OPEN = '\\[［【〔〖〘⟨〈《{｛<＜⦃⟪';
const LOOKALIKE_CLOSE = '\\]］】〕〗〙⟩〉》}｝>＞⦄⟫';
const ASCII_LOOKALIKE = new RegExp(`[${LOOKALIKE_OPEN}]\\s*(?:${REDACTABLE_KINDS.join('|')})\\s*#?\\s*\\d+\\s*[${LOOKALIKE_CLOSE}]`, 'gi');

/** Placeholder → the original value it stands for (what a handoff row keeps; never printed). */
export type PlaceholderMap = Record<string, string>;

/** Values redacted per kind (distinct values, never the values themselves). */
export type RedactionCounts = Partial<Record<RedactKind, number>>;

/** One replaced span: `[start, end)` in the redacted text stands for `[originalStart, originalEnd)` of the original. */
export interface RedactedSpan {
  start: number;
  end: number;
  originalStart: number;
  originalEnd: number;
  placeholder: string;
}

/** A text as sent: the redacted text and the spans that were replaced, in order. */
export interface RedactedText {
  text: string;
  spans: RedactedSpan[];
}

export interface RedactorOptions {
  kinds: readonly RedactKind[];
  /** Home region for phone numbers (see `RecogniserOptions`). */
  region?: string | null;
  /** Candidate regions for phone numbers. */
  regions?: readonly string[];
}

export type Restoration<T> = { ok: true; value: T } | { ok: false };

interface Found {
  start: number;
  end: number;
  kind: RedactKind;
  /** Identity of the value: kind + normalised value (one match), or the text as written (overlapping finds merged). */
  key: string;
}

export class Redactor {
  private readonly byKey = new Map<string, string>();
  private readonly values = new Map<string, string>();
  private readonly perKind = new Map<RedactKind, number>();
  private readonly literals = new Set<string>();
  private readonly missed = new Set<RedactKind>();

  constructor(private readonly options: RedactorOptions) {}

  /** A redactor that only restores: the placeholders of an earlier request (a handoff's map). */
  static fromMap(map: PlaceholderMap, sent = ''): Redactor {
    const redactor = new Redactor({ kinds: [] });
    for (const [placeholder, value] of Object.entries(map)) {
      const parsed = parsePlaceholder(placeholder);
      if (parsed === undefined) continue;
      redactor.values.set(placeholder, value);
      redactor.perKind.set(parsed.kind, Math.max(redactor.perKind.get(parsed.kind) ?? 0, parsed.n));
    }
    redactor.noteLiterals(sent);
    return redactor;
  }

  /**
   * Replaces every value of the configured kinds in `text` by its placeholder, and escapes look-alike brackets. With
   * `cutAt`, only the text before that offset is returned (a memory clipped for the prompt): values are still found
   * in the whole text, so one that straddles the cut is left out whole rather than sent in part, and values past the
   * cut get no placeholder.
   */
  redact(text: string, options: { cutAt?: number } = {}): RedactedText {
    const cutAt = Math.min(options.cutAt ?? text.length, text.length);
    const spans: RedactedSpan[] = [];
    let out = '';
    let at = 0;
    // The text is sent up to `stop`: the cut, or the start of a value that straddles it.
    let stop = cutAt;
    for (const item of this.findAll(text)) {
      if (item.end > cutAt) {
        stop = Math.min(item.start, cutAt);
        break;
      }
      out += escapeBrackets(text.slice(at, item.start));
      const placeholder = this.placeholderFor(item, text.slice(item.start, item.end));
      spans.push({ start: out.length, end: out.length + placeholder.length, originalStart: item.start, originalEnd: item.end, placeholder });
      out += placeholder;
      at = item.end;
    }
    out += escapeBrackets(text.slice(at, stop));
    this.noteLiterals(out);
    this.readAgain(out, spans, out !== text);
    this.readApart(text, spans, stop);
    this.readWhole(text, spans, stop);
    return { text: out, spans };
  }

  /**
   * The kinds of which a value was still found in a redacted text, read again with its placeholders in place (each a
   * boundary, its inside blank): the first reading missed it (a value run into a neighbour the placeholder now stands
   * for). Empty when nothing was left; the caller must not send the text otherwise (issue 27).
   */
  leftBehind(): RedactKind[] {
    return [...this.missed];
  }

  /**
   * The second reading, of the guard's copy (`guardCopy`: the normal form, glue read as blanks): the recognisers again
   * when the first changed the text or the copy differs from it, and always card numbers and IBANs wherever they stand,
   * glued to anything, with every run of white space as one space (`cardsAnywhere`, `ibansAnywhere`): values the first
   * reading leaves inside a token or a decimal part by its rules (docs/extract.md §Glued values) are not sent either.
   */
  private readAgain(out: string, spans: readonly RedactedSpan[], changed: boolean): void {
    let blanked = '';
    let at = 0;
    for (const span of spans) {
      blanked += out.slice(at, span.start) + PLACEHOLDER_OPEN + ' '.repeat(span.end - span.start - 2) + PLACEHOLDER_CLOSE;
      at = span.end;
    }
    blanked += out.slice(at);
    const guarded = guardCopy(blanked);
    // `find` reads its own normal form too (`readingOf`); the guard's copy adds the glue read as blanks.
    if (changed || guarded !== blanked) for (const item of this.find(guarded)) this.missed.add(item.kind);
    // Card numbers and IBANs wherever they stand, with every run of white space as one space.
    const flat = guarded.replace(/\s+/g, ' ');
    if (this.options.kinds.includes('card')) {
      const cards = cardsAnywhere(flat);
      const ordinary = ordinaryFinds(flat, cards);
      if (cards.some((card) => !ordinary.has(card))) this.missed.add('card');
    }
    if (this.options.kinds.includes('iban') && ibansAnywhere(flat).length > 0) this.missed.add('iban');
    // An `@` against a placeholder: an email run into another value (`jane.doe@example.comjane@example.org` reads as
    // the email `example.comjane@example.org`; `jane.doe@` would go out).
    if (this.options.kinds.includes('email') && AT_PLACEHOLDER.test(blanked)) this.missed.add('email');
  }

  /**
   * Every value of the configured kinds (`find`), and then the values glued to one found (`jane@example.ie.jane@
   * example.org`, `4111 1111 1111 1111_jane@example.ie`): read again with each value found masked as a placeholder
   * would be and a sign glued to it as a blank, as the second reading would read them, so they are replaced rather
   * than stopping the request (issue 27 review). Read again only when a value found has something glued to it.
   */
  private findAll(text: string): Found[] {
    let found = this.find(text);
    // Two numbers glued at a seam (`SEAMS`: `087 123 4567-087 765 4321`, `2023-07-24)660 45 57 87`), which the
    // recognisers read as one run and refuse: read with each seam as a semicolon (same length), and take what ends or
    // starts at one.
    const seams = [...text.matchAll(SEAMS)].map((match) => match.index);
    if (seams.length > 0) {
      const parted = text.replace(SEAMS, ';');
      const atSeams = this.find(parted).filter((item) => seams.some((seam) => item.end === seam || item.start === seam + 1));
      // A find of the text that those numbers cover but for the dash gives way to them: a short number read across
      // the dash (`2222-085` of `086 111 2222-085 333 4444`) or in the second one's tail would send the rest of both.
      const covered = (item: Found): boolean => {
        for (let at = item.start; at < item.end; at++) {
          if (!seams.includes(at) && !atSeams.some((other) => other.start <= at && at < other.end)) return false;
        }
        return true;
      };
      found = found.filter((item) => !covered(item));
      // What still overlaps one of them makes one span with it.
      for (const item of atSeams) found = withFind(found, item, text) ?? found;
      found.sort((a, b) => a.start - b.start);
    }
    // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent — a bound and a shortcut: no text known needs a third round, and a text with nothing glued to a value found reads nothing new masked.
    for (let round = 0; round < MASK_ROUNDS && found.some((item) => isGlued(text, item)); round++) {
      let grown = false;
      // A value read out of the digits an email's local part starts with (`087 123 4567_jane@example.ie`): one span.
      for (const item of this.find(maskFound(text, found))) {
        const next = withFind(found, item, text);
        if (next === undefined) continue;
        found = next;
        grown = true;
      }
      // A round that found nothing new finds nothing new again.
      if (!grown) break;
      found.sort((a, b) => a.start - b.start);
    }
    return found;
  }

  /**
   * The third reading (issue 27 variations): values glued into one token, which the recognisers leave whole by their
   * rules, read apart — once for each seam of a letter and a digit inside a token that holds an `@`, `://` or `www.`
   * (`alice@example.com0871234567`, `+353 1 234 5678alice@example.com`, `www.example.org01 234 5678`) and for the end
   * of a number in international form run into letters (`+442079460958abc`), with a blank put in there; and once with
   * each date or IPv4 address that stands after a number and a blank blanked (`087 123 4567 2024-03-15`). A value of a
   * redacted kind found so, in what is sent, that no placeholder covers whole would go out: the request stops. Only the
   * text around those places is read, so a text without them costs nothing.
   */
  private readApart(text: string, spans: readonly RedactedSpan[], stop: number): void {
    const head = text.slice(0, Math.min(text.length, stop + APART_WINDOW));
    for (const variant of apartVariants(head)) {
      for (const item of this.find(variant.text)) {
        // A find the variant's edge may have cut is not one (the text goes on past it).
        if ((item.start === 0 && variant.from > 0) || (item.end === variant.text.length && variant.to < head.length)) continue;
        const start = variant.original(item.start);
        const end = variant.original(item.end);
        if (start >= stop) continue;
        if (!spans.some((span) => span.originalStart <= start && end <= span.originalEnd)) this.missed.add(item.kind);
      }
    }
  }

  /**
   * The fourth reading (issue 27 reviews rev27h, rev27j, rev27k, rev27m, rev27n, rev27p): card numbers and IBANs read
   * wherever they stand in the text as written. One with a letter or digit that is sent and under no placeholder stops
   * the request. Two readers: with a placeholder in the text, `cardsAnywhere` (less the ordinary numbers of a list or
   * count) and `ibansAnywhere` in the normal form — the first reading may give part of a value to a neighbour's reading
   * (a chance card over an IBAN's last group and a card glued to it; a phone number over a card's last group and its
   * expiry) and leave the rest as written, which the second reading, of the redacted text, no longer sees as a value;
   * and always `cardsInGroups` and `ibansInGroups`: a value printed in groups with one and the same separator of up to
   * eight characters that are no letter or digit, maybe wrapped after it (`4111||1111||…`, `4111· 1111· …exp`,
   * `DE89:3704:…` glued to a date), which no recogniser reads as a value. Those are read in the normal form, in the text
   * as written with its digits and full-width forms as ASCII, and in each without marks and format characters (see
   * docs/redaction.md). A text with no decimal digit, as written or in its normal form, holds neither, and is not read.
   */
  private readWhole(text: string, spans: readonly RedactedSpan[], stop: number): void {
    const placeheld = spans.length > 0;
    const reading = readingOf(text);
    const normal = reading?.text ?? text;
    // Digits in the text as written or in its normal form (circled and superscript digits are no decimal digits as
    // written: `④①①①||①①①①||…`, `⁴¹¹¹||…` are cards to NFKC).
    if (!placeheld && !ANY_DECIMAL_DIGIT.test(text) && !ANY_DECIMAL_DIGIT.test(normal)) return;
    const flat = normal.replace(/\s/g, ' ');
    // A find of a reading (`starts` maps it to the text as written; none: the reading is the text as written, unit for unit).
    const exposedIn =
      (starts: readonly number[] | undefined, read: string) =>
      (match: RawMatch): boolean => {
        for (let at = match.start; at < match.end; at++) {
          if (!LETTER_OR_DIGIT.test(read.charAt(at))) continue;
          const origin = starts?.[at] ?? at;
          if (origin < stop && !spans.some((span) => span.originalStart <= origin && origin < span.originalEnd)) return true;
        }
        return false;
      };
    // The printed groups in the normal form (line breaks kept, so a wrap after a separator reads); in the text as
    // written with every decimal digit and full-width letter or sign as ASCII (the same length) when that differs (a
    // separator the normal form changes in one gap and not another: ` - ` between two digits read as `-`; a wrap in VT,
    // FF or NEL, which it reads as a blank); and in each without its marks and format characters (the normal form keeps
    // a mark after a letter: `DE\ufe0f89 …`, `WE\u034fST`; the text as written keeps zero-width characters in a group).
    const written = writtenReading(text);
    const bases: WholeReading[] = [{ text: normal, starts: reading?.starts }];
    if (written.text !== normal) bases.push(written);
    const unmarked = bases.map((base) => withoutMarks(base.text, base.starts)).filter((base) => base !== undefined);
    const readings = [...bases, ...unmarked].map((base) => ({ read: base.text, exposed: exposedIn(base.starts, base.text) }));
    const exposedFlat = exposedIn(reading?.starts, flat);
    if (this.options.kinds.includes('card')) {
      const cards = placeheld ? cardsAnywhere(flat) : [];
      const ordinary = ordinaryFinds(flat, cards);
      if (cards.some((card) => !ordinary.has(card) && exposedFlat(card))) this.missed.add('card');
      for (const { read, exposed } of readings) {
        const printed = cardsInGroups(read);
        const ordinaryPrinted = ordinaryFinds(read, printed);
        // Wrapped after a separator, a card's gaps are of two kinds to the skeleton (`4111,` / `1111,1111,1111`: a
        // bare comma and a comma and a line break, as numbers with decimals have): it is no ordinary number — unless a
        // group of four stands next to it in its own separator (`9844,6978,` / `5759,2842,` / `…`: rows of figures).
        const counts = (card: RawMatch): boolean => !ordinaryPrinted.has(card) || (LINE_BREAK.test(card.text) && !inRowOfFigures(read, card));
        if (printed.some((card) => counts(card) && exposed(card))) this.missed.add('card');
      }
    }
    if (this.options.kinds.includes('iban')) {
      if (placeheld && ibansAnywhere(flat).some(exposedFlat)) this.missed.add('iban');
      for (const { read, exposed } of readings) if (ibansInGroups(read).some(exposed)) this.missed.add('iban');
      // Without its marks, compact too (`IE29AI\u034fBK93115212345678`): the recognisers read the text with them.
      for (const base of unmarked) if (ibansAnywhere(base.text).some(exposedIn(base.starts, base.text))) this.missed.add('iban');
    }
  }

  /** The map from placeholder to value (to keep locally; never printed or logged). */
  map(): PlaceholderMap {
    return Object.fromEntries(this.values);
  }

  /** How many distinct values of each kind were replaced. */
  counts(): RedactionCounts {
    const counts: RedactionCounts = {};
    for (const [kind, n] of this.perKind) counts[kind] = n;
    return counts;
  }

  /** The first placeholder issued (for the prompt's example), if any. */
  firstPlaceholder(): string | undefined {
    return this.values.keys().next().value;
  }

  /**
   * Puts the values back into one string of an answer. Refuses (`ok: false`) a placeholder never issued, a mangled
   * one, a lone bracket of ours, or an ASCII-bracket look-alike that was not in the text sent.
   */
  restoreText(text: string): Restoration<string> {
    // A token never issued is left in place, where its brackets refuse the answer with any other stray bracket.
    const replaced = text.replace(/[⟦〚][^⟦⟧〚〛]{0,40}[⟧〛]/g, (token) => this.values.get(token) ?? token);
    if (HAS_LOOKALIKE.test(replaced)) return { ok: false };
    for (const match of text.matchAll(ASCII_LOOKALIKE)) if (!this.literals.has(match[0])) return { ok: false };
    return { ok: true, value: replaced };
  }

  /** `restoreText` over every string in a JSON value (claims, tags, anything else the answer holds). */
  restore(value: unknown): Restoration<unknown> {
    if (typeof value === 'string') return this.restoreText(value);
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) {
        const restored = this.restore(item);
        if (!restored.ok) return restored;
        items.push(restored.value);
      }
      return { ok: true, value: items };
    }
    if (typeof value === 'object' && value !== null) {
      const object: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const restored = this.restore(item);
        if (!restored.ok) return restored;
        object[key] = restored.value;
      }
      return { ok: true, value: object };
    }
    return { ok: true, value };
  }

  private noteLiterals(text: string): void {
    for (const match of text.matchAll(ASCII_LOOKALIKE)) this.literals.add(match[0]);
  }

  private placeholderFor(item: Found, value: string): string {
    const known = this.byKey.get(item.key);
    if (known !== undefined) return known;
    const n = (this.perKind.get(item.kind) ?? 0) + 1;
    this.perKind.set(item.kind, n);
    const placeholder = `${PLACEHOLDER_OPEN}${item.kind} ${n}${PLACEHOLDER_CLOSE}`;
    this.byKey.set(item.key, placeholder);
    this.values.set(placeholder, value);
    return placeholder;
  }

  /** The finds of every configured kind in `text` (offsets of `text`), across its line breaks too. */
  private read(text: string): RawMatch[] {
    const options = { region: this.options.region ?? null, regions: this.options.regions };
    // The text read again around each line break with the break (and the blanks around it) as one space: a value
    // split across lines is found too, and its span mapped back to the original text.
    const flat = flatten(text);
    // Each text read once per kind (card numbers once for cards and phones).
    const read = recogniserOf(text, options);
    const around = (flat?.windows ?? []).map((window) => {
      const slice = flat!.text.slice(window.start, window.end);
      return { window, slice, read: recogniserOf(slice, options) };
    });
    const matches: RawMatch[] = [];
    for (const kind of this.options.kinds) {
      matches.push(...read(kind));
      if (flat !== undefined) {
        // Only around the line breaks: a value found there must cross one, and must not touch a window's edge
        // (where the window, not the text, may have cut a longer run).
        for (const { window, slice, read: readSlice } of around) {
          for (const match of readSlice(kind)) {
            const start = window.start + match.start;
            const end = window.start + match.end;
            if (!window.breaks.some((at) => start <= at && at < end)) continue;
            if ((match.start === 0 && window.start > 0) || (match.end === slice.length && window.end < flat.text.length)) continue;
            matches.push({ ...match, start: flat.offsets[start]!, end: flat.offsets[end]! });
          }
        }
      }
    }
    // Cards, IBANs and phone numbers in groups parted by any one sign or of any size, and a phone number at the start
    // or end of a run of groups (`087 123 4567 12`), which the recognisers refuse (rev27e).
    matches.push(...groupedValues(text, this.options.kinds, options));
    // Cards and phone numbers in the digits of a run of groups whatever parts them (mixed separators, any group
    // sizes, a wrap after a sign), and not the ordinary numbers of a list, a count or a larger number (rev27f).
    matches.push(...skeletonValues(text, this.options.kinds, options));
    const ordinary = ordinaryFinds(text, matches);
    return ordinary.size === 0 ? matches : matches.filter((match) => !ordinary.has(match));
  }

  /** Every value of the configured kinds, as non-overlapping spans in offset order. */
  private find(written: string): Found[] {
    // The text as written (no-break, thin and figure spaces as spaces, full-width digits as ASCII: one code unit for
    // one), and again in the redactor's normal form when that differs (`readingOf`: compatibility forms as NFKC has
    // them, every decimal digit as ASCII, tabs as spaces, format characters such as zero-width spaces left out, runs of
    // two or three blanks as one), each find of it mapped back to the text as written (issue 27 review). Both: a
    // value found in either is replaced.
    const folded = foldForReading(written);
    const matches = this.read(folded);
    const reading = readingOf(written);
    if (reading !== undefined && reading.text !== folded) {
      for (const match of this.read(reading.text)) {
        // From the first character of the find to the end of its last.
        matches.push({ ...match, start: reading.starts[match.start]!, end: reading.ends[match.end - 1]! });
      }
    }
    // By start only: a group's span and its longest find do not depend on the order of finds that start together
    // (of two finds of one length, the kind asked first is taken).
    matches.sort((a, b) => a.start - b.start);
    const found: Found[] = [];
    let group: RawMatch[] = [];
    let end = 0;
    const flush = () => {
      if (group.length === 0) return;
      const longest = group.reduce((best, match) => (match.end - match.start > best.end - best.start ? match : best));
      const start = group[0]!.start;
      const single = group.every((match) => match.start === longest.start && match.end === longest.end && match.kind === longest.kind);
      const kind = longest.kind as RedactKind;
      found.push({ start, end, kind, key: single ? `${kind}\u0000${longest.normalized}` : `${kind}\u0000=${written.slice(start, end)}` });
      group = [];
    };
    for (const match of matches) {
      if (match.start >= end) {
        flush();
        end = match.end;
      } else {
        end = Math.max(end, match.end);
      }
      group.push(match);
    }
    flush();
    return found;
  }
}

/** Characters read on each side of a line break: far more than any value the redactable kinds find across one. */
const BREAK_WINDOW = 96;

/**
 * Seams: where one number ends and the next begins though no blank parts them, each read as a `;` (same length) in a
 * second reading whose finds that end or start there are taken. A dash between a digit and a national number's trunk
 * `0` and three more digits (`4567-087 765 4321`); a blank between a digit and a national number written with a sign
 * after its area code (`0893647976 089.31829741`: a longer reading would take the first number and the second's area
 * code, rev27h); a closing bracket that no opening one comes before, between two digits (`2023-07-24)660 45 57 87`: a
 * date's bracket glued to a number); and a sign right before an area code in brackets (`((305)-261-1549`,
 * `[(305)…`: review rev27j — with an amount after them, both numbers went out whole).
 */
const SEAMS = /(?<=\d)(?:-(?=0\d{2}[ \u00a0]?\d{3})|[ \u00a0](?=0\d{2,4}[./-]\d{3})|(?<![(（][^()（）]{0,8})\)(?=\d))|[^\p{L}\p{N}\s](?=[(（]\d{2,5}[)）])/gu;
/** Most readings of a text with the values found masked (each may free a value glued to the last ones). */
const MASK_ROUNDS = 3;
/** A sign glued to a value or placeholder that the readings after the first read as a blank. */
const GLUE = '._;:,|/\\\\~=#$%-';
/** After a placeholder, a `+` is glue too when no number in international form starts with it (`⟧+087…`, `⟧++353…`). */
const GLUE_AROUND_PLACEHOLDER = new RegExp(`[${GLUE}+](?=${PLACEHOLDER_OPEN})|(?<=${PLACEHOLDER_CLOSE})(?:[${GLUE}]|\\+(?=[+＋0]))`, 'g');
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LINE_BREAK = new RegExp(`[${LINE_TERMINATORS}]`);
/**
 * Whether a wrapped card find stands in rows of figures: a group of four digits next to it in the card's own
 * separator (blanks and line breaks around it aside, eight characters at most between the two: a figure a paragraph
 * away is no neighbour, review rev27q), `9844,6978,` / `5759,2842,` / `…`. A year alone beside it (19xx, 20xx) makes no
 * row: an expiry's year after a wrapped card in its own sign (`…,1111, 2027`, rev27q); two figures beside it do. A
 * figure in another separator is no neighbour: a phone number's tail (`4111,` / `1111,1111,1111 2027`, rev27p).
 */
function inRowOfFigures(read: string, card: RawMatch): boolean {
  const separator = (/^\d{4}(\D*?)\d/u.exec(card.text)?.[1] ?? '').replace(LINE_BREAKS_AND_BLANKS, '');
  if (separator === '') return false;
  const inOwnSeparator = (gap: string): boolean => gap.replace(LINE_BREAKS_AND_BLANKS, '') === separator;
  const figures: string[] = [];
  for (let end = card.start; figures.length < 2;) {
    const before = /(?<!\d)(\d{4})([^\p{L}\p{N}]{1,8})$/u.exec(read.slice(Math.max(0, end - WITH_NEIGHBOUR), end));
    if (before === null || !inOwnSeparator(before[2]!)) break;
    figures.push(before[1]!);
    end -= before[0].length;
  }
  for (let start = card.end, after = 0; after < 2 && figures.length < 2; after++) {
    const next = /^([^\p{L}\p{N}]{1,8})(\d{4})(?!\d)/u.exec(read.slice(start, start + WITH_NEIGHBOUR));
    if (next === null || !inOwnSeparator(next[1]!)) break;
    figures.push(next[2]!);
    start += next[0].length;
  }
  return figures.length >= 2 || (figures.length === 1 && !YEAR.test(figures[0]!));
}
const YEAR = /^(?:19|20)\d{2}$/;
/** A group of four and a gap of up to eight, and the character beyond them (a digit there makes the group part of a longer number: review rev27r). */
const WITH_NEIGHBOUR = 13;
const LINE_BREAKS_AND_BLANKS = /[\s\u0085\u2028\u2029]+/gu;
const ANY_DECIMAL_DIGIT = /\p{Nd}/u;
/** Full-width forms of the ASCII letters and signs (U+FF01–FF5E), each one code unit as its ASCII form is. */
const FULL_WIDTH_CHAR = /^[\uff01-\uff5e]$/;
/** Combining marks and format characters (variation selectors, the grapheme joiner, zero-width characters). */
const MARK_OR_FORMAT = /[\p{M}\p{Cf}]/u;

/** A text the fourth reading reads, and where each of its code units stands in the text as written (none: unit for unit). */
interface WholeReading {
  text: string;
  starts?: readonly number[] | undefined;
}

/**
 * The text as written with every decimal digit and every other digit that is one ASCII digit to NFKC (superscript,
 * subscript, circled: `⁵`, `₅`, `⑤`; review rev27q) as an ASCII digit and every full-width letter or sign as its ASCII
 * form: unit for unit, unless a digit outside the BMP (mathematical, Osmanya…: two code units) is read as one (then
 * `starts` maps each unit to the text as written).
 */
function writtenReading(text: string): WholeReading {
  const ascii = (char: string): string => {
    if (FULL_WIDTH_CHAR.test(char)) return String.fromCharCode(char.charCodeAt(0) - 0xfee0);
    if (DECIMAL.test(char)) return asciiDigit(char);
    const compatible = char.normalize('NFKC');
    return ASCII_DIGIT.test(compatible) ? compatible : char;
  };
  return ASTRAL_DIGIT.test(text) ? byCodePoint(text, undefined, ascii) : { text: text.replace(ONE_UNIT_TO_FOLD, ascii) };
}
/** The digits and the full-width ASCII forms that are one code unit each (the others are read by code point). */
const ONE_UNIT_TO_FOLD = /[\uff01-\uff5e]|\p{N}/gu;
/** A digit outside the BMP. */
const ASTRAL_DIGIT = /(?=[\u{10000}-\u{10ffff}])\p{N}/u;
const ASCII_DIGIT = /^[0-9]$/;

/** `normal` without its marks and format characters, each character mapped to the text as written (undefined when it has none). */
function withoutMarks(normal: string, starts: readonly number[] | undefined): WholeReading | undefined {
  // By code point: a variation selector of the supplement (U+E0100…) is two code units.
  return MARK_OR_FORMAT.test(normal) ? byCodePoint(normal, starts, (char) => (MARK_OR_FORMAT.test(char) ? '' : char)) : undefined;
}

/**
 * `text` read code point by code point, each as `fold` gives it (no longer than the code point itself), each code unit
 * of the result mapped to the text as written (through `starts`, where `text` is itself a reading of it).
 */
function byCodePoint(text: string, starts: readonly number[] | undefined, fold: (char: string) => string): WholeReading {
  let read = '';
  const kept: number[] = [];
  let at = 0;
  for (const char of text) {
    const folded = fold(char);
    read += folded;
    for (let unit = 0; unit < folded.length; unit++) kept.push(starts?.[at + unit] ?? at + unit);
    at += char.length;
  }
  return { text: read, starts: kept };
}
const SPACE = /\s/;
const DIGIT_FIRST = /\p{N}/u;

/** A value with something glued to it: a letter or digit right against it, or a sign and then a letter or digit; an email starting with digits. */
function isGlued(text: string, item: Found): boolean {
  const after = text.charAt(item.end);
  const before = text.charAt(item.start - 1);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral,EqualityOperator,StringLiteral,MethodExpression,ArithmeticOperator: equivalent — a shortcut (reading again when nothing is glued finds nothing new); the glued cases kill the mutants that skip a reading.
  const gluedAfter =
    after !== '' &&
    !SPACE.test(after) &&
    (LETTER_OR_DIGIT.test(after) || LETTER_OR_DIGIT.test(text.charAt(item.end + 1)) || LETTER_OR_DIGIT.test(text.charAt(item.end + 2)));
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral,EqualityOperator,StringLiteral,MethodExpression,ArithmeticOperator: equivalent — as above.
  const gluedBefore = before !== '' && !SPACE.test(before) && (LETTER_OR_DIGIT.test(before) || LETTER_OR_DIGIT.test(text.charAt(item.start - 2)));
  // An email whose local part starts with digits: they may end another value (`087 123 4567_jane@example.ie`).
  const digitsFirst = item.kind === 'email' && DIGIT_FIRST.test(text.charAt(item.start));
  return gluedAfter || gluedBefore || digitsFirst;
}

/**
 * `found` with `item` in it: added when it overlaps nothing found, else one span with what it overlaps, of the kind of
 * the longest find and keyed by its text. Undefined when it adds nothing (it is one of them, or lies inside one).
 */
function withFind(found: readonly Found[], item: Found, text: string): Found[] | undefined {
  const overlapping = found.filter((other) => other.start < item.end && item.start < other.end);
  if (overlapping.length === 0) return [...found, item];
  const start = Math.min(item.start, ...overlapping.map((other) => other.start));
  const end = Math.max(item.end, ...overlapping.map((other) => other.end));
  if (overlapping.length === 1 && overlapping[0]!.start === start && overlapping[0]!.end === end) return undefined;
  const longest = [item, ...overlapping].reduce((best, other) => (other.end - other.start > best.end - best.start ? other : best));
  return [...found.filter((other) => !overlapping.includes(other)), { start, end, kind: longest.kind, key: `${longest.kind}\u0000=${text.slice(start, end)}` }];
}

/** The text with each value found as a placeholder would stand (same length) and the signs glued to it as blanks. */
function maskFound(text: string, found: readonly Found[]): string {
  let masked = '';
  let at = 0;
  for (const item of found) {
    // An email masked from the first letter of its local part: digits it starts with may end another value.
    const from = item.kind === 'email' ? item.start + Math.max(0, text.slice(item.start, item.end).search(/\p{L}/u)) : item.start;
    const length = item.end - from;
    masked += text.slice(at, from) + (length >= 2 ? PLACEHOLDER_OPEN + ' '.repeat(length - 2) + PLACEHOLDER_CLOSE : ' '.repeat(length));
    at = item.end;
  }
  return (masked + text.slice(at)).replace(GLUE_AROUND_PLACEHOLDER, ' ');
}

/**
 * The copy of a redacted text (placeholders blanked) the second reading reads: a sign glued to a placeholder as a
 * blank (`⟦email 1⟧.jane@example.org`), a semicolon between two characters as a blank (`2024;087 123 4567`), and then
 * in the redactor's normal form (`readingOf`: NFKC, every decimal digit as ASCII, format characters left out, runs of
 * blanks as one).
 */
export function guardCopy(blanked: string): string {
  const unglued = blanked.replace(GLUE_AROUND_PLACEHOLDER, ' ').replace(/(?<=\S);(?=\S)/g, ' ');
  return readingOf(unglued)?.text ?? unglued;
}

/** `@` right before or after a placeholder (its inside blanked). */
const AT_PLACEHOLDER = /@⟦|⟧@/;
/** Characters read on each side of a place the third reading reads apart (as `BREAK_WINDOW`). */
const APART_WINDOW = 96;
/**
 * A token (a run of non-blanks) and whether it holds an `@`, `://` or `www.` (an email or a URL), and the seams of
 * letters and digits in it. Two steps, each linear: one pattern for both backtracks over every start of a long token.
 */
const TOKEN = /\S+/gu;
const ADDRESS_MARK = /@|:\/\/|www\./u;
const LETTER_DIGIT_SEAM = /(?<=\p{L})(?=\p{Nd})|(?<=\p{Nd})(?=\p{L})/gu;
/** A number in international form run into letters: the seam is at its end. */
const INTERNATIONAL_GLUED = /[+＋]\d(?:[ \u00A0().-]?\d){5,18}(?=\p{L})/gu;
/** A date or an IPv4 address (an ISO timestamp whole) standing after a digit and a blank. */
const NUMBER_AFTER_NUMBER = new RegExp(
  '(?<=\\d[ \\u00A0\\t])(?:\\d{4}-\\d{2}-\\d{2}(?:T[\\d:.,]+(?:Z|[+-]\\d{2}:?\\d{2})?)?|\\d{1,2}[./-]\\d{1,2}[./-]\\d{4}|\\d{1,3}(?:\\.\\d{1,3}){3}(?:/\\d{1,2})?)(?![\\p{L}\\p{N}])',
  'gu',
);

/** A stretch `[from, to)` of a text read apart: its text, and the offset in the original of each of its offsets. */
interface ApartVariant {
  text: string;
  from: number;
  to: number;
  original(offset: number): number;
}

/**
 * The stretches the third reading reads (`Redactor.readApart`): one per seam, with a blank put in at the seam (which
 * stands for the seam's own offset); and the stretches around the dates and addresses after a number, each blanked
 * (`¤`, which no value is read across; same length).
 */
function* apartVariants(text: string): Generator<ApartVariant> {
  const seams = new Set<number>();
  for (const token of text.matchAll(TOKEN)) {
    if (!ADDRESS_MARK.test(token[0])) continue;
    for (const seam of token[0].matchAll(LETTER_DIGIT_SEAM)) seams.add(token.index + seam.index);
  }
  for (const number of text.matchAll(INTERNATIONAL_GLUED)) seams.add(number.index + number[0].length);
  for (const seam of [...seams].sort((a, b) => a - b)) {
    const from = Math.max(0, seam - APART_WINDOW);
    const to = Math.min(text.length, seam + APART_WINDOW);
    const cut = seam - from;
    yield { text: `${text.slice(from, seam)} ${text.slice(seam, to)}`, from, to, original: (offset) => from + (offset <= cut ? offset : offset - 1) };
  }
  const blanks = [...text.matchAll(NUMBER_AFTER_NUMBER)];
  let at = 0;
  while (at < blanks.length) {
    // The blanks whose stretches meet make one stretch.
    const from = Math.max(0, blanks[at]!.index - APART_WINDOW);
    let to = Math.min(text.length, blanks[at]!.index + blanks[at]![0].length + APART_WINDOW);
    let last = at;
    while (last + 1 < blanks.length && blanks[last + 1]!.index - APART_WINDOW <= to) {
      last++;
      to = Math.min(text.length, blanks[last]!.index + blanks[last]![0].length + APART_WINDOW);
    }
    let stretch = '';
    let position = from;
    for (const blank of blanks.slice(at, last + 1)) {
      stretch += text.slice(position, blank.index) + '¤'.repeat(blank[0].length);
      position = blank.index + blank[0].length;
    }
    stretch += text.slice(position, to);
    yield { text: stretch, from, to, original: (offset) => from + offset };
    at = last + 1;
  }
}

interface FlatWindow {
  start: number;
  end: number;
  /** Offsets (in the flat text) of the spaces that stand for line breaks inside the window. */
  breaks: number[];
}

/**
 * The text with every line break, and the spaces and tabs around it, as one space; `offsets[i]` is the offset in the
 * original of offset i in the flat text (one more entry for the end), and `windows` the stretches around the breaks
 * (overlapping ones merged). Undefined when the text has no line break.
 */
function flatten(text: string): { text: string; offsets: number[]; windows: FlatWindow[] } | undefined {
  if (!/[\r\n]/.test(text)) return undefined;
  let flat = '';
  const offsets: number[] = [];
  const breaks: number[] = [];
  let at = 0;
  for (const match of text.matchAll(/[ \t]*(?:\r\n|\r|\n)[ \t]*/g)) {
    for (let i = at; i < match.index; i++) offsets.push(i);
    flat += text.slice(at, match.index);
    offsets.push(match.index);
    breaks.push(flat.length);
    flat += ' ';
    at = match.index + match[0].length;
  }
  for (let i = at; i <= text.length; i++) offsets.push(i);
  flat += text.slice(at);
  const windows: FlatWindow[] = [];
  for (const position of breaks) {
    const start = Math.max(0, position - BREAK_WINDOW);
    const end = Math.min(flat.length, position + 1 + BREAK_WINDOW);
    const last = windows.at(-1);
    if (last !== undefined && start <= last.end) {
      last.end = end;
      last.breaks.push(position);
    } else {
      windows.push({ start, end, breaks: [position] });
    }
  }
  return { text: flat, offsets, windows };
}

function parsePlaceholder(placeholder: string): { kind: RedactKind; n: number } | undefined {
  const match = /^⟦([a-z]+) ([1-9]\d*)⟧$/.exec(placeholder);
  if (!match || !isRedactKind(match[1]!)) return undefined;
  return { kind: match[1], n: Number(match[2]) };
}

/** A text read in a normal form: `text`, and for each of its code units the span `[starts[i], ends[i])` of the original it stands for. */
export interface Reading {
  text: string;
  starts: number[];
  ends: number[];
}

const PLAIN = /^[\x20-\x7e\n\r]*$/;
const FORMAT = /^\p{Cf}$/u;
const DECIMAL = /^\p{Nd}$/u;
/** A combining mark (`\p{Mn}`, `\p{Me}`: variation selectors, the combining grapheme joiner, accents). */
const MARK = /^[\p{Mn}\p{Me}]$/u;
/** A control character other than a tab, a line break, VT, FF and NEL (NUL, ESC, DEL, U+0080–U+009F …): left out like a format character. */
const CONTROL = /^(?![\t\n\v\f\r\u0085])\p{Cc}$/u;
/** Read as a blank: VT, FF, NEL, a space of any width, the Hangul fillers and the Braille blank (which show as nothing). */
const INVISIBLE_BLANK = /^[\t\v\f\u0085\p{Zs}\u115f\u1160\u3164\uffa0\u2800]$/u;
const LETTER = /^\p{L}$/u;
const BLANK = /[ \t]/;
/** Every dash (`\p{Pd}`: en and em dash, hyphen, …) and the minus sign, read as `-`. */
const DASH = /^[\p{Pd}\u2212]$/u;
/** One to three blanks, a dash, one to three blanks, and a digit (read after a digit). */
const SPACED_DASH = /^[ \t]{1,3}-[ \t]{1,3}(?=\d)/;
const SPACED_DASH_ANYWHERE = /\d[ \t]{1,3}-[ \t]{1,3}\d/;

/**
 * The ASCII digit a decimal digit of any script stands for (`٤`, `४`, `４`, `𝟒` → `4`). Unicode keeps every script's
 * digits as one run of ten, zero first, and runs of them next to each other in tens: the digit is the distance from
 * the start of its run, modulo ten.
 */
export function asciiDigit(char: string): string {
  const code = char.codePointAt(0)!;
  let first = code;
  while (DECIMAL.test(String.fromCodePoint(first - 1))) first--;
  return String((code - first) % 10);
}

/**
 * `text` as the redactor reads it (issue 27 review): each character in compatibility form (NFKC: no-break, figure and
 * thin spaces as spaces, full-width digits, letters and signs as ASCII), every decimal digit (`\p{Nd}`) as an ASCII
 * digit, a combining mark after anything but a letter (variation selector, grapheme joiner, an accent on a digit, a
 * blank or a dash) left out, control characters other than tab, line breaks, VT, FF and NEL (NUL, ESC, DEL, C1) left
 * out, a tab, VT, FF, NEL, any space (`\p{Zs}`), the Hangul fillers and the Braille blank as a space (rev27e), every dash (`\p{Pd}`, the minus sign) as `-` and a dash with one to three blanks around it
 * between digits as `-` alone (`4111 – 1111`), format characters (`\p{Cf}`: zero-width spaces, joiners, soft hyphens)
 * left out, and a run of two or three blanks as one space (more stay: a phone number is read up to four blanks). Undefined when that is
 * the text itself.
 */
export function readingOf(written: string): Reading | undefined {
  if (PLAIN.test(written) && !written.includes('  ') && !SPACED_DASH_ANYWHERE.test(written)) return undefined;
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  // Whether the last character read (marks after it left out) was a letter: a mark after anything else is left out
  // (a mark at the start, after nothing, is kept).
  let afterLetter = true;
  for (const char of written) {
    const end = at + char.length;
    let read: string;
    const mark = MARK.test(char);
    if (FORMAT.test(char) || CONTROL.test(char) || (mark && !afterLetter)) read = '';
    else if (DECIMAL.test(char)) read = asciiDigit(char);
    else if (INVISIBLE_BLANK.test(char)) read = ' ';
    else if (DASH.test(char)) read = '-';
    else read = char.normalize('NFKC');
    if (!mark && read !== '') afterLetter = LETTER.test(char) && !INVISIBLE_BLANK.test(char);
    for (let i = 0; i < read.length; i++) {
      text += read[i];
      starts.push(at);
      ends.push(end);
    }
    at = end;
  }
  // Runs of two or three blanks as one (the first blank stands for the run).
  let collapsed = '';
  const runStarts: number[] = [];
  const runEnds: number[] = [];
  for (let i = 0; i < text.length; i++) {
    // A dash with blanks around it between two digits as a dash (`4111 - 1111 - 1111 - 1111`; the dash stands for all).
    const spaced = i > 0 && /\d/.test(text.charAt(i - 1)) ? SPACED_DASH.exec(text.slice(i, i + 8)) : null;
    if (spaced !== null) {
      collapsed += '-';
      runStarts.push(starts[i]!);
      runEnds.push(ends[i + spaced[0].length - 1]!);
      i += spaced[0].length - 1;
      continue;
    }
    let run = 1;
    while (BLANK.test(text.charAt(i)) && BLANK.test(text.charAt(i + run))) run++;
    collapsed += run > 1 && run <= 3 ? ' ' : text.slice(i, i + run);
    if (run > 1 && run <= 3) {
      runStarts.push(starts[i]!);
      runEnds.push(ends[i + run - 1]!);
    } else {
      for (let j = i; j < i + run; j++) {
        runStarts.push(starts[j]!);
        runEnds.push(ends[j]!);
      }
    }
    i += run - 1;
  }
  return collapsed === written ? undefined : { text: collapsed, starts: runStarts, ends: runEnds };
}

/** Spaces of other widths as a space and full-width digits as ASCII, one code unit for one (offsets are kept). */
function foldForReading(text: string): string {
  return text.replace(/[\u00a0\u2007\u2009\u202f]/g, ' ').replace(/[\uff10-\uff19]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xff10 + 0x30));
}

/** Our brackets and their look-alikes as ASCII brackets: one code unit for one, so offsets stay where they were. */
export function escapeBrackets(text: string): string {
  return text.replace(LOOKALIKE, (char) => (OPENERS.includes(char) ? '[' : ']'));
}

/**
 * The span of the original text that `[start, end)` of a redacted text stands for: offsets outside placeholders
 * shift by the placeholders before them, and a whole placeholder stands for its whole value. A span that starts or
 * ends inside a placeholder has none (undefined).
 */
export function toOriginal(redacted: RedactedText, start: number, end: number): { start: number; end: number } | undefined {
  const map = (offset: number): number | undefined => {
    let shift = 0;
    for (const span of redacted.spans) {
      if (offset <= span.start) break;
      if (offset >= span.end) {
        shift = span.originalEnd - span.end;
        continue;
      }
      return undefined;
    }
    return offset + shift;
  };
  const from = map(start);
  const to = map(end);
  return from === undefined || to === undefined ? undefined : { start: from, end: to };
}
