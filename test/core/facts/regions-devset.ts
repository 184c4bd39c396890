import { getExampleNumber, Metadata, parsePhoneNumber, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
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
  /** phone cases: the region of the number, for the per-region report. */
  phoneRegion?: CountryCode;
  /** Kinds not scored on this passage (a signature's address is real, but not annotated). */
  unscored?: ReadonlyArray<(typeof SCORED_KINDS)[number]>;
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

/**
 * Passages as people of a region write them, in its language: a signature with a label, an address and an e-mail
 * address; a short signature with no label (the e-mail address's domain is the region's own, except in the US where
 * it is a .com); a message asking to call back, with no label and nothing but its language to tell the region.
 * `{name}`, `{street}`, `{town}`, `{email}` come from the region's entry in PEOPLE.
 */
const PASSAGES: Record<string, { signature: string; short: string; message: string }> = {
  en: {
    signature: 'Kind regards,\n{name}\n{street}\n{town}\nPhone: {n}\n{email}',
    short: 'Thanks,\n{name}\n{n} | {email}',
    message: 'Hi Tom, could you call {first} back tomorrow morning? The number is {n}.',
  },
  de: {
    signature: 'Mit freundlichen Grüßen\n{name}\n{street}\n{town}\nTel.: {n}\n{email}',
    short: 'Viele Grüße\n{name}\n{n} · {email}',
    message: 'Hallo Tom, kannst du {first} bitte morgen früh zurückrufen? Die Nummer ist {n}.',
  },
  fr: {
    signature: 'Cordialement,\n{name}\n{street}\n{town}\nTél. : {n}\n{email}',
    short: 'Bien à vous,\n{name}\n{n} – {email}',
    message: 'Bonjour Paul, peux-tu rappeler {first} demain matin ? Son numéro est le {n}.',
  },
  es: {
    signature: 'Un saludo,\n{name}\n{street}\n{town}\nTel.: {n}\n{email}',
    short: 'Saludos,\n{name}\n{n} · {email}',
    message: 'Hola Pablo, ¿puedes llamar a {first} mañana por la mañana? Su número es el {n}.',
  },
  it: {
    signature: 'Cordiali saluti,\n{name}\n{street}\n{town}\nTel. {n}\n{email}',
    short: 'Grazie,\n{name}\n{n} – {email}',
    message: 'Ciao Luca, puoi richiamare {first} domani mattina? Il suo numero è {n}.',
  },
  nl: {
    signature: 'Met vriendelijke groet,\n{name}\n{street}\n{town}\nTel.: {n}\n{email}',
    short: 'Groeten,\n{name}\n{n} | {email}',
    message: 'Hoi Tom, kun je {first} morgenochtend even terugbellen? Het nummer is {n}.',
  },
  pt: {
    signature: 'Com os melhores cumprimentos,\n{name}\n{street}\n{town}\nTel.: {n}\n{email}',
    short: 'Obrigado,\n{name}\n{n} · {email}',
    message: 'Olá Pedro, pode ligar para {first} amanhã de manhã? O número é o {n}.',
  },
  pl: {
    signature: 'Z poważaniem,\n{name}\n{street}\n{town}\nTel.: {n}\n{email}',
    short: 'Pozdrawiam,\n{name}\n{n} | {email}',
    message: 'Cześć Tomek, możesz jutro rano oddzwonić do {first}? Numer to {n}.',
  },
  sv: {
    signature: 'Med vänliga hälsningar,\n{name}\n{street}\n{town}\nTel: {n}\n{email}',
    short: 'Hälsningar,\n{name}\n{n} | {email}',
    message: 'Hej Anders, kan du ringa tillbaka till {first} i morgon bitti? Numret är {n}.',
  },
  da: {
    signature: 'Med venlig hilsen\n{name}\n{street}\n{town}\nTlf.: {n}\n{email}',
    short: 'Hilsen\n{name}\n{n} | {email}',
    message: 'Hej Lars, kan du ringe {first} tilbage i morgen tidlig? Nummeret er {n}.',
  },
  no: {
    signature: 'Med vennlig hilsen\n{name}\n{street}\n{town}\nTlf.: {n}\n{email}',
    short: 'Hilsen\n{name}\n{n} | {email}',
    message: 'Hei Lars, kan du ringe {first} tilbake i morgen tidlig? Nummeret er {n}.',
  },
  fi: {
    signature: 'Ystävällisin terveisin\n{name}\n{street}\n{town}\nPuh. {n}\n{email}',
    short: 'Terveisin\n{name}\n{n} | {email}',
    message: 'Hei Jussi, voisitko soittaa huomenna aamulla takaisin? Numero on {n}.',
  },
  ja: {
    signature: 'よろしくお願いいたします。\n{name}\n{town} {street}\n電話：{n}\n{email}',
    short: '{name}\n{n}\n{email}',
    message: '明日の朝、{first}さんに折り返し電話してください。番号は {n} です。',
  },
  ru: {
    signature: 'С уважением,\n{name}\n{street}\n{town}\nТел.: {n}\n{email}',
    short: 'Спасибо,\n{name}\n{n} | {email}',
    message: 'Привет, Саша! Перезвони, пожалуйста, завтра утром: {first} ждёт звонка, номер {n}.',
  },
};

/** A person of each region, with an address and an e-mail address written as there. */
const PEOPLE: Record<string, { name: string; first: string; street: string; town: string; email: string }> = {
  US: { name: 'Emily Carter', first: 'Emily', street: '350 Fifth Avenue', town: 'New York, NY 10118', email: 'emily@carterlaw.com' },
  GB: { name: 'James Whitfield', first: 'James', street: '221B Baker Street', town: 'London NW1 6XE', email: 'james@whitfield.co.uk' },
  IE: { name: 'Siobhán Murphy', first: 'Siobhán', street: '4 Grand Canal Square', town: 'Dublin 2, D02 X525', email: 'siobhan@murphy.ie' },
  DE: { name: 'Jonas Weber', first: 'Jonas', street: 'Lindenstraße 12', town: '80331 München', email: 'j.weber@weber-bau.de' },
  FR: { name: 'Marie Dubois', first: 'Marie', street: '12 rue de Rivoli', town: '75004 Paris', email: 'marie.dubois@dubois-conseil.fr' },
  ES: { name: 'Lucía García', first: 'Lucía', street: 'Calle de Alcalá 42', town: '28014 Madrid', email: 'lucia@garcia-asesores.es' },
  IT: { name: 'Marco Rossi', first: 'Marco', street: 'Via Roma 10', town: '00184 Roma', email: 'marco.rossi@studiorossi.it' },
  NL: { name: 'Sanne de Vries', first: 'Sanne', street: 'Kalverstraat 92', town: '1012 PH Amsterdam', email: 'sanne@devries-advies.nl' },
  BE: { name: 'Julie Lambert', first: 'Julie', street: 'Rue Neuve 1', town: '1000 Bruxelles', email: 'julie@lambert-avocats.be' },
  AT: { name: 'Katharina Huber', first: 'Katharina', street: 'Stephansplatz 1', town: '1010 Wien', email: 'k.huber@huber-partner.at' },
  CH: { name: 'Lukas Meier', first: 'Lukas', street: 'Bahnhofstrasse 21', town: '8001 Zürich', email: 'lukas.meier@meier-treuhand.ch' },
  PT: { name: 'Ana Silva', first: 'Ana', street: 'Rua Augusta 100', town: '1100-053 Lisboa', email: 'ana.silva@silva-consultores.pt' },
  PL: { name: 'Piotr Nowak', first: 'Piotra', street: 'ul. Marszałkowska 10', town: '00-590 Warszawa', email: 'p.nowak@nowak-biuro.pl' },
  SE: { name: 'Erik Johansson', first: 'Erik', street: 'Drottninggatan 5', town: '111 51 Stockholm', email: 'erik@johansson-bygg.se' },
  DK: { name: 'Mette Nielsen', first: 'Mette', street: 'Strøget 12', town: '1160 København K', email: 'mette@nielsen-raad.dk' },
  NO: { name: 'Ola Hansen', first: 'Ola', street: 'Karl Johans gate 7', town: '0154 Oslo', email: 'ola@hansen-regnskap.no' },
  FI: { name: 'Mikko Virtanen', first: 'Mikko', street: 'Mannerheimintie 10', town: '00100 Helsinki', email: 'mikko@virtanen-oy.fi' },
  AU: { name: 'Olivia Smith', first: 'Olivia', street: '12 George Street', town: 'Sydney NSW 2000', email: 'olivia@smithlegal.com.au' },
  NZ: { name: 'Aroha Williams', first: 'Aroha', street: '15 Queen Street', town: 'Auckland 1010', email: 'aroha@williams.co.nz' },
  IN: { name: 'Priya Sharma', first: 'Priya', street: '14 MG Road', town: 'Bengaluru 560001', email: 'priya@sharma-consulting.in' },
  BR: { name: 'João Souza', first: 'João', street: 'Av. Paulista, 1000', town: 'São Paulo - SP, 01310-100', email: 'joao@souza-advogados.com.br' },
  MX: { name: 'Alejandro Hernández', first: 'Alejandro', street: 'Av. Reforma 222', town: '06600 Ciudad de México, CDMX', email: 'alejandro@hernandez.com.mx' },
  JP: { name: '田中 太郎', first: '田中', street: '丸の内1-1-1', town: '〒100-0005 東京都千代田区', email: 'tanaka@tanaka-shoji.co.jp' },
  RU: { name: 'Иван Петров', first: 'Иван', street: 'ул. Тверская, д. 7', town: '125009 Москва', email: 'ivan@petrov-consult.ru' },
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

/** Within the region's number plan (the metadata's general pattern; the typings declare neither the plan nor its methods). */
function withinPlan(number: PhoneNumber): boolean {
  const plans = new Metadata() as unknown as {
    selectNumberingPlan(country: string | undefined, callingCode: string): void;
    numberingPlan: { nationalNumberPattern(): string };
  };
  plans.selectNumberingPlan(number.country, number.countryCallingCode);
  return new RegExp(`^(?:${plans.numberingPlan.nationalNumberPattern()})$`).test(number.nationalNumber);
}

/**
 * A number libphonenumber calls possible but not valid in the region, and valid in none of the phone regions as
 * written, and within the region's number plan: the example's first digit changed.
 */
function possibleOnly(region: CountryCode): PhoneNumber | undefined {
  const example = getExampleNumber(region, examples);
  if (example === undefined) return undefined;
  const national = example.nationalNumber;
  for (const digit of '0123456789') {
    const candidate = parsePhoneNumber(digit + national.slice(1), region);
    // Possible, not valid, and within the region's number plan (its general pattern): `001 555 0123` is the right
    // length for the US, but no NANP number starts with 0, so no one would write it as a phone number.
    if (candidate.isValid() || !candidate.isPossible() || !withinPlan(candidate)) continue;
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

/** Fills a passage's placeholders other than `{n}` with the region's person. */
function fill(template: string, region: CountryCode): string {
  const person = PEOPLE[region]!;
  return template.replace(/\{(name|first|street|town|email)\}/g, (_, key: keyof typeof person) => person[key]);
}

/**
 * Groups of the phone cases. The *realistic* ones are written as people of the number's region write (its language,
 * its labels, its addresses and e-mail domains) or read at home; the *hard* one puts a national number into an
 * English sentence with no label and nothing else to tell its region, read abroad.
 */
export const REALISTIC_GROUPS = [
  'international',
  'national, at home',
  'national, labelled',
  'national, passage: signature',
  'national, passage: short signature',
  'national, passage: message',
  'national, sentence in the local language',
] as const;
export const HARD_GROUPS = ['national, hard: English sentence, no cue'] as const;

function phoneCases(): DevCase[] {
  const cases: DevCase[] = [];
  let n = 0;
  const add = (group: string, region: string | null, placed: Placed, phoneRegion?: CountryCode): void => {
    cases.push({
      id: `phone-${++n}`,
      text: placed.text,
      region,
      facts: placed.fact === undefined ? [] : [placed.fact],
      group,
      ...(phoneRegion === undefined ? {} : { phoneRegion }),
      ...(group.includes('passage') ? { unscored: ['address' as const] } : {}),
    });
  };
  for (const region of PHONE_REGIONS) {
    const languageCode = LANGUAGE[region] ?? 'en';
    const language = SENTENCES[languageCode] ?? SENTENCES.en!;
    const passages = PASSAGES[languageCode] ?? PASSAGES.en!;
    const english = SENTENCES.en!;
    const numbers = validNumbers(region, 3);
    const other = otherHome(region) as CountryCode;
    numbers.forEach((number, index) => {
      const phone = { kind: 'phone' as const, normalized: number.number };
      const labelled = language.labelled[index % language.labelled.length]!;
      const plain = language.plain[index % language.plain.length]!;
      const englishPlain = english.plain[index % english.plain.length]!;
      nationalForms(number).forEach((form, formIndex) => {
        // Read with no home region (a C locale), and in another home region when the number is not valid there as
        // written: home comes first, so a number valid at home is the reader's own (312 345 6789 is Italian and
        // American alike).
        const abroad = (group: string, template: string): void => {
          add(group, null, place(template, form, phone), region);
          if (parsePhoneNumber(form, other)?.isValid() !== true) add(group, other, place(template, form, phone), region);
        };
        abroad('national, labelled', labelled);
        abroad('national, passage: signature', fill(passages.signature, region));
        abroad('national, passage: short signature', fill(passages.short, region));
        abroad('national, passage: message', fill(passages.message, region));
        if (languageCode !== 'en') abroad('national, sentence in the local language', plain);
        abroad('national, hard: English sentence, no cue', englishPlain);
        if (formIndex === 0) add('national, at home', region, place(plain, form, phone), region);
      });
      internationalForms(number).forEach((form, formIndex) => {
        add('international', formIndex === 0 ? null : other, place(formIndex === 0 ? labelled : englishPlain, form, phone), region);
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
