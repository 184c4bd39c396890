/**
 * Context words: the labels that make a merely plausible value a fact of its kind when one stands right before it
 * (`"check": "labelled"`, docs/extract.md). Phone words in the languages of the default regions, and card words.
 * Matching is case-insensitive; a word must not be glued to a letter before it, and between the word and the value
 * only a short filler may stand: `number`/`no.`, a parenthesis (`Phone (office):`), a colon, dash or equals sign,
 * and for verbs `us/me … on/at` (`call us on`).
 */
const EN = 'US GB IE CA AU NZ IN ZA';
const DE = 'DE AT CH';
const FR = 'FR BE CH CA';
// Each phone word with the regions whose language it belongs to ('' for words written everywhere: tel, fax, sms):
// a label narrows a number valid in several regions to those of its language.
const PHONE_WORDS: Record<string, string> = {
  phone: EN,
  telephone: EN,
  tel: '',
  ph: EN,
  mobile: EN,
  mob: EN,
  cell: EN,
  cellphone: EN,
  fax: '',
  call: EN,
  ring: EN,
  dial: EN,
  sms: '',
  whatsapp: '',
  hotline: '',
  helpline: EN,
  telefon: `${DE} SE DK NO PL TR`,
  telefonnummer: `${DE} SE DK NO`,
  rufnummer: DE,
  handy: DE,
  mobil: `${DE} SE DK NO`,
  mobilnummer: `${DE} SE DK NO`,
  telefax: DE,
  anrufen: DE,
  telefoon: 'NL BE',
  mobiel: 'NL BE',
  tlf: 'DK NO',
  puh: 'FI',
  puhelin: 'FI',
  téléphone: FR,
  tél: FR,
  portable: FR,
  appelez: FR,
  teléfono: 'ES MX AR',
  tfno: 'ES',
  telf: 'ES MX AR',
  móvil: 'ES MX AR',
  movil: 'ES MX AR',
  celular: 'BR MX AR',
  telefone: 'PT BR',
  telemóvel: 'PT',
  cellulare: 'IT CH',
  telefono: 'IT CH',
  'telefon komórkowy': 'PL',
  'tel. kom': 'PL',
  kom: 'PL',
  телефон: 'RU',
  тел: 'RU',
  моб: 'RU',
  мобильный: 'RU',
  факс: 'RU',
  телефону: 'RU',
  cep: 'TR',
  τηλ: 'GR',
  τηλέφωνο: 'GR',
  電話: 'JP',
  電話番号: 'JP',
  携帯: 'JP',
  电话: 'CN',
  手机: 'CN',
  전화: 'KR',
  휴대폰: 'KR',
};
const PHONE_SYMBOLS = ['☎', '☏', '📞', '📱', '✆'];

const CARD_WORDS = [
  'card',
  'card number',
  'card no',
  'credit card',
  'debit card',
  'cc',
  'pan',
  'visa',
  'mastercard',
  'amex',
  'karte',
  'kartennummer',
  'kreditkarte',
  'carte',
  'carte bancaire',
  'numéro de carte',
  'tarjeta',
  'carta',
  'cartão',
  'kaart',
  'karta',
  'карта',
  'カード',
  '卡号',
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const NUMBER_WORD = String.raw`(?:\s*(?:numbers?|nos?\.?|nr\.?|n[°º]|#|num(?:ber|ero|éro)?\.?|nummer|номер))?`;
const PAREN = String.raw`(?:\s*\([^()\n]{1,24}\))?`;
const MARK = String.raw`\s*[:：.=\-–—]?\s*`;
const VERB_FILLER = String.raw`(?:(?:us|me|him|her|them)\s+)?(?:(?:on|at)\s+)?`;

function contextPattern(words: readonly string[], symbols: readonly string[]): RegExp {
  const byLength = [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) =>
      word
        .split(/\s+/)
        .map(escapeRegExp)
        .join(String.raw`[\s.]+`),
    );
  const wordPart = `(?<![\\p{L}\\p{M}])(${byLength.join('|')})(?![\\p{L}\\p{M}])`;
  const symbolPart = symbols.length === 0 ? '' : `|(?:${symbols.map(escapeRegExp).join('|')})`;
  return new RegExp(`(?:${wordPart}\\.?${NUMBER_WORD}${PAREN}${MARK}${VERB_FILLER}${symbolPart}\\s*)$`, 'iu');
}

const PHONE_CONTEXT_RE = contextPattern(Object.keys(PHONE_WORDS), PHONE_SYMBOLS);
const CARD_CONTEXT_RE = contextPattern(CARD_WORDS, []);

/** How far back a context word may start. */
const CONTEXT_WINDOW = 48;

function contextBefore(pattern: RegExp, text: string, start: number): RegExpExecArray | null {
  const head = text.slice(Math.max(0, start - CONTEXT_WINDOW), start);
  const line = head.slice(Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r')) + 1);
  return pattern.exec(line);
}

/** True when a phone word or symbol (`Tel:`, `call us on`, `Телефон:`, `☎`) stands right before `start`. */
export function phoneContextBefore(text: string, start: number): boolean {
  return contextBefore(PHONE_CONTEXT_RE, text, start) !== null;
}

/**
 * The regions of the language of the phone word right before `start` (`Telefono:` → IT, CH), `[]` for a word of
 * no one language (`Tel:`, `Fax`, `☎`), undefined when there is no phone word.
 */
export function phoneLabelRegions(text: string, start: number): string[] | undefined {
  const match = contextBefore(PHONE_CONTEXT_RE, text, start);
  if (match === null) return undefined;
  const word = (match[1] ?? '')
    .toLowerCase()
    .replace(/[\s.]+/g, (gap) => (gap.includes('.') ? '. ' : ' '))
    .trim();
  const regions = PHONE_WORDS[word] ?? PHONE_WORDS[word.replace(/\. /g, ' ')] ?? '';
  return regions === '' ? [] : regions.split(' ');
}

/** True when a card word (`Card number:`, `Visa`, `Kreditkarte:`) stands right before `start`. */
export function cardContextBefore(text: string, start: number): boolean {
  return contextBefore(CARD_CONTEXT_RE, text, start) !== null;
}

/** The context words, for documentation. */
export function contextWords(): { phone: readonly string[]; card: readonly string[] } {
  return { phone: [...Object.keys(PHONE_WORDS), ...PHONE_SYMBOLS], card: CARD_WORDS };
}
