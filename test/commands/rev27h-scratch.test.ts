/**
 * Issue 27 review (rev27h): a hostile reviewer's variations on efbed83 — a card or phone number read across two values
 * is dropped only when the other finds kept cover every digit of it; a phone number before `.12`; a number spelled
 * digit by digit after a word for a number; comma and semicolon lists of four-digit figures ordinary only when they
 * count — through the real parts: the built CLI, a store, and a stand-in model server on 127.0.0.1 played as a hosted
 * model at a non-loopback base URL (`models.hosted.test`), so the default policy (`auto`) redacts, with the home region
 * in HIPPO_REGION and the default candidate regions, as the CLI has them.
 *
 * The counts in the comments come from texts generated in the library first (`new Redactor({kinds:
 * DEFAULT_REDACT_KINDS, region, regions: DEFAULT_REGIONS})`, regions IE GB US DE FR ES IT NL, seeded; a leak is no stop
 * and 8 consecutive digits of the value, or all of a shorter one, in what is sent), against this commit ("head") and
 * its parent 7e3729e ("main"). HELD: replaced or stopped now. OPEN: a validated value still sent (`it.fails`: the suite
 * stays green while open; a fix makes the case pass and the test fail — then move it to HELD). OVER: ordinary text
 * replaced or stopped (`it.fails` likewise).
 */
import { reviewCases, type Part } from '../helpers/hosted-model.js';

const CARD = '4111111111111111'; // Visa test number, Luhn-valid

// HELD: replaced or stopped, never sent.
const HELD: ReadonlyArray<readonly [string, string, Part]> = [
  // Issue 27 defect 1, its three reproductions (also `extract card --json` finds the card in each, re-run by hand).
  ['defect 1: IE IBAN then card', 'Refund IE29 AIBK 9311 5212 3456 78 4111 1111 1111 1111 today.', { digits: CARD }],
  ['defect 1: DE IBAN then card (DE)', 'DE89 3704 0044 0532 0130 00 4111 1111 1111 1111', { digits: '41111111', region: 'DE' }],
  ['defect 1: GB IBAN then card (GB)', 'UK: GB82 WEST 1234 5698 7654 32 5555 5555 5555 4444.', { digits: '55555555', region: 'GB' }],
  // An IBAN, a sign, a card (1 of 1 600 generated texts sent now, 8 on main: this one among them; 82 stop).
  ['IBAN, a semicolon, card (FR)', 'GB81 WEST 5301 7578 0142 08; 6011 8717 0912 8415', { digits: '871709128415', region: 'FR' }],
  ['IBAN, a dot, card and expiry (IT)', 'IE84-BOFI-3863-6326-7590-02. 4913 6180 1606 0375 09/27 123', { digits: '491361801606', region: 'IT' }],
  // A phone number, a sign, a card (0 of 1 600 sent now, 40 on main).
  ['DE: phone number, a bar, card', 'Tel 030 9111749 | 5326 0082 8104 1243.', { digits: '008281041243', region: 'DE' }],
  ['IT: phone number, dotted card and expiry', 'Tel 06-8184-1474  2335.7066.6219.3675 09/27 123', { digits: '233570666219', region: 'IT' }],
  // A card then a phone number (1 of 1 600 sent now, 5 on main); two cards (0 of 1 600 now, 5 on main).
  ['FR: card, a slash, phone number', 'Card 5154 5931 0547 3505 / 02 60 77 93 34 2027', { digits: '51545931', region: 'FR' }],
  ['IE: two dotted cards', 'Cards 5581.2567.9165.4506 4111.1111.1111.1111', { digits: CARD }],
  // Spelled digit by digit after a word for a number the rule knows (0 of 600 sent now, 473 on main).
  ['US: "his number was" and dashed digits', 'his number was 4 1 5 - 5 5 5 - 2 6 7 1', { digits: '4155552671', region: 'US' }],
  ['ES: "mi número es"', 'mi número es 6 1 2 3 4 5 6 7 8', { digits: '612345678', region: 'ES' }],
  // A phone number written with dots before two decimal digits (main sent these).
  ['DE: phone number then .12', 'Tel 030 12345678.12 ok', { digits: '3012345678', region: 'DE' }],
  ['FR: dotted phone number then .12', 'Tel 06.12.34.56.78.12 ok', { digits: '612345678', region: 'FR' }],
];

reviewCases('rev27h HELD: attacks on efbed83 that hold', 'held', HELD, 900);

// Sent when this review was written; replaced since (the lead's fix after it): single digits are ordinary only when
// they count, whatever word is before them; a find is "written as a number" only when a sign used more than once has
// three digits after each use (`4111.1111.1111.1111` and `087.123.4567` are not); a group glued to a letter parts a run
// of the digit skeleton instead of leaving the whole run out. Each assertion fails on the value's digits reaching the
// stand-in.
const WAS_OPEN: ReadonlyArray<readonly [string, string, Part]> = [
  // A number spelled digit by digit after a word for a number the new rule does not list (`numero è`, `number's`,
  // `#`, `móvil`): ordinary as "single digits" (383 of 600 generated US/ES/IT texts; 409 on main).
  ['IT: "il mio numero è" and single digits', 'il mio numero è 3 4 7 1 2 3 4 5 6 7', { digits: '3471234567', region: 'IT' }],
  ['US: "my number\'s" and single digits', "my number's 4 1 5 5 5 5 2 6 7 1", { digits: '4155552671', region: 'US' }],
  ['ES: "mi móvil es" and single digits', 'mi móvil es 6 1 2 3 4 5 6 7 8', { digits: '612345678', region: 'ES' }],
  // A card or phone number written with dots as a field of a comma row: "glued on both sides by a bare `,`" makes it the
  // middle of a larger number, card word or not (cards 272 of 400, phone numbers 388 of 400 generated rows; the same on
  // main: rev27g's fix covered only finds without a `.` or `,` inside).
  ['dotted card as a comma field after a card word', 'Karte 48,4111.1111.1111.1111,12.50', { digits: CARD }],
  ['dotted card in a CSV row', '42,5555.5555.5555.4444,2027', { digits: '5555555555554444' }],
  ['IE: dotted phone number as a comma field', 'Tel 12,087.123.4567,34', { digits: '871234567' }],
  ['US: dotted phone number as a comma field', '55,212.950.7814,86', { digits: '2129507814', region: 'US' }],
  // A code glued to letters before the value in the same run (`AB12 `, a flight, an Eircode routing key): the whole run
  // is an "identifier" to the skeleton and the grouped reading, and the recognisers read the run as one number: the
  // value goes out whole (phone numbers 31 of 800, cards 125 of 800 generated texts; the same on main; a word without
  // digits before it: 0 of 800).
  ['IE: order code then a phone number', 'Order AB12 087 123 4567 ok', { digits: '871234567' }],
  ['GB: train code then a London number', 'Order ICE123 020 7453 5192 ok', { digits: '2074535192', region: 'GB' }],
  ['flight number then a card in groups of 3-4-4-5', 'Flight EI123 411 1111 1111 11111 ok', { digits: CARD }],
  ['code then a card parted by middle dots', 'Card ICE123 4242·4242·4242·4242.', { digits: '4242424242424242' }],
];

reviewCases('rev27h WAS_OPEN: values once sent, now kept from a hosted model', 'held', WAS_OPEN, 1000);

// Sent when this review was written (exit 0, their digits in the request); held since by the fourth reading (a card or
// IBAN read wherever it stands in the text as written, with a digit sent under no placeholder, stops the request) and
// by the blank before a number written with a sign after its area code read as a seam. Each assertion fails on the
// value's digits reaching the stand-in.
const OPEN_THEN: ReadonlyArray<readonly [string, string, Part]> = [
  // An IBAN glued to letters in the run makes it an identifier: a dotted card after it with an expiry is cut by a DE
  // phone reading of its last group and the expiry, and its first 12 digits go out (1 of 1 600; the same on main).
  // Held by f29ab92 (a group glued to a letter parted the run) and open again since rev27i's fix: a run inside an
  // IBAN's tokens is left out whole, so an IBAN the IBAN recogniser cannot take still stops the request.
  [
    'DE: FR IBAN, a dot, dotted card and expiry',
    'Refund FR76-1905-1823-2966-0860-2949-839. 6011.3148.4301.8366 09/27 123',
    { digits: '601131484301', region: 'DE' },
  ],
  // An IBAN glued to a card, no sign between: the card (with the IBAN's last group) is replaced and the IBAN's first
  // groups go out, which no longer validate (20 of 400 generated texts; the same on main; 373 stop).
  ['NL IBAN glued to a card', 'IBAN NL74 RABO 9374 1516 674111-1111-1111-1111 ok', { digits: '93741516' }],
  // DE: a phone number, then one with a dot after its area code: a longer DE reading takes the first and the area code
  // of the second, whose last 8 digits go out (the second is not read there; the same on main).
  ['DE: two phone numbers, the second dotted', 'Tel 0893647976 089.31829741 ok', { digits: '31829741', region: 'DE' }],
  // The one text of 24 000 generated (17 shapes of cards, phone numbers, IBANs and ordinary figures side by side, every
  // separator) that main stopped and this commit sends: a DE phone number glued to a card; a chance card over the phone
  // number and the card's first groups is kept, and the card's last 8 digits go out (main: exit 9). Other values glued
  // digit to digit to a neighbour: 52 cards and 171 phone numbers sent, on main as on this commit.
  ['DE: phone number glued to a card (main stopped)', 'Tel 089 649229355503 5362 7231 9694 12.50', { digits: '72319694', region: 'DE' }],
];

reviewCases('rev27h OPEN_THEN: values sent when reviewed, now kept from a hosted model', 'held', OPEN_THEN, 930);

// OVER: ordinary text replaced (a placeholder over figures) or stopped (exit 9). Counts: of 400 generated texts per
// shape, regions rotated, head vs main.
const OVER: ReadonlyArray<readonly [string, string, string, string]> = [
  // New with efbed83: comma and semicolon rows of seven random four-digit figures get a card placeholder (comma 62 vs 1
  // on main, comma and blank 60 vs 3; semicolon 62 replaced + 18 stopped vs 80 stopped).
  ['comma row of four-digit figures (card)', 'Sales 8915,5292,8755,6840,6491,1351,1030 by month.', '8915,5292,8755,6840,6491,1351,1030', 'US'],
  ['comma and blank row (card)', 'Sales 5818, 4255, 4064, 3846, 9028, 3356, 1906 by month.', '5818, 4255, 4064, 3846, 9028, 3356, 1906', 'GB'],
  // Unchanged by efbed83 (same count on main): a time's seconds and two figures read as a phone number (294 of 400);
  // year ranges (191); a build number (163); times read as an Austrian IBAN with `At` (1 of 400).
  ['log line: time, then two figures (phone)', 'Log 2025-09-08 04:08:43 438 4886', '04:08:43 438 4886', 'IE'],
  ['year ranges (phone)', 'Years 2011-2017, 1963-1971, 1951-1959, 1981-1983', '2011-2017, 1963-1971', 'ES'],
  ['version and build (phone)', 'v9.18.47 build 5083 2864', 'build 5083 2864', 'IE'],
  ['"At" and times (an IBAN)', 'At 2:52 17:43 23:55 3:55 23:12 daily.', 'At 2:52 17:43 23:55 3:55 23:12', 'NL'],
];

reviewCases('rev27h OVER: ordinary text replaced or stopped', 'over', OVER, 960);
