// The best simple alternative to `hippo extract --all`: the same libraries called directly on the whole text with the
// same options hippo gives them, for the same kinds (issue 14: the same work, not less and not more):
// - phone: libphonenumber-js (max metadata) over the text in the home region, valid numbers kept; then each run of
//   digits with separators that the home pass did not take, 6–12 digits and not a date, an IP or a version, read in
//   every candidate region hippo tries (its default list), as hippo reads such runs abroad;
// - date: chrono's English strict configuration with only the full-date parsers, day first outside month-first regions;
// - url: linkify-it without fuzzy links, e-mails or IPs, with hippo's extra schemes, plus its fuzzy search on `www.` tokens;
// - ip: IPv4 and IPv6 (with a zone or a CIDR prefix) by simple regexes, validated by ipaddr.js;
// - email (tldts), iban (ibantools), card (card-validator): a simple regex and the library's check each;
// - address: hippo's postcode patterns (Eircode, UK, US ZIP after a state, continental code and town) validated by
//   postcode-validator; the street before a postcode is hippo's own work and is not counted here.
// All matches are printed as one JSON document. Usage: node extract-baseline.mjs FILE REGION — bench/extract.ts
// transpiles this file to plain JavaScript first (bench/.data/extract-baseline.mjs), so the baseline pays no
// TypeScript loader at startup.
import cardValidator from 'card-validator';
import * as chrono from 'chrono-node/en';
import { readFileSync } from 'node:fs';
import { isValidIBAN } from 'ibantools';
import ipaddr from 'ipaddr.js';
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max';
import { LinkifyIt } from 'linkify-it';
import { postcodeValidator } from 'postcode-validator';
import { parse as parseDomain } from 'tldts';

const [path, region] = process.argv.slice(2) as [string, CountryCode];
const text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
const found: { kind: string; start: number; end: number; value: string }[] = [];
const add = (kind: string, start: number, value: string) => found.push({ kind, start, end: start + value.length, value });

for (const match of text.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)) {
  if (parseDomain(match[0].split('@')[1]!).isIcann) add('email', match.index, match[0]);
}
const homePhones: { start: number; end: number }[] = [];
for (const hit of findPhoneNumbersInText(text, { defaultCountry: region })) {
  if (!hit.number.isValid()) continue;
  add('phone', hit.startsAt, text.slice(hit.startsAt, hit.endsAt));
  homePhones.push({ start: hit.startsAt, end: hit.endsAt });
}
// hippo's default candidate regions (src/core/facts/region.ts), the home region left out. A copy on purpose: the
// baseline must not load hippo (its startup and memory would count against the libraries); a test keeps them equal.
const CANDIDATES = [
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
  'CA',
  'AU',
  'NZ',
  'IN',
  'BR',
  'MX',
  'AR',
  'JP',
  'CN',
  'KR',
  'RU',
  'TR',
  'ZA',
].filter((code) => code !== region) as CountryCode[];
let taken = 0;
for (const match of text.matchAll(/(?<![\p{L}\p{N}_])\(?\d(?:[ ()./-]{0,3}\d)*/gu)) {
  const [run] = match;
  while (taken < homePhones.length && homePhones[taken]!.end <= match.index) taken++;
  if (taken < homePhones.length && homePhones[taken]!.start < match.index + run.length) continue;
  const digits = run.replace(/\D/g, '').length;
  if (digits < 6 || digits > 12 || /^\d+$/.test(run) || /^[\d.]+$/.test(run) || /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/.test(run)) continue;
  for (const code of CANDIDATES) {
    const hit = findPhoneNumbersInText(run, { defaultCountry: code }).find((found) => found.number.isValid());
    if (hit !== undefined) {
      add('phone', match.index + hit.startsAt, run.slice(hit.startsAt, hit.endsAt));
      break;
    }
  }
}
for (const match of text.matchAll(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g)) {
  if (isValidIBAN(match[0].replaceAll(' ', ''))) add('iban', match.index, match[0]);
}
for (const match of text.matchAll(/\b\d{4}(?:[ -]?\d{4}){2,3}(?:[ -]?\d{1,3})?\b/g)) {
  if (cardValidator.number(match[0]).isValid) add('card', match.index, match[0]);
}
const linkifyWith = (fuzzyLink: boolean) => {
  const linkify = new LinkifyIt({ fuzzyLink, fuzzyEmail: false, fuzzyIP: false, urlAuth: true });
  linkify.add('//', null).add('mailto:', null);
  const likeHttp = { validate: (value: string, pos: number, self: LinkifyIt) => self.testSchemaAt(value, 'http:', pos) };
  for (const scheme of ['ftps:', 'sftp:', 'ssh:', 'git:', 'ws:', 'wss:']) linkify.add(scheme, likeHttp);
  return linkify;
};
for (const hit of linkifyWith(false).match(text) ?? []) add('url', hit.index, hit.raw);
const fuzzy = linkifyWith(true);
for (const www of text.matchAll(/(?<![\w.:/@-])www\./gi)) {
  const token = text.slice(www.index).split(/\s/, 1)[0]!;
  const hit = fuzzy.match(token)?.[0];
  if (hit?.index === 0) add('url', www.index, hit.raw);
}
for (const match of text.matchAll(/\b(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?\b/g)) {
  if (ipaddr.IPv4.isValidFourPartDecimal(match[0].split('/')[0]!)) add('ip', match.index, match[0]);
}
for (const match of text.matchAll(/(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?:%\w+)?(?:\/\d{1,3})?/gi)) {
  if (ipaddr.IPv6.isValid(match[0].split('/')[0]!)) add('ip', match.index, match[0]);
}
// hippo's date recogniser's configuration (src/core/facts/recognisers/date.ts): strict, day first outside month-first regions.
const FULL_DATE_PARSERS =
  /^(ISOFormatParser|ENYearMonthDayParser|SlashDateFormatParser|ENMonthNameLittleEndianParser|ENMonthNameMiddleEndianParser|ENYearMonthNameParser)$/;
const configuration = chrono.configuration.createConfiguration(true, !['US', 'CA', 'PH'].includes(region));
configuration.parsers = configuration.parsers.filter((parser) => FULL_DATE_PARSERS.test(parser.constructor.name));
configuration.refiners = configuration.refiners.filter((refiner) => !/MergeDateRange|ExtractTimezone/.test(refiner.constructor.name));
for (const result of new chrono.Chrono(configuration).parse(text, new Date(Date.UTC(2000, 0, 1)))) add('date', result.index, result.text);

// hippo's postcode patterns (src/core/facts/recognisers/address.ts), each candidate checked by postcode-validator.
const US_STATES =
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP';
const TOWN_WORD = "\\p{Lu}\\p{Ll}[\\p{L}\\p{M}'’.]*(?:-[\\p{L}\\p{M}'’.]+)*";
const TOWN = `${TOWN_WORD}(?:[ ](?:(?:am|an|der|im|bei|ob|sur|sous|en|de|la|le|les|del|di|aan|den|op|\\(|\\))[ ])?${TOWN_WORD}){0,3}`;
const PREFIX = '(?:(D|DE|F|FR|NL|B|BE|A|AT|CH|E|ES|I|IT)-)?';
const CONTINENTAL = ['DE', 'FR', 'NL', 'BE', 'AT', 'CH', 'ES', 'IT'];
const postcodes: [RegExp, (match: RegExpExecArray) => boolean][] = [
  [/(?<![\p{L}\p{N}])(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}(?![\p{L}\p{N}])/gu, (match) => postcodeValidator(match[0], 'IE')],
  [/(?<![\p{L}\p{N}])[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}(?![\p{L}\p{N}])/gu, (match) => postcodeValidator(match[0], 'GB')],
  [
    new RegExp(`(?<![\\p{L}\\p{N}])(?:${US_STATES.split(' ').join('|')}),? (\\d{5}(?:-\\d{4})?)(?![\\p{L}\\p{N}-])`, 'gu'),
    (match) => postcodeValidator(match[1]!, 'US'),
  ],
  [
    new RegExp(`(?<![\\p{L}\\p{N}-])${PREFIX}(\\d{4} ?[A-Z]{2}|\\d{2} ?\\d{3}|\\d{4,5})[ ]+(${TOWN})`, 'gu'),
    (match) => CONTINENTAL.filter((country) => postcodeValidator(match[2]!, country)).length > 0,
  ],
  [
    new RegExp(`(?<![\\p{L}\\p{N}])(${TOWN})[ ]+${PREFIX}(\\d{4,5})(?![\\p{L}\\p{N}])`, 'gu'),
    (match) => CONTINENTAL.filter((country) => postcodeValidator(match[3]!, country)).length > 0,
  ],
];
for (const [pattern, valid] of postcodes) for (const match of text.matchAll(pattern)) if (valid(match)) add('address', match.index, match[0]);

process.stdout.write(`${JSON.stringify({ facts: found })}\n`);
