/**
 * Context words: the labels that make a merely plausible value a fact of its kind when one stands right before it
 * (`"check": "labelled"`, docs/extract.md). Phone words in the languages of the default regions, and card words.
 * Matching is case-insensitive; a word must not be glued to a letter before it, and between the word and the value
 * only a short filler may stand: `number`/`no.`, a parenthesis (`Phone (office):`), a colon, dash or equals sign,
 * and for verbs `us/me … on/at` (`call us on`).
 */
const PHONE_WORDS = [
  // English
  'phone',
  'telephone',
  'tel',
  'ph',
  'mobile',
  'mob',
  'cell',
  'cellphone',
  'fax',
  'call',
  'ring',
  'dial',
  'sms',
  'whatsapp',
  'hotline',
  'helpline',
  // German, Dutch, Nordic
  'telefon',
  'telefonnummer',
  'rufnummer',
  'handy',
  'mobil',
  'mobilnummer',
  'telefax',
  'anrufen',
  'telefoon',
  'mobiel',
  'tlf',
  'puh',
  'puhelin',
  // French, Spanish, Portuguese, Italian
  'téléphone',
  'tél',
  'portable',
  'appelez',
  'teléfono',
  'telefono',
  'tfno',
  'telf',
  'móvil',
  'movil',
  'celular',
  'telefone',
  'telemóvel',
  'cellulare',
  // Polish, Russian, Ukrainian, Turkish, Greek
  'telefon komórkowy',
  'tel. kom',
  'kom',
  'телефон',
  'тел',
  'моб',
  'мобильный',
  'факс',
  'телефону',
  'cep',
  'τηλ',
  'τηλέφωνο',
  // Japanese, Chinese, Korean
  '電話',
  '電話番号',
  '电话',
  '手机',
  '携帯',
  '전화',
  '휴대폰',
];
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
  const byLength = [...words].sort((a, b) => b.length - a.length).map((word) => word.split(/\s+/).map(escapeRegExp).join(String.raw`[\s.]+`));
  const wordPart = `(?<![\\p{L}\\p{M}])(?:${byLength.join('|')})(?![\\p{L}\\p{M}])`;
  const symbolPart = symbols.length === 0 ? '' : `|(?:${symbols.map(escapeRegExp).join('|')})`;
  return new RegExp(`(?:${wordPart}\\.?${NUMBER_WORD}${PAREN}${MARK}${VERB_FILLER}${symbolPart}\\s*)$`, 'iu');
}

const PHONE_CONTEXT_RE = contextPattern(PHONE_WORDS, PHONE_SYMBOLS);
const CARD_CONTEXT_RE = contextPattern(CARD_WORDS, []);

/** How far back a context word may start. */
const CONTEXT_WINDOW = 48;

function contextBefore(pattern: RegExp, text: string, start: number): boolean {
  const head = text.slice(Math.max(0, start - CONTEXT_WINDOW), start);
  const line = head.slice(Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r')) + 1);
  return pattern.test(line);
}

/** True when a phone word or symbol (`Tel:`, `call us on`, `Телефон:`, `☎`) stands right before `start`. */
export function phoneContextBefore(text: string, start: number): boolean {
  return contextBefore(PHONE_CONTEXT_RE, text, start);
}

/** True when a card word (`Card number:`, `Visa`, `Kreditkarte:`) stands right before `start`. */
export function cardContextBefore(text: string, start: number): boolean {
  return contextBefore(CARD_CONTEXT_RE, text, start);
}

/** The context words, for documentation. */
export function contextWords(): { phone: readonly string[]; card: readonly string[] } {
  return { phone: [...PHONE_WORDS, ...PHONE_SYMBOLS], card: CARD_WORDS };
}
