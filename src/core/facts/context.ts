import { regionsOfLanguage } from './language.js';

/**
 * Context words: the labels that make a merely plausible value a fact of its kind when one stands right before it
 * (`"check": "labelled"`, docs/extract.md). Phone words in the languages of the default regions, and card words.
 * Matching is case-insensitive; a word must not be glued to a letter before it, and between the word and the value
 * only a short filler may stand: `number`/`no.`, a parenthesis (`Phone (office):`), a colon, dash or equals sign,
 * and for verbs `us/me … on/at` (`call us on`).
 */
// Each phone word with the languages it belongs to ('' for words written everywhere: tel, fax, sms): a label narrows
// a number valid in several regions to those where its language is written (language.ts).
const PHONE_WORDS: Record<string, string> = {
  phone: 'en',
  telephone: 'en',
  tel: '',
  ph: 'en',
  mobile: 'en',
  mob: 'en',
  cell: 'en',
  cellphone: 'en',
  fax: '',
  call: 'en',
  ring: 'en',
  dial: 'en',
  sms: '',
  whatsapp: '',
  hotline: '',
  helpline: 'en',
  telefon: 'de sv da no pl tr',
  telefonnummer: 'de sv da no',
  rufnummer: 'de',
  handy: 'de',
  mobil: 'de sv da no',
  mobilnummer: 'de sv da no',
  telefax: 'de',
  anrufen: 'de',
  telefoon: 'nl',
  mobiel: 'nl',
  tlf: 'da no',
  puh: 'fi',
  puhelin: 'fi',
  téléphone: 'fr',
  tél: 'fr',
  portable: 'fr',
  appelez: 'fr',
  teléfono: 'es',
  tfno: 'es',
  telf: 'es',
  móvil: 'es',
  movil: 'es',
  celular: 'pt es',
  telefone: 'pt',
  telemóvel: 'pt',
  cellulare: 'it',
  telefono: 'it',
  'telefon komórkowy': 'pl',
  'tel. kom': 'pl',
  kom: 'pl',
  телефон: 'ru',
  тел: 'ru',
  моб: 'ru',
  мобильный: 'ru',
  факс: 'ru',
  телефону: 'ru',
  cep: 'tr',
  τηλ: 'el',
  τηλέφωνο: 'el',
  電話: 'ja',
  電話番号: 'ja',
  携帯: 'ja',
  电话: 'zh',
  手机: 'zh',
  전화: 'ko',
  휴대폰: 'ko',
};
const PHONE_SYMBOLS = ['☎', '☏', '📞', '📱', '✆'];

/** A word as a label writes it, lower-cased with every gap of spaces and dots as one space (`Tel. kom.` → `tel kom`). */
const spelled = (word: string): string => word.toLowerCase().replace(/[\s.]+/g, ' ');
const PHONE_WORD_LANGUAGES = new Map(Object.entries(PHONE_WORDS).map(([word, languages]) => [spelled(word), languages]));

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

/**
 * Words that label a value of another kind (issue 28): identity and tax numbers, accounts, orders, invoices, tickets,
 * references, credit notes, customer and policy numbers, PO boxes and postcodes, in English and the lexicon's
 * languages. Right before a number (with the same fillers as a phone word, and `is`/`was` after the word: `his social
 * security number is …`), one vetoes a phone reading unless the number is written as a phone (phone.ts,
 * `otherKindAllows`). Singular only: `Reservations:` or `Bookings:` before a number is a phone line.
 */
const OTHER_KIND_WORDS = [
  // English
  'ssn',
  'social security',
  'social security no',
  'tax id',
  'tax',
  'tin',
  'ein',
  'vat',
  'vat id',
  'vat reg',
  'national insurance',
  'passport',
  'licence',
  'license',
  'id',
  'customer',
  'customer id',
  'client',
  'member',
  'membership',
  'account',
  'acct',
  'a/c',
  'order',
  'order id',
  'purchase order',
  'po',
  'invoice',
  'inv',
  'receipt',
  'ticket',
  'case',
  'incident',
  'reference',
  'ref',
  'credit note',
  'debit note',
  'po box',
  'p o box',
  'box',
  'postcode',
  'post code',
  'postal code',
  'zip',
  'zip code',
  'tracking',
  'shipment',
  'serial',
  'sku',
  'part',
  'booking',
  'confirmation',
  'reservation',
  'policy',
  'claim',
  'routing',
  'sort code',
  'contract',
  // German
  'steuernummer',
  'steuer-id',
  'steuer-nr',
  'ust-idnr',
  'ust-id',
  'kundennummer',
  'kunden-nr',
  'kundennr',
  'rechnung',
  'rechnungsnummer',
  'rechnungs-nr',
  'bestellung',
  'bestellnummer',
  'bestell-nr',
  'auftrag',
  'auftragsnummer',
  'auftrags-nr',
  'vorgang',
  'vorgangsnummer',
  'aktenzeichen',
  'konto',
  'kontonummer',
  'postfach',
  'plz',
  'postleitzahl',
  'referenz',
  'vertragsnummer',
  'versicherungsnummer',
  'sozialversicherungsnummer',
  'gutschrift',
  'lieferschein',
  'sendungsnummer',
  'seriennummer',
  // French
  'facture',
  'numéro de facture',
  'commande',
  'numéro de commande',
  'numéro client',
  'référence',
  'réf',
  'siret',
  'siren',
  'tva',
  'boîte postale',
  'code postal',
  'dossier',
  'compte',
  'sécurité sociale',
  // Spanish
  'factura',
  'pedido',
  'cliente',
  'referencia',
  'nif',
  'nie',
  'dni',
  'cif',
  'cuenta',
  'apartado',
  'código postal',
  'expediente',
  // Italian
  'fattura',
  'ordine',
  'codice cliente',
  'riferimento',
  'rif',
  'codice fiscale',
  'partita iva',
  'p iva',
  'conto',
  'casella postale',
  'pratica',
  // Dutch
  'factuur',
  'factuurnummer',
  'bestelling',
  'bestelnummer',
  'klantnummer',
  'klant',
  'referentie',
  'kenmerk',
  'bsn',
  'btw',
  'postbus',
  'rekening',
  'rekeningnummer',
  'dossiernummer',
  // Portuguese
  'fatura',
  'nº de fatura',
  'cpf',
  'cnpj',
  'referência',
  'conta',
  'caixa postal',
  'encomenda',
  // Polish
  'faktura',
  'zamówienie',
  'numer zamówienia',
  'nip',
  'pesel',
  'regon',
  'numer konta',
  'kod pocztowy',
  // Scandinavian and Finnish
  'personnummer',
  'organisationsnummer',
  'orgnr',
  'org nr',
  'nhs',
  'fakturanummer',
  'ordernummer',
  'ordrenummer',
  'kundnummer',
  'kundenummer',
  'postnummer',
  'cpr',
  'cpr-nr',
  'cvr',
  'fødselsnummer',
  'henkilötunnus',
  'hetu',
  'y-tunnus',
  'lasku',
  'laskun numero',
  'tilaus',
  'viite',
  'viitenumero',
  'postinumero',
  // Russian, Japanese, Chinese, Korean
  'инн',
  'снилс',
  'счёт',
  'счет',
  'заказ',
  'договор',
  'паспорт',
  '注文番号',
  '請求書番号',
  '郵便番号',
  '口座番号',
  '订单号',
  '发票号',
  '邮编',
  '身份证',
  '주문번호',
  '우편번호',
];
const OTHER_KIND_SYMBOLS = ['〒'];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const NUMBER_WORD = String.raw`(?:\s*(?:numbers?|nos?\.?|nr\.?|n(?:\.?\s?[°º]|\.)|#|num(?:ber|ero|éro)?\.?|nummer|номер))?`;
const PAREN = String.raw`(?:\s*\([^()\n]{1,24}\))?`;
const MARK = String.raw`\s*[:：.=\-–—]?\s*`;
const VERB_FILLER = String.raw`(?:(?:us|me|him|her|them)\s+)?(?:(?:on|at)\s+)?`;

// After a word of another kind, a copula may stand before the value: `his social security number is 078-05-1120`.
const COPULA = String.raw`(?:(?:is|was|ist|war|est|es|è|är|er|on)\s+)?`;

function contextPattern(words: readonly string[], symbols: readonly string[], filler = VERB_FILLER): RegExp {
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
  return new RegExp(`(?:${wordPart}\\.?${NUMBER_WORD}${PAREN}${MARK}${filler}${symbolPart}\\s*)$`, 'iu');
}

const PHONE_CONTEXT_RE = contextPattern(Object.keys(PHONE_WORDS), PHONE_SYMBOLS);
const CARD_CONTEXT_RE = contextPattern(CARD_WORDS, []);
const OTHER_KIND_CONTEXT_RE = contextPattern(OTHER_KIND_WORDS, OTHER_KIND_SYMBOLS, COPULA);

/** How far back a context word may start. */
const CONTEXT_WINDOW = 48;

/** The text of the line before `start`, at most CONTEXT_WINDOW characters back. */
function lineBefore(text: string, start: number): string {
  const head = text.slice(Math.max(0, start - CONTEXT_WINDOW), start);
  return head.slice(Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r')) + 1);
}

function contextBefore(pattern: RegExp, text: string, start: number): RegExpExecArray | null {
  return pattern.exec(lineBefore(text, start));
}

// Stryker disable next-line Regex: equivalent — a shortcut: a line it does not call ASCII goes to the whole pattern.
const ASCII_RE = /^[^\u0080-\uFFFF]*$/;

/** True when a phone word or symbol (`Tel:`, `call us on`, `Телефон:`, `☎`) stands right before `start`. */
export function phoneContextBefore(text: string, start: number): boolean {
  return contextBefore(PHONE_CONTEXT_RE, text, start) !== null;
}

/**
 * The languages of the phone word right before `start` (`Telefono:` → it), `[]` for a word of no one language
 * (`Tel:`, `Fax`, `☎`), undefined when there is no phone word.
 */
export function phoneLabelLanguages(text: string, start: number): string[] | undefined {
  const match = contextBefore(PHONE_CONTEXT_RE, text, start);
  if (match === null) return undefined;
  // A symbol (☎) has no word (group 1).
  const languages = PHONE_WORD_LANGUAGES.get(spelled(match[1] ?? '')) ?? '';
  return languages === '' ? [] : languages.split(' ');
}

/**
 * The regions of the language of the phone word right before `start` (`Telefono:` → IT, CH, SM), `[]` for a word of
 * no one language (`Tel:`, `Fax`, `☎`), undefined when there is no phone word.
 */
export function phoneLabelRegions(text: string, start: number): string[] | undefined {
  const languages = phoneLabelLanguages(text, start);
  return languages === undefined ? undefined : [...new Set(languages.flatMap((language) => regionsOfLanguage(language)))];
}

/** True when a card word (`Card number:`, `Visa`, `Kreditkarte:`) stands right before `start`. */
export function cardContextBefore(text: string, start: number): boolean {
  return contextBefore(CARD_CONTEXT_RE, text, start) !== null;
}

/**
 * True when a word labelling a value of another kind stands right before `start` (`SSN:`, `Invoice no.`, `Credit note`,
 * `PO Box`, `Kundennummer`, `Facture n°`, `his social security number is`): issue 28's veto of a phone reading.
 */
export function otherKindBefore(text: string, start: number): boolean {
  const line = lineBefore(text, start);
  return mayOpenOtherKindWord(line) && OTHER_KIND_CONTEXT_RE.exec(line) !== null;
}

// The first word of each label of another kind written in ASCII: an ASCII line holds a label only where one of these
// stands as a word. (Under the pattern's `iu` flags an ASCII letter matches only itself in either case, and a label
// with other letters matches no ASCII text: none of its letters folds to ASCII.)
// Stryker disable next-line MethodExpression,Regex: equivalent — a shortcut: more words (or an empty one) only let more lines reach the pattern.
const OTHER_KIND_FIRST_WORDS = [...new Set(OTHER_KIND_WORDS.map((word) => word.split(/\s+/)[0]!.toLowerCase()))].filter((word) => ASCII_RE.test(word));
const ASCII_LETTER_RE = /[a-z]/i;

/**
 * False when the line cannot end in a label of another kind: it is ASCII and none of the labels' first words stands
 * in it as a word. A shortcut only, measured: the pattern is large, and its first use (compiling it) costs more than
 * this test on every phone window of a long text (docs/extract.md, "Measurements (issue 28…)").
 */
function mayOpenOtherKindWord(line: string): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent — a shortcut: the pattern decides.
  if (!ASCII_RE.test(line)) return true;
  const lower = line.toLowerCase();
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent where looser (a shortcut: more lines reach the pattern); the stricter mutants fail the tests.
  const isWord = (at: number, length: number): boolean => !ASCII_LETTER_RE.test(lower.charAt(at - 1)) && !ASCII_LETTER_RE.test(lower.charAt(at + length));
  return OTHER_KIND_FIRST_WORDS.some((word) => {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      // Stryker disable next-line ConditionalExpression: equivalent — a shortcut: the pattern decides.
      if (isWord(at, word.length)) return true;
    }
    // Stryker disable next-line BooleanLiteral: equivalent — a shortcut: the pattern decides.
    return false;
  });
}

/** The context words, for documentation. */
export function contextWords(): { phone: readonly string[]; card: readonly string[]; other: readonly string[] } {
  return { phone: [...Object.keys(PHONE_WORDS), ...PHONE_SYMBOLS], card: CARD_WORDS, other: [...OTHER_KIND_WORDS, ...OTHER_KIND_SYMBOLS] };
}
