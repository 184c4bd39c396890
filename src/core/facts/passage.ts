import { isLanguageOf, languageScores } from './language.js';
import { addressCountries } from './recognisers/address.js';
import { recogniseIbans } from './recognisers/iban.js';

/**
 * What a passage says about where it was written, for choosing among the regions a national phone number is valid
 * in (docs/extract.md §Regions). The passage is the paragraph around the number (up to a blank line, at most
 * `REACH` characters either side); everything is computed on first use only, since most numbers never need it.
 *
 * - places: regions the passage names — the country of an international number in it, the country-code top-level
 *   domain of an e-mail address or web address (`@firma.de`, `www.example.co.uk`), the country of a valid IBAN, a
 *   country's name (in English or the language of any region of the lexicon, from the CLDR data of `Intl`), and the
 *   countries a postcode-certified address's postcode fits;
 * - languages: how much of each language's function words the passage holds (language.ts).
 */
export const REACH = 600;

const PARAGRAPH_BREAK_RE = /\r?\n[ \t]*\r?\n/g;

/** The paragraph around [start, end): up to the blank line before and after it, at most REACH characters out. */
export function paragraphAround(text: string, start: number, end: number): { start: number; end: number } {
  const from = Math.max(0, start - REACH);
  let paragraphStart = from;
  for (const brk of text.slice(from, start).matchAll(PARAGRAPH_BREAK_RE)) paragraphStart = from + brk.index + brk[0].length;
  const to = Math.min(text.length, end + REACH);
  const after = new RegExp(PARAGRAPH_BREAK_RE.source).exec(text.slice(end, to));
  return { start: paragraphStart, end: after === null ? to : end + after.index };
}

// A host after `@`, `//` or `www.`, and its last label when it is two letters (a country-code top-level domain).
const HOST_TLD_RE = /(?:@|\/\/|(?<![\p{L}\p{N}.-])www\.)(?:[\p{L}\p{N}-]+\.)+([A-Za-z]{2})(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu;
// The one country-code domain that is not its region's ISO code.
const TLD_REGION: Readonly<Record<string, string>> = { UK: 'GB' };

/** Regions named by the country-code top-level domains of the e-mail and web addresses of a text. */
export function domainRegions(text: string): string[] {
  return [...text.matchAll(HOST_TLD_RE)].map((match) => {
    const tld = match[1]!.toUpperCase();
    return TLD_REGION[tld] ?? tld;
  });
}

// Languages whose names of countries are looked for: English and the lexicon's languages (language.ts).
const NAME_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da', 'nb', 'fi', 'ru', 'tr', 'el', 'ja', 'zh', 'ko'];
const names = new Map<string, RegExp | null>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A pattern for the names of a region (CLDR, long and short: `United Kingdom`, `UK`, `Deutschland`), case as written. */
function namePattern(region: string): RegExp | null {
  const cached = names.get(region);
  if (cached !== undefined) return cached;
  const found = new Set<string>();
  for (const language of NAME_LANGUAGES) {
    for (const style of ['long', 'short'] as const) {
      const name = new Intl.DisplayNames([language], { type: 'region', style, fallback: 'none' }).of(region);
      // Not a one-letter name (Korean 괌, Guam), nor one that is only the region's code, unless people write it as a
      // name (English short `US`).
      if (name !== undefined && name.length >= 2 && (name !== region || ['UK', 'US'].includes(name))) found.add(name);
    }
  }
  // The pattern is only tested, never matched for its extent: the order of the alternatives does not matter.
  const alternatives = [...found].map(escapeRegExp);
  const pattern = alternatives.length === 0 ? null : new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{M}\\p{N}])`, 'u');
  names.set(region, pattern);
  return pattern;
}

/** True when the text names the region (its name in English or a lexicon language). */
export function namesRegion(text: string, region: string): boolean {
  return namePattern(region)?.test(text) ?? false;
}

/** What a paragraph says about its region; each part computed once, on first use. */
export class PassageCues {
  private found: { named: Set<string>; vague: Set<string> } | undefined;
  private scores: Map<string, number> | undefined;

  /** `text` is the paragraph; `international` the regions of the international numbers found in it. */
  constructor(
    readonly text: string,
    private readonly international: readonly string[],
  ) {}

  private findPlaces(): { named: Set<string>; vague: Set<string> } {
    const addresses = addressCountries(this.text);
    const named = new Set([
      ...this.international,
      ...domainRegions(this.text),
      ...recogniseIbans(this.text).map((match) => match.normalized.slice(0, 2)),
      ...addresses.filter((countries) => countries.length === 1).flat(),
    ]);
    return { named, vague: new Set(addresses.filter((countries) => countries.length > 1).flat()) };
  }

  /**
   * The regions, of those asked about, that the paragraph names: by an international number, a domain, an IBAN, a
   * country's name or a postcode only one country writes (`certain`), or by a postcode whose format several
   * countries share (`vague`: `1010 Wien` is an Austrian, Belgian or Swiss postcode, and so is `Auckland 1010`).
   */
  places(asked: readonly string[], strength: 'certain' | 'vague'): Set<string> {
    this.found ??= this.findPlaces();
    const { named, vague } = this.found;
    if (strength === 'vague') return new Set(asked.filter((region) => vague.has(region)));
    return new Set(asked.filter((region) => named.has(region) || namesRegion(this.text, region)));
  }

  /** How strongly the paragraph is written in a language of the region (the best of its languages). */
  languageSupport(region: string): { score: number; language: string | undefined } {
    this.scores ??= languageScores(this.text);
    let best: { score: number; language: string | undefined } = { score: 0, language: undefined };
    for (const [language, score] of this.scores) if (score > best.score && isLanguageOf(language, region)) best = { score, language };
    return best;
  }
}
