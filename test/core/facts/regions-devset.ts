import { getExampleNumber, parsePhoneNumber, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';

/**
 * hippo's own development set for issue 15 (docs/extract.md §Measurements), built deterministically from
 * libphonenumber-js's example numbers per region and its metadata:
 *
 * - phones of 24 regions, each as a few valid numbers derived from the region's example (last digits varied while
 *   libphonenumber still calls them valid), written in national format (as libphonenumber formats them, with dashes,
 *   with a group split further) and in international format (grouped and E.164), inside sentences in the region's
 *   language and in English, with and without a phone label, read with no home region (a C locale), with another
 *   home region where it is not valid as written (home comes first), or at home;
 * - labelled numbers: numbers libphonenumber calls possible but not valid (a leading digit changed, length kept),
 *   with a label (a `labelled` fact) and without one (nothing);
 * - extensions (`x4587`, `ext. 12`, `доб. 123`);
 * - cards (13-digit Visa, an unknown issuer with and without a card label), lower-case IBANs, and addresses certified
 *   by a postcode in each supported country;
 * - negatives: IPv4 addresses, card numbers, dates, order and invoice numbers, versions, timestamps, amounts.
 *
 * Nothing in src knows these passages; they are written from the rules of each format, not tuned to the recognisers.
 */
export interface DevFact {
  kind: 'phone' | 'card' | 'iban' | 'address';
  start: number;
  end: number;
  value: string;
  normalized: string;
}

export interface DevCase {
  id: string;
  text: string;
  /** Home region; null: none (a C locale). The candidate list is always the default one. */
  region: string | null;
  facts: DevFact[];
  /** What the case exercises, for the per-group report. */
  group: string;
}

export const SCORED_KINDS = ['phone', 'card', 'iban', 'address'] as const;

/** Regions of the phone cases, each in the default candidate list. */
export const PHONE_REGIONS: readonly CountryCode[] = [
  'US',
  'GB',
  'IE',
  'DE',
  'FR',
  'ES',
  'IT',
  'NL',
  'BE',
  'AT',
  'CH',
  'PT',
  'PL',
  'SE',
  'DK',
  'NO',
  'FI',
  'AU',
  'NZ',
  'IN',
  'BR',
  'MX',
  'JP',
  'RU',
];

const LANGUAGE: Partial<Record<CountryCode, string>> = {
  DE: 'de',
  AT: 'de',
  CH: 'de',
  FR: 'fr',
  BE: 'fr',
  ES: 'es',
  MX: 'es',
  IT: 'it',
  NL: 'nl',
  PT: 'pt',
  BR: 'pt',
  PL: 'pl',
  SE: 'sv',
  DK: 'da',
  NO: 'no',
  FI: 'fi',
  JP: 'ja',
  RU: 'ru',
};

/** `{n}` is the number. A labelled sentence has a phone word right before it; a plain one has none. */
const SENTENCES: Record<string, { labelled: string[]; plain: string[] }> = {
  en: {
    labelled: ['Phone: {n}', 'You can call us on {n} from 9 to 5.', 'Mobile (work): {n}'],
    plain: ['Anna is at {n} until Friday.', 'Contact details for the venue — {n}, ask for Tom.'],
  },
  de: { labelled: ['Telefon: {n}', 'Rufnummer {n} (Zentrale)'], plain: ['Frau Berger erreichen Sie unter {n} ab Montag.'] },
  fr: { labelled: ['Téléphone : {n}', 'Tél. {n}'], plain: ['Vous pouvez joindre Marie au {n} demain.'] },
  es: { labelled: ['Teléfono: {n}', 'Móvil: {n}'], plain: ['Puede contactar con Lucía en el {n} por la tarde.'] },
  it: { labelled: ['Telefono: {n}', 'Cellulare {n}'], plain: ['Per informazioni: Marco, {n}, dalle 9 alle 18.'] },
  nl: { labelled: ['Telefoon: {n}', 'Mobiel: {n}'], plain: ['Je kunt Sanne bereiken op {n} na vijf uur.'] },
  pt: { labelled: ['Telefone: {n}', 'Celular: {n}'], plain: ['Fale com a Ana pelo {n} amanhã.'] },
  pl: { labelled: ['Telefon: {n}', 'Tel. kom. {n}'], plain: ['Z panem Nowakiem można się skontaktować pod {n} po południu.'] },
  sv: { labelled: ['Telefon: {n}', 'Mobil: {n}'], plain: ['Du når Erik på {n} efter lunch.'] },
  da: { labelled: ['Telefon: {n}', 'Tlf. {n}'], plain: ['Du kan fange Mette på {n} i morgen.'] },
  no: { labelled: ['Telefon: {n}', 'Mobil: {n}'], plain: ['Ola treffes på {n} etter klokken ni.'] },
  fi: { labelled: ['Puhelin: {n}', 'Puh. {n}'], plain: ['Mikon tavoittaa numerosta {n} arkisin.'] },
  ja: { labelled: ['電話：{n}', '携帯 {n}'], plain: ['担当の田中は {n} までご連絡ください。'] },
  ru: { labelled: ['Телефон: {n}', 'Тел.: {n}'], plain: ['Ивана можно застать по {n} после обеда.'] },
};

interface Placed {
  text: string;
  fact?: DevFact;
}

/** Puts `value` into `template` at `{n}`, with the fact's span computed from where it lands. */
function place(template: string, value: string, fact?: Omit<DevFact, 'start' | 'end' | 'value'>): Placed {
  const at = template.indexOf('{n}');
  const text = template.slice(0, at) + value + template.slice(at + 3);
  return fact === undefined ? { text } : { text, fact: { ...fact, start: at, end: at + value.length, value } };
}

/** Valid numbers near the region's example: the example, then its last three digits varied while still valid. */
function validNumbers(region: CountryCode, count: number): PhoneNumber[] {
  const example = getExampleNumber(region, examples);
  if (example === undefined) return [];
  const numbers = [example];
  const national = example.nationalNumber;
  for (const tail of ['274', '918', '503', '461', '736']) {
    if (numbers.length >= count) break;
    const candidate = parsePhoneNumber(national.slice(0, -3) + tail, region);
    if (candidate.isValid() && !numbers.some((number) => number.number === candidate.number)) numbers.push(candidate);
  }
  return numbers;
}

/**
 * A number libphonenumber calls possible but not valid in the region, and valid in none of the phone regions as
 * written: the example's first digit changed.
 */
function possibleOnly(region: CountryCode): PhoneNumber | undefined {
  const example = getExampleNumber(region, examples);
  if (example === undefined) return undefined;
  const national = example.nationalNumber;
  for (const digit of '0123456789') {
    const candidate = parsePhoneNumber(digit + national.slice(1), region);
    if (candidate.isValid() || !candidate.isPossible()) continue;
    const written = candidate.formatNational();
    if (PHONE_REGIONS.some((other) => parsePhoneNumber(written, other)?.isValid() === true)) continue;
    return candidate;
  }
  return undefined;
}

/** National forms as people write them: libphonenumber's, with dashes, and with its longest group split in two. */
function nationalForms(number: PhoneNumber): string[] {
  const formatted = number.formatNational();
  const forms = [formatted];
  if (/ /.test(formatted))
    forms.push(
      formatted
        .replace(/[ ]/g, '-')
        .replace(/-+/g, '-')
        .replace(/\(-|-\)/g, (m) => m.replace('-', '')),
    );
  const groups = formatted.split(' ');
  let longest = 0;
  groups.forEach((group, index) => {
    if (group.length > (groups[longest] ?? '').length) longest = index;
  });
  const group = groups[longest] ?? '';
  if (/^\d{6,}$/.test(group)) {
    const half = Math.floor(group.length / 2);
    forms.push([...groups.slice(0, longest), `${group.slice(0, half)} ${group.slice(half)}`, ...groups.slice(longest + 1)].join(' '));
  }
  return [...new Set(forms)];
}

/** International forms: libphonenumber's grouping, and E.164. */
function internationalForms(number: PhoneNumber): string[] {
  return [number.formatInternational(), number.number];
}

function otherHome(region: CountryCode): string {
  return region === 'US' ? 'DE' : 'US';
}

function phoneCases(): DevCase[] {
  const cases: DevCase[] = [];
  let n = 0;
  const add = (group: string, region: string | null, placed: Placed): void => {
    cases.push({ id: `phone-${++n}`, text: placed.text, region, facts: placed.fact === undefined ? [] : [placed.fact], group });
  };
  for (const region of PHONE_REGIONS) {
    const language = SENTENCES[LANGUAGE[region] ?? 'en'] ?? SENTENCES.en!;
    const english = SENTENCES.en!;
    const numbers = validNumbers(region, 3);
    numbers.forEach((number, index) => {
      const phone = { kind: 'phone' as const, normalized: number.number };
      const labelled = language.labelled[index % language.labelled.length]!;
      const plain = language.plain[index % language.plain.length]!;
      const englishPlain = english.plain[index % english.plain.length]!;
      nationalForms(number).forEach((form, formIndex) => {
        // No home region (C locale), another home region, and at home.
        add('national, labelled, no home region', null, place(labelled, form, phone));
        add('national, unlabelled, no home region', null, place(formIndex % 2 === 0 ? plain : englishPlain, form, phone));
        // Read in another home region only when it is not a valid number there as written: home comes first, so a
        // number valid at home is the reader's own (312 345 6789 is Italian and American alike).
        if (parsePhoneNumber(form, otherHome(region) as CountryCode)?.isValid() !== true) {
          add('national, unlabelled, other home region', otherHome(region), place(plain, form, phone));
        }
        if (formIndex === 0) add('national, at home', region, place(plain, form, phone));
      });
      internationalForms(number).forEach((form, formIndex) => {
        add('international', formIndex === 0 ? null : otherHome(region), place(formIndex === 0 ? labelled : englishPlain, form, phone));
      });
    });
    const possible = possibleOnly(region);
    if (possible !== undefined) {
      const phone = { kind: 'phone' as const, normalized: possible.number };
      add('possible only, labelled', region, place(language.labelled[0]!, possible.formatNational(), phone));
      add('possible only, labelled, international', null, place(SENTENCES.en!.labelled[0]!, possible.formatInternational(), phone));
      add('possible only, unlabelled (negative)', region, place(language.plain[0]!, possible.formatNational()));
    }
  }
  // Extensions, with the example numbers of three regions.
  const us = validNumbers('US', 1)[0]!;
  const gb = validNumbers('GB', 1)[0]!;
  const ru = validNumbers('RU', 1)[0]!;
  const extension = (number: PhoneNumber, written: string, ext: string) => ({ kind: 'phone' as const, normalized: `${number.number};ext=${ext}` });
  add('extension', 'US', place('Desk: {n}', `${us.formatNational()}x4587`, extension(us, '', '4587')));
  add('extension', null, place('Call {n} today.', `${us.formatInternational()} ext. 12`, extension(us, '', '12')));
  add('extension', 'GB', place('Switchboard {n}', `${gb.formatNational()} ext 204`, extension(gb, '', '204')));
  add('extension', null, place('Телефон: {n}', `${ru.formatInternational()} доб. 123`, extension(ru, '', '123')));
  return cases;
}

function otherCases(): DevCase[] {
  const cases: DevCase[] = [];
  let n = 0;
  const add = (group: string, region: string | null, text: string, facts: Array<Omit<DevFact, 'start' | 'end'> & { value: string }> = []): void => {
    cases.push({
      id: `other-${++n}`,
      text,
      region,
      group,
      facts: facts.map((fact) => {
        const start = text.indexOf(fact.value);
        return { ...fact, start, end: start + fact.value.length };
      }),
    });
  };
  // Cards: 13-digit Visa, issuer-known lengths, an unknown issuer (Luhn-valid) with and without a card label.
  add('card, 13-digit Visa', null, 'Old card on file: 4222222222222, expired.', [{ kind: 'card', value: '4222222222222', normalized: '4222222222222' }]);
  add('card, 13-digit Visa', 'US', 'Visa 4000000000006 was the test number.', [{ kind: 'card', value: '4000000000006', normalized: '4000000000006' }]);
  add('card', 'DE', 'Kreditkarte: 4111 1111 1111 1111, gültig bis 12/27', [{ kind: 'card', value: '4111 1111 1111 1111', normalized: '4111111111111111' }]);
  add('card, unknown issuer, labelled', null, 'Card number: 9012 3456 7890 1238', [
    { kind: 'card', value: '9012 3456 7890 1238', normalized: '9012345678901238' },
  ]);
  add('card, unknown issuer, labelled', 'FR', 'Numéro de carte : 8800 0000 0000 0005', [
    { kind: 'card', value: '8800 0000 0000 0005', normalized: '8800000000000005' },
  ]);
  add('card, unknown issuer, unlabelled (negative)', null, 'Tracking 9012 3456 7890 1238 shipped Monday.');
  // IBANs in lower and mixed case.
  add('iban, lower case', null, 'iban: ie29 aibk 9311 5212 3456 78 (Bank of Ireland)', [
    { kind: 'iban', value: 'ie29 aibk 9311 5212 3456 78', normalized: 'IE29AIBK93115212345678' },
  ]);
  add('iban, lower case', 'DE', 'Bitte überweisen an de89370400440532013000.', [
    { kind: 'iban', value: 'de89370400440532013000', normalized: 'DE89370400440532013000' },
  ]);
  add('iban, mixed case', 'FR', 'IBAN : Fr14 2004 1010 0505 0001 3M02 606', [
    { kind: 'iban', value: 'Fr14 2004 1010 0505 0001 3M02 606', normalized: 'FR1420041010050500013M02606' },
  ]);
  add('iban, bad checksum (negative)', null, 'iban: ie29 aibk 9311 5212 3456 79');
  // Addresses certified by a postcode.
  const addresses: Array<[string, string, string]> = [
    ['IE', 'Registered office: {a}. Visitors welcome.', '4 Grand Canal Square, Dublin 2, D02 X525'],
    ['IE', 'Ship to:\n{a}\nIreland', '7 Kilcarbery Business Park\nClondalkin\nD22 Y2X3'],
    ['GB', 'Send it to {a} please.', '10 Downing Street, London, SW1A 2AA'],
    ['GB', 'Address:\n{a}', '221B Baker Street\nLondon\nNW1 6XE'],
    ['US', 'HQ: {a}', '1600 Amphitheatre Pkwy, Mountain View, CA 94043'],
    ['US', 'Mail checks to\n{a}', '350 Fifth Avenue\nNew York, NY 10118-0110'],
    ['DE', 'Unser Büro: {a}', 'Hauptstraße 5, 10115 Berlin'],
    ['DE', 'Lieferadresse:\n{a}', 'Bahnhofstr. 12a\n80335 München'],
    ['FR', 'Adresse : {a}', '12 rue de Rivoli, 75004 Paris'],
    ['NL', 'Bezoekadres: {a}', 'Kalverstraat 92, 1012 PH Amsterdam'],
    ['BE', 'Adresse : {a}', 'Rue Neuve 1, 1000 Bruxelles'],
    ['AT', 'Anschrift: {a}', 'Stephansplatz 1, A-1010 Wien'],
    ['CH', 'Adresse: {a}', 'Bahnhofstrasse 21, CH-8001 Zürich'],
    ['ES', 'Dirección: {a}', 'Calle de Alcalá 42, 28014 Madrid'],
    ['IT', 'Indirizzo:\n{a}', 'Via Roma 10\n00184 Roma'],
  ];
  for (const [region, template, address] of addresses) {
    add('address, postcode', region, template.replace('{a}', address), [{ kind: 'address', value: address, normalized: address }]);
  }
  return cases;
}

/** Text that holds no phone, IBAN or address, whatever the home region (the card numbers in it are cards). */
const NEGATIVES: readonly string[] = [
  'The gateway is 192.168.10.25 and the DNS 10.0.0.153.',
  'Server 172.16.254.1 went down at 03:14.',
  'Test cards: 4111 1111 1111 1111 and 5500 0000 0000 0004.',
  'Pay with 378282246310005 if the other fails.',
  'The meeting moved to 03.05.2021, then to 2021-05-17.',
  'Invoice dated 12/05/2021, due 12-06-2021.',
  'Order #123456789 shipped; order 2024-00123 is pending.',
  'Bestellnummer 2024-001234 vom 14.03.2024.',
  'Invoice INV-2023-00042 for 1,234,567.00 EUR.',
  'Upgrade to v10.0.19041.1 or 4.18.2 before Friday.',
  'Build 20240314.2 passed; release 1.2.3.4567 follows.',
  'Event timestamp 1699999999999 in milliseconds.',
  'Population grew from 1 234 567 to 1 345 678 people.',
  'Revenue of €12.345.678 in 2023, up 12 percent.',
  'Commande n° 0612 du 3 mars, ref 75004.',
  'Pages 211-227 (2003) cover it.',
  'Room 12, floor 3, desk 45 — see you at 10:30.',
  'The ISBN is 978-3-16-148410-0.',
  'Coordinates 48.8566, 2.3522 mark the spot.',
  'Ticket 4423 reported 13 errors in 2022 and 17 in 2023.',
];

function negativeCases(): DevCase[] {
  const cases: DevCase[] = [];
  let n = 0;
  for (const text of NEGATIVES) {
    const facts: DevFact[] = [];
    for (const card of text.matchAll(/\d{4} \d{4} \d{4} \d{4}|\b3\d{14}\b/g)) {
      facts.push({ kind: 'card', start: card.index, end: card.index + card[0].length, value: card[0], normalized: card[0].replace(/ /g, '') });
    }
    for (const region of [null, 'US', 'DE', 'FR'])
      cases.push({ id: `negative-${++n}`, text, region, facts, group: facts.length > 0 ? 'card among negatives' : 'negative' });
  }
  return cases;
}

export function buildRegionsDevSet(): DevCase[] {
  return [...phoneCases(), ...otherCases(), ...negativeCases()];
}
