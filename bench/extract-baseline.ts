// The best simple alternative to `hippo extract --all`: the same libraries called directly on the whole text with the
// same options hippo gives them (issue 14: the same work, not more — chrono's English strict configuration with only
// the full-date parsers, linkify-it without fuzzy links, e-mails or IPs, libphonenumber's max metadata in the home
// region), each with the plainest validator a script would write, all matches printed as one JSON document.
// Usage: node extract-baseline.mjs FILE REGION — bench/extract.ts transpiles this file to plain JavaScript first
// (bench/.data/extract-baseline.mjs), so the baseline pays no TypeScript loader at startup.
import cardValidator from 'card-validator';
import * as chrono from 'chrono-node/en';
import { readFileSync } from 'node:fs';
import { isValidIBAN } from 'ibantools';
import ipaddr from 'ipaddr.js';
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max';
import { LinkifyIt } from 'linkify-it';
import { parse as parseDomain } from 'tldts';

const [path, region] = process.argv.slice(2) as [string, CountryCode];
const text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
const found: { kind: string; start: number; end: number; value: string }[] = [];
const add = (kind: string, start: number, value: string) => found.push({ kind, start, end: start + value.length, value });

for (const match of text.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)) {
  if (parseDomain(match[0].split('@')[1]!).isIcann) add('email', match.index, match[0]);
}
for (const hit of findPhoneNumbersInText(text, { defaultCountry: region })) {
  if (hit.number.isValid()) add('phone', hit.startsAt, text.slice(hit.startsAt, hit.endsAt));
}
for (const match of text.matchAll(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g)) {
  if (isValidIBAN(match[0].replaceAll(' ', ''))) add('iban', match.index, match[0]);
}
for (const match of text.matchAll(/\b\d{4}(?:[ -]?\d{4}){2,3}(?:[ -]?\d{1,3})?\b/g)) {
  if (cardValidator.number(match[0]).isValid) add('card', match.index, match[0]);
}
const linkify = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false, urlAuth: true });
linkify.add('//', null).add('mailto:', null);
for (const hit of linkify.match(text) ?? []) add('url', hit.index, hit.raw);
for (const match of text.matchAll(/\b(?:\d{1,3}\.){3}\d{1,3}\b|\b[0-9a-f]*:[0-9a-f:]+\b/gi)) {
  if (ipaddr.isValid(match[0])) add('ip', match.index, match[0]);
}
// hippo's date recogniser's configuration (src/core/facts/recognisers/date.ts): strict, day first outside month-first regions.
const FULL_DATE_PARSERS =
  /^(ISOFormatParser|ENYearMonthDayParser|SlashDateFormatParser|ENMonthNameLittleEndianParser|ENMonthNameMiddleEndianParser|ENYearMonthNameParser)$/;
const configuration = chrono.configuration.createConfiguration(true, !['US', 'CA', 'PH'].includes(region));
configuration.parsers = configuration.parsers.filter((parser) => FULL_DATE_PARSERS.test(parser.constructor.name));
configuration.refiners = configuration.refiners.filter((refiner) => !/MergeDateRange|ExtractTimezone/.test(refiner.constructor.name));
for (const result of new chrono.Chrono(configuration).parse(text, new Date(Date.UTC(2000, 0, 1)))) add('date', result.index, result.text);

process.stdout.write(`${JSON.stringify({ facts: found })}\n`);
