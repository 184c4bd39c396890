import { postcodeValidator } from 'postcode-validator';
import { rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

/**
 * Addresses certified by a postcode (docs/extract.md §Addresses), no model: a block of 1–4 lines, or a run of
 * comma-separated parts, that ends in a postcode valid for its country's format and holds a street with a house
 * number. `"check": "postcode"`; the span runs from the street to the postcode (and the town written after it).
 *
 * Postcodes (formats checked by postcode-validator): Irish Eircode, UK postcode, US ZIP or ZIP+4 after a state
 * abbreviation, and a 4–5 digit postcode (NL: 4 digits and 2 letters) followed or preceded by a town for DE, FR, NL,
 * BE, AT, CH, ES and IT, optionally with its country prefix (`D-10115`, `CH-8001`).
 */

// USPS state, district and territory abbreviations.
export const US_STATES =
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP';
const CONTINENTAL = ['DE', 'FR', 'NL', 'BE', 'AT', 'CH', 'ES', 'IT'] as const;

// A capital and a small letter: towns are not all-capital abbreviations (`NY 1011` is no Swiss postcode).
const TOWN_WORD = "\\p{Lu}\\p{Ll}[\\p{L}\\p{M}'’.]*(?:-[\\p{L}\\p{M}'’.]+)*";
const TOWN_JOINER = '(?:am|an|der|im|bei|ob|sur|sous|en|de|la|le|les|del|di|aan|den|op|\\(|\\))';
const TOWN = `${TOWN_WORD}(?:[ ](?:${TOWN_JOINER}[ ])?${TOWN_WORD}){0,3}`;
const COUNTRY_PREFIX = '(?:(D|DE|F|FR|NL|B|BE|A|AT|CH|E|ES|I|IT)-)?';
// The country a prefix names (`D-10115` is German).
const PREFIX_COUNTRY: Readonly<Record<string, string>> = { D: 'DE', F: 'FR', B: 'BE', A: 'AT', E: 'ES', I: 'IT' };

const EIRCODE_RE = /(?<![\p{L}\p{N}])(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}(?![\p{L}\p{N}])/gu;
const UK_RE = /(?<![\p{L}\p{N}])[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}(?![\p{L}\p{N}])/gu;
const US_RE = new RegExp(`(?<![\\p{L}\\p{N}])(?:${US_STATES.split(' ').join('|')}),? (\\d{5}(?:-\\d{4})?)(?![\\p{L}\\p{N}-])`, 'gu');
const CODE_TOWN_RE = new RegExp(`(?<![\\p{L}\\p{N}-])${COUNTRY_PREFIX}(\\d{4} ?[A-Z]{2}|\\d{2} ?\\d{3}|\\d{4,5})[ ]+(${TOWN})`, 'gu');
const TOWN_CODE_RE = new RegExp(`(?<![\\p{L}\\p{N}])(${TOWN})[ ]+${COUNTRY_PREFIX}(\\d{4,5})(?![\\p{L}\\p{N}])`, 'gu');

interface Postcode {
  start: number;
  end: number;
  /** The countries whose postcode format it fits (one when written with a country prefix). */
  countries: string[];
}

/** The continental countries whose format `code` fits: the prefixed one only, when a country prefix is written. */
function continental(code: string, prefix: string | undefined): string[] {
  const countries = CONTINENTAL.filter((country) => postcodeValidator(code, country));
  if (prefix === undefined) return countries;
  const named = PREFIX_COUNTRY[prefix] ?? prefix;
  return countries.filter((country) => country === named);
}

/** `[country]` when `code` fits the country's postcode format, else none. */
function fits(code: string, country: string): string[] {
  return postcodeValidator(code, country) ? [country] : [];
}

/**
 * The postcodes of the text, each with the start of its line and its span in that line, line by line and in each line
 * in the order of the patterns (Eircode, UK, US, code and town, town and code): each pattern is run once over the whole
 * text. No pattern matches a line break, and each one's look-arounds see a line break as they see a line's end, so
 * this finds what running the patterns over each line finds.
 */
function postcodesIn(text: string): Array<{ lineStart: number; postcode: Postcode }> {
  const found: Array<{ lineStart: number; postcode: Postcode; pattern: number }> = [];
  const push = (pattern: number, match: RegExpMatchArray & { index: number }, countries: string[]): void => {
    if (countries.length === 0) return;
    const lineStart = Math.max(text.lastIndexOf('\n', match.index - 1), text.lastIndexOf('\r', match.index - 1)) + 1;
    found.push({ lineStart, pattern, postcode: { start: match.index - lineStart, end: match.index - lineStart + match[0].length, countries } });
  };
  for (const match of text.matchAll(EIRCODE_RE)) push(0, match, fits(match[0], 'IE'));
  for (const match of text.matchAll(UK_RE)) push(1, match, fits(match[0], 'GB'));
  for (const match of text.matchAll(US_RE)) push(2, match, fits(match[1]!, 'US'));
  for (const match of text.matchAll(CODE_TOWN_RE)) push(3, match, continental(match[2]!, match[1]));
  for (const match of text.matchAll(TOWN_CODE_RE)) push(4, match, continental(match[3]!, match[2]));
  // Line by line, each line's postcodes in pattern order, then text order (as when each line was read on its own).
  return found.sort((a, b) => a.lineStart - b.lineStart || a.pattern - b.pattern || a.postcode.start - b.postcode.start);
}

// Street types, whole words (EN, FR, IT, ES, and the German and Dutch ones written apart), and the endings of German
// and Dutch compound street names (Hauptstraße, Bahnhofstr., Kalverstraat, Lindenallee).
const STREET_WORDS = [
  'street',
  'st',
  'road',
  'rd',
  'avenue',
  'ave',
  'av',
  'lane',
  'ln',
  'drive',
  'dr',
  'square',
  'sq',
  'place',
  'pl',
  'court',
  'ct',
  'boulevard',
  'blvd',
  'way',
  'terrace',
  'crescent',
  'close',
  'parkway',
  'pkwy',
  'highway',
  'hwy',
  'row',
  'quay',
  'gardens',
  'park',
  'walk',
  'mews',
  'grove',
  'circle',
  'plaza',
  'loop',
  'alley',
  'wharf',
  'parade',
  'rue',
  'boulevard',
  'bd',
  'chemin',
  'impasse',
  'allée',
  'quai',
  'route',
  'cours',
  'voie',
  'passage',
  'faubourg',
  'via',
  'viale',
  'piazza',
  'piazzale',
  'corso',
  'largo',
  'vicolo',
  'strada',
  'calle',
  'avenida',
  'avda',
  'plaza',
  'paseo',
  'carrer',
  'camino',
  'carretera',
  'ronda',
  'rambla',
  'pasaje',
  'straße',
  'strasse',
  'str',
  'weg',
  'gasse',
  'platz',
  'allee',
  'ring',
  'damm',
  'ufer',
  'chaussee',
  'straat',
  'laan',
  'plein',
  'gracht',
  'kade',
  'singel',
  'dijk',
  'steeg',
];
const STREET_SUFFIXES = [
  'straße',
  'strasse',
  'str',
  'weg',
  'gasse',
  'platz',
  'allee',
  'ring',
  'damm',
  'ufer',
  'straat',
  'laan',
  'plein',
  'gracht',
  'kade',
  'singel',
  'dijk',
  'steeg',
];
const STREET_WORD_SET = new Set(STREET_WORDS);

export function isStreetWord(word: string): boolean {
  const bare = word.toLowerCase().replace(/[.,]+$/, '');
  return STREET_WORD_SET.has(bare) || (/^\p{Lu}/u.test(word) && STREET_SUFFIXES.some((suffix) => bare.length > suffix.length + 2 && bare.endsWith(suffix)));
}

const HOUSE_NUMBER = '\\d{1,5}[A-Za-z]?(?:[-/]\\d{1,5}[A-Za-z]?)?';
const NAME_WORD = "[\\p{L}\\p{M}][\\p{L}\\p{M}'’.-]*";
// Number first (`4 Grand Canal Square`, `12, rue de Rivoli`, `221B Baker Street`): the street ends the part.
const NUMBER_FIRST_RE = new RegExp(`(?<![\\p{L}\\p{N}])(?:(?:No\\.?|Nr\\.?|N°) ?)?${HOUSE_NUMBER},?(?: ${NAME_WORD}){1,6}$`, 'u');
// Name first (`Hauptstraße 5`, `Via Roma 10`, `Calle de Alcalá 42, 3º`): the number (and a floor or flat) ends it.
const NAME_FIRST_RE = new RegExp(
  `(?:${NAME_WORD} ){0,5}${NAME_WORD},? ${HOUSE_NUMBER}(?:,? (?:\\d{1,2} ?(?:º|ª|°|OG|Stock|floor|étage|piso)|(?:Apt|Apartment|Suite|Ste|Unit|Flat|Top|Stiege)\\.? ?[A-Za-z0-9]{1,5}))?$`,
  'u',
);
const PARTICLES = new Set([
  'de',
  'du',
  'des',
  'la',
  'le',
  'les',
  'del',
  'della',
  'di',
  'da',
  'van',
  'der',
  'den',
  'von',
  'am',
  'an',
  'im',
  'of',
  'the',
  "d'",
  'y',
  'e',
]);

/** Where the street starts in a part (prose before it is left out), or undefined when the part holds no street. */
function streetStart(part: string): number | undefined {
  const numberFirst = NUMBER_FIRST_RE.exec(part);
  if (numberFirst !== null && numberFirst[0].split(/[ ,]+/).some(isStreetWord)) return numberFirst.index;
  const nameFirst = NAME_FIRST_RE.exec(part);
  if (nameFirst === null) return undefined;
  // Words of the name: from the first capitalised word or street word, keeping particles inside the name only.
  const words = [...nameFirst[0].matchAll(new RegExp(NAME_WORD, 'gu'))];
  const numberAt = nameFirst[0].search(new RegExp(`,? ${HOUSE_NUMBER}`));
  let first: number | undefined;
  for (const word of words.reverse()) {
    if (word.index >= numberAt) continue;
    const text = word[0];
    if (/^\p{Lu}/u.test(text) || isStreetWord(text)) first = word.index;
    else if (!PARTICLES.has(text.toLowerCase())) break;
  }
  if (first === undefined) return undefined;
  const name = nameFirst[0].slice(first, numberAt);
  // The name's words stand one space apart (NAME_FIRST_RE).
  if (!name.split(' ').some(isStreetWord)) return undefined;
  return nameFirst.index + first;
}

/** A part between the street and the postcode: a town, district, floor or building line, not prose. */
const ADDRESS_PART_RE = /^[\p{L}\p{M}\p{N} '’.&()/#º°ª-]{1,60}$/u;

/** At most this many lines (postcode line included) or comma-separated parts in one address. */
const MAX_PARTS = 4;

interface Part {
  start: number;
  end: number;
}

/** The parts before a postcode: comma-separated parts of its own line, then up to three lines above (no blank). */
function partsBefore(text: string, lineStart: number, postcodeStart: number): Part[] {
  const parts: Part[] = [];
  const pushParts = (from: number, to: number): void => {
    const found: Part[] = [];
    let start = from;
    for (let index = from; index <= to; index++) {
      if (index === to || text[index] === ',') {
        found.push({ start, end: index });
        start = index + 1;
      }
    }
    parts.unshift(...found);
  };
  pushParts(lineStart, postcodeStart);
  // `end` is where the line above ends: before its `\n`, `\r` or `\r\n`.
  let end = lineStart - (text[lineStart - 1] === '\n' && text[lineStart - 2] === '\r' ? 2 : 1);
  for (let lines = 1; lines < MAX_PARTS && end > 0; lines++) {
    const start = Math.max(text.lastIndexOf('\n', end - 1), text.lastIndexOf('\r', end - 1)) + 1;
    if (text.slice(start, end).trim() === '') break;
    pushParts(start, end);
    end = start - (text[start - 1] === '\n' && text[start - 2] === '\r' ? 2 : 1);
  }
  return parts;
}

/** Trims a part to its text (spaces and a trailing comma out); undefined when nothing is left. */
function trimmed(text: string, part: Part): Part | undefined {
  let { start, end } = part;
  while (start < end && /\s/.test(text.charAt(start))) start++;
  while (end > start && /[\s,]/.test(text.charAt(end - 1))) end--;
  return start < end ? { start, end } : undefined;
}

const TOWN_ONLY_RE = new RegExp(`^${TOWN}$`, 'u');

/**
 * The address ending at one postcode: from the farthest street part reachable through address-like parts. On the
 * postcode's own line only a town may stand between the last comma (or the line start) and the postcode.
 */
function addressEndingAt(text: string, lineStart: number, postcode: Postcode): RawMatch | undefined {
  const lead = text.slice(lineStart, lineStart + postcode.start);
  const ownPart = lead.slice(lead.lastIndexOf(',') + 1).trim();
  if (ownPart !== '' && !TOWN_ONLY_RE.test(ownPart)) return undefined;
  const parts = partsBefore(text, lineStart, lineStart + postcode.start)
    .map((part) => trimmed(text, part))
    .filter((part): part is Part => part !== undefined);
  let start: number | undefined;
  // The last MAX_PARTS parts, from the postcode back.
  for (const part of parts.slice(-MAX_PARTS).reverse()) {
    const written = text.slice(part.start, part.end);
    const street = streetStart(written);
    if (street !== undefined) start = part.start + street;
    if (!ADDRESS_PART_RE.test(written)) break;
  }
  if (start === undefined) return undefined;
  // A sentence's full stop after the town is not part of the address.
  const end = lineStart + postcode.end - (text[lineStart + postcode.end - 1] === '.' ? 1 : 0);
  const match = rawMatch('address', text, start, end, text.slice(start, end));
  match.check = 'postcode';
  return match;
}

/** Addresses certified by a postcode, each with the countries its postcode's format fits. */
function* certified(text: string): Generator<{ address: RawMatch; countries: string[] }> {
  for (const { lineStart, postcode } of postcodesIn(text)) {
    const address = addressEndingAt(text, lineStart, postcode);
    if (address !== undefined) yield { address, countries: postcode.countries };
  }
}

/** Addresses certified by a postcode, each ending at its postcode (or the town after it). */
export function recogniseAddresses(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  return [...certified(text)].map(({ address }) => address);
}

/**
 * The countries of the text's postcode-certified addresses, by their postcodes' formats: for each address, one
 * country when the format or a country prefix tells (an Eircode, `D-10115`), else every continental country whose
 * format fits (`1010 Wien` fits AT, BE and CH).
 */
export function addressCountries(text: string): string[][] {
  return [...certified(text)].map(({ countries }) => countries);
}
