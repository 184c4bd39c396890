/**
 * Issue 27 review (rev27i): a hostile reviewer's variations on f29ab92 — single digits ordinary only when they count; a
 * sign used twice inside a find makes it a number only as a thousands sign; a group glued to a letter parts a skeleton
 * run instead of leaving the whole run out — through the real parts: the built CLI, a store, and a stand-in model
 * server on 127.0.0.1 played as a hosted model at a non-loopback base URL (`models.hosted.test`), so the default policy
 * (`auto`) redacts, with the home region in HIPPO_REGION and the default candidate regions, as the CLI has them.
 *
 * The counts in the comments come from texts generated in the library first (`new Redactor({kinds:
 * DEFAULT_REDACT_KINDS, region, regions: DEFAULT_REGIONS})`, regions IE GB US DE FR ES IT NL, seeded; a leak is no stop
 * and 8 consecutive digits of the value, or all of a shorter one, in what is sent), against this commit ("head"), its
 * parent e18467d ("parent") and 7e3729e ("main"). Every value it found sent is held now (WAS_OPEN).
 */
import { reviewCases, type Part } from '../helpers/hosted-model.js';

// Sent when this review was written (new with f29ab92: parent and main stopped every one, exit 9); held since the lead's
// fix after it. Every IBAN has a group glued to a letter (`IT45`, `X944`, `DE48`); f29ab92 let the skeleton read the
// groups after it, and a chance card or phone number read across an IBAN the IBAN recogniser cannot take (glued to a
// card, a letter, a figure or a word) cut what the second reading would find: an IBAN glued to a card 17 of 400
// generated texts, glued to a letter or word 1 of 560 each, to a figure 4 of 560. Now a run inside an IBAN's tokens (a
// glued group of it, or the tokens right before it, opens an IBAN: a country with IBANs and two digits) is left out
// whole, as before. And a word for a number keeps single digits that count a number spelled out again (`mi número es
// 9 8 7 6 5 4 3 2 1`). Each assertion fails on the value's digits reaching the stand-in.
const WAS_OPEN: ReadonlyArray<readonly [string, string, Part]> = [
  ['US: IT IBAN glued to a card', 'IBAN IT45 X944 0735 4469 3387 2594 3244242 4242 4242 4242 ok', { digits: '424242424242', region: 'US' }],
  ['NL: DE IBAN glued to a dashed card', 'IBAN DE48 8247 4941 7574 0011 146011-1111-1111-1117 ok', { digits: '111111111117', region: 'NL' }],
  ['IE: ES IBAN glued to a dotted card', 'ES28 6663 7209 1259 0648 23056521.5826.5906.6710 ok', { digits: '6663720912590648' }],
  ['IT: DE IBAN glued to a letter', 'IBAN DE67 0965 5713 1555 3622 17a.', { digits: '15553622', region: 'IT' }],
  ['IT: ES IBAN glued to the word IBAN', 'IBANES54 9463 0185 9273 6868 0742.', { digits: '68680742', region: 'IT' }],
  ['IT: IT IBAN glued to a letter, then an ES IBAN', 'IT30 X338 4171 2920 0442 6989 611a ES43 6904 7521 7769 3771 5254', { digits: '41712920', region: 'IT' }],
  ['NL: FR IBAN glued to an amount', 'FR76 7134 7189 8387 6962 3352 95312.50', { digits: '713471898387', region: 'NL' }],
  ['DE: FR IBAN glued to an expiry', 'IBAN FR76 9128 3615 5680 4481 1556 31809/27 ok', { digits: '91283615', region: 'DE' }],
  // Single digits that count were ordinary whatever word was before them (the parent replaced these; main sent them).
  ['ES: "mi número es" and a countdown (León)', 'mi número es 9 8 7 6 5 4 3 2 1', { digits: '987654321', region: 'ES' }],
  ['US: "my number is", an area code and counting digits', 'my number is 212 3 4 5 6 7 8 9', { digits: '2123456789', region: 'US' }],
];

reviewCases('rev27i WAS_OPEN: values sent since f29ab92, now kept from a hosted model', 'held', WAS_OPEN, 1100);
