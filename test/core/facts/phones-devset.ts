/**
 * hippo's phone dev set for issue 28 (docs/extract.md §Measurements): realistic passages, written for this set, for
 * each class of phone false positive and missed form the issue names, with positives and near misses for each, over
 * 20 regions. Nothing in src knows these passages; they are written from how people write these values, not tuned to
 * the recogniser.
 *
 * Classes:
 * - `other-label`: a value labelled as another kind (SSN, tax id, account, order, invoice, ticket, reference, credit
 *   note, PO box, postcode/ZIP, customer number …) — the labelled value is no phone; near misses put a phone word
 *   between, or a number in its region's phone grouping or international form after such a word;
 * - `street`: digits that open a street line (`We moved to 4821 1930 Harbor Road`); near misses have a phone and a
 *   street on the same line or the next, apart;
 * - `glued`: identifiers with letters glued to the digits (`CN-2026-0142`, `PO#4471-2210`); near misses have a phone
 *   label glued to a phone (`Tel.030 …`, `Tel:+44 …`);
 * - `trunk`: international form with the trunk digit in brackets (`+41 (0)44 668 18 00`); near misses are a digit short;
 * - `idd`: international dialling prefixes instead of `+` (`0041 …`, `011 44 …`, `001-212-…`); near misses are not
 *   valid after the prefix;
 * - `extension`: extensions in every written form (`x204`, `ext. 12`, `#12`, `;ext=12`, `(415)555-0132x12`); near
 *   misses are extensions on a number that is not valid;
 * - `place`: labelled national numbers in a paragraph that names their region (a country, a domain); near misses name
 *   a region where the number is not valid, or none;
 * - `plain`: ordinary phone lines of each region, labelled and not, so no veto costs recall.
 */
export type PhoneClass = 'other-label' | 'street' | 'glued' | 'trunk' | 'idd' | 'extension' | 'place' | 'plain';

export const PHONE_CLASSES: readonly PhoneClass[] = ['other-label', 'street', 'glued', 'trunk', 'idd', 'extension', 'place', 'plain'];

export interface PhoneDevCase {
  id: string;
  cls: PhoneClass;
  /** Home region; null: none (a C locale). The candidate list is always the default one. */
  region: string | null;
  /** The region the passage is about (the phone's, or the value's), for the count of regions. */
  about: string;
  text: string;
  /** Gold phones: the text as written and its E.164 value (`;ext=N` with an extension). */
  phones: Array<{ value: string; normalized: string; start: number; end: number }>;
}

type Gold = readonly [value: string, normalized: string];

let counter = 0;

function make(cls: PhoneClass, about: string, region: string | null, text: string, ...gold: Gold[]): PhoneDevCase {
  let from = 0;
  const phones = gold.map(([value, normalized]) => {
    const start = text.indexOf(value, from);
    if (start < 0) throw new Error(`phones dev set: ${JSON.stringify(value)} is not in ${JSON.stringify(text)}`);
    from = start + value.length;
    return { value, normalized, start, end: start + value.length };
  });
  counter++;
  return { id: `${cls}-${counter}`, cls, region, about, text, phones };
}

function otherLabel(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('other-label', about, region, text, ...gold);
  return [
    // Values labelled as another kind: no phone.
    c('US', 'US', 'SSN: 078-05-1120'),
    c('US', null, 'His social security number is 078-05-1120 and he was born in Dayton.'),
    c('US', 'US', 'Please check the SSN 219-09-9999 on her W-2 before filing.'),
    c('US', 'US', 'EIN 12-3456789 (Harbor Supply LLC)'),
    c('US', null, 'Tax ID: 94-1234567, registered in Delaware.'),
    c('US', 'US', 'ZIP 94105-1234'),
    c('US', 'US', 'PO Box 4471 2210, Anchorage AK'),
    c('US', 'US', 'ZIP code 02139-4307'),
    c('US', null, '77 Massachusetts Ave, Cambridge, MA 02139-4307'),
    c('US', 'US', 'Mountain View, CA 94043-1351'),
    c('GB', 'GB', 'Account number: 4402 1188 6621, sort code 20-00-00.'),
    c('GB', 'GB', 'Invoice no. 2024 00017 is overdue by 14 days.'),
    c('GB', null, 'Ticket 2026-0142 was closed by the support desk on Friday.'),
    c('GB', 'GB', 'Reference: 4471 2210 889'),
    c('GB', null, 'Credit note 2026-0142 for £120 has been issued.'),
    c('DE', 'DE', 'Rechnungsnummer 2024 00017 vom 3. März'),
    c('DE', 'DE', 'Kundennummer: 4471 2210'),
    c('DE', 'DE', 'Steuernummer 143/815/08152'),
    c('DE', null, 'Bestellnummer 0301 234567, Lieferung am Montag.'),
    c('DE', 'DE', 'Postfach 10 11 22, 10115 Berlin'),
    c('AT', 'AT', 'Kontonummer 0012 3456 78, BLZ 12000'),
    c('CH', 'CH', 'Auftragsnummer 4471 2210 88'),
    c('FR', 'FR', 'Facture n° 2026-0142 du 3 mars'),
    c('FR', null, 'Référence : 4471 2210 89'),
    c('FR', 'FR', 'Numéro client 0471 221 055'),
    c('ES', 'ES', 'Pedido nº 4471 2210 55 enviado ayer.'),
    c('ES', null, 'Factura 2024-00017, importe 300 €.'),
    c('IT', 'IT', 'Codice cliente 0471 2210 55'),
    c('IT', null, 'Fattura n. 2024/00017 del 3 marzo'),
    c('NL', 'NL', 'Factuurnummer 2024 0001 7'),
    c('NL', null, 'Klantnummer: 0471 221 055'),
    c('SE', 'SE', 'Personnummer: 811218-9876'),
    c('SE', null, 'Fakturanummer 4471 2210, förfaller 30 dagar.'),
    c('DK', 'DK', 'Ordrenummer 4471 2210'),
    c('NO', null, 'Kundenummer 4471 2210'),
    c('FI', null, 'Laskun numero 4471 2210 88'),
    c('PL', 'PL', 'Numer zamówienia 4471 2210 55'),
    c('PT', null, 'Fatura n.º 2024 00017'),
    c('BR', 'BR', 'Pedido 4471-2210 enviado.'),
    c('AU', 'AU', 'Order number 4471 2210 shipped from Melbourne.'),
    c('IE', 'IE', 'Policy number 0471 2210 55'),
    // Near misses: a phone after such a word, written as a phone.
    c('GB', 'GB', 'Invoice queries: call 020 7946 0958.', ['020 7946 0958', '+442079460958']),
    c('DE', 'DE', 'Ihr Kundenbetreuer: Sarah Klein, Tel. 030 1234567', ['030 1234567', '+49301234567']),
    c('DE', null, 'Ticket 4471 – wenn es dringend ist: Handy 0171 2345678.', ['0171 2345678', '+491712345678']),
    c('GB', null, 'Reference contact: +44 20 7946 0958', ['+44 20 7946 0958', '+442079460958']),
    c('FR', 'FR', 'Client 12345, téléphone 06 12 34 56 78', ['06 12 34 56 78', '+33612345678']),
    c('US', 'US', 'SSN on file; mobile (415) 555-0132.', ['(415) 555-0132', '+14155550132']),
    c('US', 'US', 'Order line: (212) 555-0147', ['(212) 555-0147', '+12125550147']),
    c('CH', 'CH', 'Referenz: +41 44 668 18 00', ['+41 44 668 18 00', '+41446681800']),
    c('US', 'US', 'Account manager Dana Ruiz, 212-555-0147', ['212-555-0147', '+12125550147']),
    c('US', 'US', 'Cambridge, MA — call 617-555-0143', ['617-555-0143', '+16175550143']),
    c('DE', 'DE', 'Kundenkonto: 030 1234567', ['030 1234567', '+49301234567']),
  ];
}

function street(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('street', about, region, text, ...gold);
  return [
    c('US', 'US', 'We moved to 4821 1930 Harbor Road last spring.'),
    c('US', null, 'We moved to 4821 1930 Harbor Road last spring.'),
    c('US', 'US', 'Meet me at the shop at 88120 4471 Elm St Suite 12.'),
    c('ES', null, 'Meet me at the shop at 88120 4471 Elm St Suite 12.'),
    c('CA', 'CA', 'Nouveau bureau : 12503 2207 Rue Sainte-Catherine Ouest'),
    c('FR', null, 'Nouveau bureau : 12503 2207 Rue Sainte-Catherine Ouest'),
    c('PT', null, 'Morada: 1100 2207 Rua Augusta, Lisboa'),
    c('DE', 'DE', 'Lieferadresse: 2207 1930 Hauptstraße, Hinterhaus'),
    c('DE', null, 'Anlieferung über 4471 2210 Industriestraße'),
    c('IT', null, 'Il magazzino è al 4471 2210 Via Emilia Est.'),
    c('ES', null, 'Recogida en 28013 4471 Calle Mayor'),
    c('AU', 'AU', 'Unit 4, 2207 1930 Pacific Hwy, Sydney'),
    c('NL', null, 'Afleveradres: 4471 2210 Keizersgracht'),
    c('SE', null, 'Leverans till 4471 2210 Drottninggatan'),
    c('GB', 'GB', 'New depot: 4471 2210 Harbour Rd, Leith'),
    // Near misses: a phone beside a street, apart from it.
    c('DE', 'DE', 'Tel. 030 1234567\nHauptstraße 12, 10115 Berlin', ['030 1234567', '+49301234567']),
    c('GB', 'GB', 'Call 020 7946 0958 about the Harbour Road flat.', ['020 7946 0958', '+442079460958']),
    c('AU', 'AU', 'Phone: 0412 345 678, 18 George St, Sydney', ['0412 345 678', '+61412345678']),
    c('FR', 'FR', 'Tél. : 01 42 68 53 00 — 12 rue de Rivoli, Paris', ['01 42 68 53 00', '+33142685300']),
    c('US', 'US', 'Call (415) 555-0132 before you drive to 1200 Harbor Road.', ['(415) 555-0132', '+14155550132']),
    c('IT', 'IT', 'Tel. 02 1234 5678, Via Roma 10, Milano', ['02 1234 5678', '+390212345678']),
  ];
}

function glued(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('glued', about, region, text, ...gold);
  return [
    c('DK', 'US', 'Credit note CN-2026-0142 was sent with the refund.'),
    c('DK', 'DE', 'Gutschrift CN-2026-0142 anbei.'),
    c('DK', null, 'Credit note CN-2026-0142 was sent with the refund.'),
    c('DE', 'DE', 'Please pay INV-2024-00017 by Friday.'),
    c('DE', null, 'Please pay INV-2024-00017 by Friday.'),
    c('US', 'US', 'Ship against PO#4471-2210 only.'),
    c('US', 'US', 'Case SR-415-555-0132 is still open.'),
    c('GB', 'GB', 'Ref: AB/020 7946 0958 (our file)'),
    c('SE', null, 'Ärende JIRA-4471-2210 är löst.'),
    c('IE', 'IE', 'Order 1182-4471-22-IE dispatched.'),
    c('DE', 'DE', 'Seriennummer SN_0301234567'),
    c('FR', 'FR', 'Dossier FR-0612345678 clôturé.'),
    c('NL', 'NL', 'Zending NL-0201234567-B is onderweg.'),
    // Near misses: a phone label glued to a phone, a code and a phone apart.
    c('DE', 'DE', 'Tel.030 1234567', ['030 1234567', '+49301234567']),
    c('GB', null, 'Tel:+44 20 7946 0958', ['+44 20 7946 0958', '+442079460958']),
    c('GB', 'GB', 'CN: 020 7946 0958', ['020 7946 0958', '+442079460958']),
    c('US', 'US', 'INV-2024-00017 questions? Call 212-555-0147.', ['212-555-0147', '+12125550147']),
    c('FR', 'FR', 'Réf. AB-12 – tél. 06 12 34 56 78', ['06 12 34 56 78', '+33612345678']),
  ];
}

function trunk(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('trunk', about, region, text, ...gold);
  return [
    c('CH', null, 'Zentrale: +41 (0)44 668 18 00', ['+41 (0)44 668 18 00', '+41446681800']),
    c('CH', 'US', 'Our Zurich desk is on +41 (0)44 668 18 00 until six.', ['+41 (0)44 668 18 00', '+41446681800']),
    c('GB', null, 'Phone +44 (0)20 7946 0958', ['+44 (0)20 7946 0958', '+442079460958']),
    c('GB', 'DE', 'London office +44 (0)20 7946 0958, ext. 3', ['+44 (0)20 7946 0958, ext. 3', '+442079460958;ext=3']),
    c('SE', null, 'Växel: +46 (0)8 123 456 78', ['+46 (0)8 123 456 78', '+46812345678']),
    c('DE', 'FR', 'Tel. +49 (0)30 1234567', ['+49 (0)30 1234567', '+49301234567']),
    c('FR', null, 'Standard : +33 (0)1 42 68 53 00', ['+33 (0)1 42 68 53 00', '+33142685300']),
    c('NL', null, 'Bel ons op +31 (0)20 123 4567.', ['+31 (0)20 123 4567', '+31201234567']),
    c('AT', 'GB', 'Büro Wien: +43 (0)1 5134567', ['+43 (0)1 5134567', '+4315134567']),
    c('IE', 'US', 'Dublin: +353 (0)1 234 5678', ['+353 (0)1 234 5678', '+35312345678']),
    // Near misses: a digit short, or not a number of that country.
    c('GB', null, 'Phone +44 (0)20 7946 095'),
    c('CH', null, 'Zentrale: +41 (0)44 668 18'),
    c('SE', 'SE', 'Växel: +46 (0)8 12'),
  ];
}

function idd(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('idd', about, region, text, ...gold);
  return [
    c('CH', null, 'Zurich office: 0041 44 668 18 00', ['0041 44 668 18 00', '+41446681800']),
    c('CH', 'US', 'Zurich office: 0041 44 668 18 00', ['0041 44 668 18 00', '+41446681800']),
    c('CH', 'GB', 'Zurich office: 0041 44 668 18 00', ['0041 44 668 18 00', '+41446681800']),
    c('GB', 'US', 'From the US dial 011 44 20 7946 0958.', ['011 44 20 7946 0958', '+442079460958']),
    c('GB', null, 'From the US dial 011 44 20 7946 0958.', ['011 44 20 7946 0958', '+442079460958']),
    c('GB', 'CA', 'Toronto callers: 011 44 20 7946 0958', ['011 44 20 7946 0958', '+442079460958']),
    c('US', 'DE', 'New York: 001-212-555-0147', ['001-212-555-0147', '+12125550147']),
    c('US', null, 'New York: 001-212-555-0147', ['001-212-555-0147', '+12125550147']),
    c('US', 'FR', 'Appelez le 001 212 555 0147 à New York.', ['001 212 555 0147', '+12125550147']),
    c('DE', 'US', 'Berlin: 0049 30 1234567', ['0049 30 1234567', '+49301234567']),
    c('FR', null, 'Paris : 0033 1 42 68 53 00', ['0033 1 42 68 53 00', '+33142685300']),
    c('ES', 'US', 'Madrid office 0034 912 345 678', ['0034 912 345 678', '+34912345678']),
    c('IT', null, 'Milano: 0039 02 1234 5678', ['0039 02 1234 5678', '+390212345678']),
    c('AU', 'US', 'Sydney desk 011 61 2 9876 5432', ['011 61 2 9876 5432', '+61298765432']),
    // Near misses: nothing valid after the prefix.
    c('CH', null, 'Zurich office: 0041 44 668'),
    c('GB', 'US', 'Dial 011 44 before the number.'),
    c('US', null, 'Code 001-212-555 on the form.'),
    c('DE', null, 'Order 0049 2024 0001 7'),
  ];
}

function extension(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('extension', about, region, text, ...gold);
  return [
    c('US', 'US', 'Desk: (415) 555-0132 x204', ['(415) 555-0132 x204', '+14155550132;ext=204']),
    c('US', 'US', 'Call (415)555-0132x12 today.', ['(415)555-0132x12', '+14155550132;ext=12']),
    c('US', null, 'Call (415)555-0132x12 today.', ['(415)555-0132x12', '+14155550132;ext=12']),
    c('US', 'US', 'Support: 415-555-0132 ext. 12', ['415-555-0132 ext. 12', '+14155550132;ext=12']),
    c('US', 'US', 'Support: 415-555-0132 #12', ['415-555-0132 #12', '+14155550132;ext=12']),
    c('US', 'US', 'Support: 415-555-0132;ext=12', ['415-555-0132;ext=12', '+14155550132;ext=12']),
    c('US', 'DE', 'Support: 415-555-0132;ext=12'),
    c('US', null, 'Reach me at +1 415 555 0132 ext. 12', ['+1 415 555 0132 ext. 12', '+14155550132;ext=12']),
    c('US', null, 'tel:+1-415-555-0132;ext=12', ['+1-415-555-0132;ext=12', '+14155550132;ext=12']),
    c('GB', null, 'Tel. +44 20 7946 0958 ext 3', ['+44 20 7946 0958 ext 3', '+442079460958;ext=3']),
    c('GB', 'GB', 'Reception 020 7946 0958 ext. 214', ['020 7946 0958 ext. 214', '+442079460958;ext=214']),
    c('DE', 'DE', 'Zentrale 030 1234567, Durchwahl 12', ['030 1234567', '+49301234567']),
    c('CA', 'CA', 'Phone: 416-555-0199 x7', ['416-555-0199 x7', '+14165550199;ext=7']),
    // Near misses: an extension on a number that is not valid.
    c('US', 'US', 'Desk: (415) 555-013 x204'),
    c('US', 'US', 'Room 4471 x12'),
    c('US', 'US', 'Support: 415-555-01;ext=12'),
  ];
}

function place(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('place', about, region, text, ...gold);
  return [
    c('GB', null, 'Our office in the United Kingdom. Phone: 020 7946 0958', ['020 7946 0958', '+442079460958']),
    c('GB', null, 'Phone: 020 7946 0958 · info@harbour-lettings.co.uk', ['020 7946 0958', '+442079460958']),
    c('CH', null, 'Niederlassung Schweiz\nTelefon: 044 668 18 00', ['044 668 18 00', '+41446681800']),
    c('IE', null, 'Tel: 01 234 5678 — reception@example.ie', ['01 234 5678', '+35312345678']),
    c('AU', null, 'Phone: (02) 9876 5432 — Sydney, Australia', ['(02) 9876 5432', '+61298765432']),
    c('SE', null, 'Telefon: 08 123 456 78, Stockholm, Sverige', ['08 123 456 78', '+46812345678']),
    c('NZ', null, 'Phone: 09 302 1234 (Auckland, New Zealand)', ['09 302 1234', '+6493021234']),
    c('IT', null, 'Sede in Italia — Tel. 02 1234 5678', ['02 1234 5678', '+390212345678']),
    c('NL', null, 'Telefoon: 020 123 4567 · www.voorbeeld.nl', ['020 123 4567', '+31201234567']),
    c('BE', null, 'Tél. : 02 511 23 45 (Bruxelles, Belgique)', ['02 511 23 45', '+3225112345']),
    c('DK', null, 'Telefon: 32 12 34 56 · kontakt@firma.dk', ['32 12 34 56', '+4532123456']),
    c('NO', null, 'Telefon: 22 12 34 56 · post@firma.no', ['22 12 34 56', '+4722123456']),
    // Near misses: the region named is not the number's, or no region is named.
    c('GB', null, 'Phone: 020 7946 0958', ['020 7946 0958', '+442079460958']),
    c('DK', null, 'Telefon: 40 61 23 45', ['40 61 23 45', '+4540612345']),
    c('FR', null, 'Bureau en France. Phone: 020 7946 09'),
  ];
}

function plain(): PhoneDevCase[] {
  const c = (about: string, region: string | null, text: string, ...gold: Gold[]) => make('plain', about, region, text, ...gold);
  return [
    c('US', 'US', 'Call me at (415) 555-0132 after lunch.', ['(415) 555-0132', '+14155550132']),
    c('GB', 'GB', 'Mobile: 07911 123456', ['07911 123456', '+447911123456']),
    c('IE', 'IE', 'Ring the front desk on 01 234 5678.', ['01 234 5678', '+35312345678']),
    c('DE', 'DE', 'Telefon: 089 12345678', ['089 12345678', '+498912345678']),
    c('DE', null, 'Mit freundlichen Grüßen\nJonas Weber\nTel.: 030 1234567\nj.weber@weber-bau.de', ['030 1234567', '+49301234567']),
    c('FR', 'FR', 'Portable : 06 12 34 56 78', ['06 12 34 56 78', '+33612345678']),
    c('ES', 'ES', 'Móvil: 612 345 678', ['612 345 678', '+34612345678']),
    c('IT', 'IT', 'Cellulare 312 345 6789', ['312 345 6789', '+393123456789']),
    c('NL', 'NL', 'Mobiel: 06 12345678', ['06 12345678', '+31612345678']),
    c('CH', 'CH', 'Telefon 079 123 45 67', ['079 123 45 67', '+41791234567']),
    c('AT', 'AT', 'Handy: 0664 1234567', ['0664 1234567', '+436641234567']),
    c('SE', 'SE', 'Mobil: 070 123 45 67', ['070 123 45 67', '+46701234567']),
    c('PT', 'PT', 'Telemóvel: 912 345 678', ['912 345 678', '+351912345678']),
    c('BR', 'BR', 'Celular: (21) 98765-4321', ['(21) 98765-4321', '+5521987654321']),
    c('AU', 'AU', 'Call 0412 345 678 any time.', ['0412 345 678', '+61412345678']),
    c('PL', 'PL', 'Tel. kom. 512 345 678', ['512 345 678', '+48512345678']),
    c('JP', 'JP', '電話：03-1234-5678', ['03-1234-5678', '+81312345678']),
    c('BE', 'BE', 'Tél. 02 511 23 45', ['02 511 23 45', '+3225112345']),
    c('DK', 'DK', 'Tlf. 32 12 34 56', ['32 12 34 56', '+4532123456']),
    c('NO', 'NO', 'Mobil: 412 34 567', ['412 34 567', '+4741234567']),
    c('FI', 'FI', 'Puh. 040 123 4567', ['040 123 4567', '+358401234567']),
    c('CA', 'CA', 'Phone: 416-555-0199', ['416-555-0199', '+14165550199']),
    c('US', null, 'Office +1 212 555 0147, fax +1 212 555 0148', ['+1 212 555 0147', '+12125550147'], ['+1 212 555 0148', '+12125550148']),
  ];
}

/** The phone dev set: every class, positives and near misses. */
export function buildPhonesDevSet(): PhoneDevCase[] {
  counter = 0;
  return [...otherLabel(), ...street(), ...glued(), ...trunk(), ...idd(), ...extension(), ...place(), ...plain()];
}
