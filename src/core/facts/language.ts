import { createRequire } from 'node:module';

/**
 * Languages of a passage, for choosing among the regions a national phone number is valid in (docs/extract.md
 * §Regions): a passage in Norwegian quotes Norwegian numbers. The guess is deliberately simple: the function words of
 * each language of the lexicon (the stopwords-iso lists) are counted, a word shared by n languages counting 1/n to
 * each, and Japanese, Korean and Chinese are told by their scripts. The caller decides how much is enough.
 */

/** The languages of the phone lexicon, each with the regions where it is a language people write in. */
export const LANGUAGE_REGIONS: Readonly<Record<string, readonly string[]>> = {
  en: ['US', 'GB', 'IE', 'CA', 'AU', 'NZ', 'IN', 'ZA'],
  de: ['DE', 'AT', 'CH', 'LI', 'LU'],
  fr: ['FR', 'BE', 'CH', 'CA', 'LU', 'MC'],
  es: ['ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'VE', 'EC', 'GT', 'CU', 'BO', 'DO', 'HN', 'PY', 'SV', 'NI', 'CR', 'PA', 'UY'],
  it: ['IT', 'CH', 'SM'],
  nl: ['NL', 'BE'],
  pt: ['PT', 'BR', 'AO', 'MZ'],
  pl: ['PL'],
  sv: ['SE', 'FI'],
  da: ['DK'],
  no: ['NO'],
  fi: ['FI'],
  ru: ['RU', 'BY', 'KZ'],
  tr: ['TR'],
  el: ['GR', 'CY'],
  ja: ['JP'],
  zh: ['CN', 'TW', 'HK', 'SG'],
  ko: ['KR'],
};

/** The regions of a language: the table above, else the regions whose most likely language it is (CLDR via Intl). */
export function regionsOfLanguage(language: string): readonly string[] {
  return LANGUAGE_REGIONS[language] ?? [];
}

/** True when `language` is written in `region`: the table above, or the region's most likely language (CLDR). */
export function isLanguageOf(language: string, region: string): boolean {
  if (regionsOfLanguage(language).includes(region)) return true;
  try {
    return new Intl.Locale(`und-${region}`).maximize().language === language;
  } catch {
    return false;
  }
}

// The languages of the lexicon written in letters (stopwords-iso names them by ISO 639-1 code, as we do).
const WORD_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da', 'no', 'fi', 'ru', 'tr', 'el'] as const;

let index: Map<string, string[]> | undefined;

/** Word → the languages whose list holds it, built on first use (the lists are loaded then, not at import). */
function wordIndex(): Map<string, string[]> {
  index ??= buildWordIndex();
  return index;
}

function buildWordIndex(): Map<string, string[]> {
  // stopwords-iso has a list for each of them.
  const lists = createRequire(import.meta.url)('stopwords-iso') as Readonly<Record<(typeof WORD_LANGUAGES)[number], readonly string[]>>;
  const index = new Map<string, string[]>();
  for (const language of WORD_LANGUAGES) {
    for (const word of lists[language]) {
      const key = word.toLowerCase();
      const languages = index.get(key) ?? [];
      if (!languages.includes(language)) languages.push(language);
      index.set(key, languages);
    }
  }
  return index;
}

// Scripts that name their language: kana is Japanese, Hangul Korean, Han without kana Chinese.
const KANA_RE = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HANGUL_RE = /\p{Script=Hangul}/gu;
const HAN_RE = /\p{Script=Han}/gu;
/** Characters of a script that count as one function word. */
const SCRIPT_CHARS_PER_WORD = 4;

const countOf = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

/**
 * How much of each language's function words the text holds (a word shared by n languages counts 1/n to each),
 * and for Japanese, Korean and Chinese a word per four characters of their script.
 */
export function languageScores(text: string): Map<string, number> {
  const scores = new Map<string, number>();
  const add = (language: string, score: number): void => {
    if (score > 0) scores.set(language, (scores.get(language) ?? 0) + score);
  };
  const words = wordIndex();
  for (const [token] of text.toLowerCase().matchAll(/\p{L}+/gu)) {
    const languages = words.get(token);
    if (languages === undefined) continue;
    for (const language of languages) add(language, 1 / languages.length);
  }
  const kana = countOf(text, KANA_RE);
  add('ja', kana / SCRIPT_CHARS_PER_WORD);
  add('ko', countOf(text, HANGUL_RE) / SCRIPT_CHARS_PER_WORD);
  if (kana === 0) add('zh', countOf(text, HAN_RE) / SCRIPT_CHARS_PER_WORD);
  return scores;
}
