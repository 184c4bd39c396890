/**
 * Rejections that teach (docs/governance.md, "Rejections that teach"): is a new claim a rewording of a claim a reviewer rejected? Pure, no
 * store. A claim becomes a signature — its content words stemmed (Porter, the `stemmer` package), a few common
 * rewordings folded, stopwords dropped — plus the anchors that a paraphrase keeps and a different claim changes:
 *
 * - numbers (digits, number words up to twenty, `twice`…), ids and versions (any token holding a digit, `_`, `.`,
 *   `/`, `:` or `@`): the same set on both sides;
 * - names (capitalised words): each name of one claim is a name of the other, except a capitalised first word of a
 *   sentence that the other claim writes in lower case (it was capitalised for the sentence, not as a name);
 * - negation (not, no, never, n't, without, avoid…): both negated or neither;
 * - opposites (increase/decrease, before/after, staging/production…): a word whose opposite stands in the other
 *   claim and not itself makes them different;
 * - frequency and quantity (always/all, often/most, sometimes/some, rarely/few, only): the same on both sides — one
 *   claim giving one and the other none differ too ("deploys rarely fail" is not "deploys fail").
 *
 * Only then are the word sets compared: near when their Jaccard similarity is at least NEAR_JACCARD. (Containment —
 * the smaller set inside the larger — was measured too and added nothing at this threshold; it is left out because it
 * would call a rejected claim with a new reason added "the same".) The threshold was chosen on the dev set in test/core/rem/near-duplicate-pairs.ts (precision first: a claim wrongly skipped is a
 * new insight the reviewer never sees); the test fails if precision drops under 0.95.
 */
import { stemmer } from 'stemmer';

export const NEAR_JACCARD = 0.6;

/**
 * Words that carry no content of their own in a claim (negations, quantities and frequencies are kept apart, never
 * dropped silently). Not the search's stopwords (core/search-terms.ts): those drop "not", "all" and "only", which
 * decide here whether two claims say the same (docs/decisions.md, "Issue 24 (closing)").
 */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but so of to in on at by for from with into onto as is are was were be been being am it its this that these those ' +
    'there their they them he she his her him we our us you your i me my do does did doing done has have had having will would shall ' +
    'should can could may might must than then also just very really quite which who whom whose what when where while how why ' +
    'about because since until unless if whether such any each both either own same other another much' +
    ' its it’s one’s get gets got getting s'
  ).split(' '),
);

/** Negation markers: a claim holding any of them is negated. */
const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'without',
  'none',
  'nothing',
  'nobody',
  'neither',
  'nor',
  'cannot',
  'avoid',
  'avoids',
  'avoided',
  'avoiding',
  'lack',
  'lacks',
  'lacking',
]);

/** Number words, as the digits they stand for (a paraphrase writes 3 for three). */
const NUMBER_WORDS: Readonly<Record<string, string>> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  hundred: '100',
  thousand: '1000',
  once: '1',
  twice: '2',
  thrice: '3',
  single: '1',
  double: '2',
  triple: '3',
  half: '0.5',
  dozen: '12',
};

/**
 * How often or how many, by class: two claims are the same only if they say the same (both none, or the same classes).
 * "Deploys fail" and "deploys rarely fail" say opposite things; so do "all users" and "some users". A frequency and the
 * quantity it matches share a class ("always" = "every" = "all").
 */
const FREQUENCY: Readonly<Record<string, string>> = {
  always: 'always',
  invariably: 'always',
  consistently: 'always',
  every: 'always',
  all: 'always',
  everyone: 'always',
  everybody: 'always',
  everything: 'always',
  constantly: 'always',
  usually: 'usually',
  often: 'usually',
  frequently: 'usually',
  typically: 'usually',
  generally: 'usually',
  mostly: 'usually',
  regularly: 'usually',
  repeatedly: 'usually',
  commonly: 'usually',
  tend: 'usually',
  tends: 'usually',
  most: 'usually',
  many: 'usually',
  majority: 'usually',
  sometimes: 'sometimes',
  occasionally: 'sometimes',
  intermittently: 'sometimes',
  periodically: 'sometimes',
  some: 'sometimes',
  several: 'sometimes',
  rarely: 'rarely',
  seldom: 'rarely',
  hardly: 'rarely',
  barely: 'rarely',
  scarcely: 'rarely',
  infrequently: 'rarely',
  few: 'rarely',
  minority: 'rarely',
  // A restriction: "only admins can deploy" is not "admins can deploy".
  only: 'only',
  solely: 'only',
  exclusively: 'only',
};

const CONDITIONS: ReadonlySet<string> = new Set(['if', 'when', 'unless', 'whenever']);

/** After "a", "few" is some ("a few users"), not rarely ("few users"). */
const A_FEW = 'sometimes';

/** Common rewordings, folded to one word before stemming (both sides get the same fold). */
const SYNONYMS: Readonly<Record<string, string>> = {
  utilize: 'use',
  utilise: 'use',
  employ: 'use',
  leverage: 'use',
  using: 'use',
  uses: 'use',
  used: 'use',
  deployment: 'deploy',
  deployments: 'deploy',
  release: 'deploy',
  releases: 'deploy',
  ship: 'deploy',
  shipping: 'deploy',
  rollout: 'deploy',
  rollouts: 'deploy',
  breaks: 'fail',
  break: 'fail',
  broke: 'fail',
  broken: 'fail',
  failure: 'fail',
  failures: 'fail',
  failing: 'fail',
  prior: 'before',
  earlier: 'before',
  beforehand: 'before',
  ahead: 'before',
  afterwards: 'after',
  later: 'after',
  following: 'after',
  likes: 'prefer',
  like: 'prefer',
  favors: 'prefer',
  favours: 'prefer',
  favor: 'prefer',
  favour: 'prefer',
  wants: 'prefer',
  want: 'prefer',
  quick: 'fast',
  quickly: 'fast',
  rapid: 'fast',
  rapidly: 'fast',
  speedy: 'fast',
  slowly: 'slow',
  sluggish: 'slow',
  mistake: 'error',
  mistakes: 'error',
  bug: 'error',
  bugs: 'error',
  errors: 'error',
  begin: 'start',
  begins: 'start',
  began: 'start',
  starting: 'start',
  launch: 'start',
  end: 'finish',
  ends: 'finish',
  complete: 'finish',
  completes: 'finish',
  big: 'large',
  huge: 'large',
  bigger: 'larger',
  tiny: 'small',
  little: 'small',
  users: 'user',
  customers: 'customer',
  client: 'customer',
  clients: 'customer',
  needs: 'require',
  need: 'require',
  requires: 'require',
  required: 'require',
  cause: 'caus',
  causes: 'caus',
  caused: 'caus',
  leads: 'caus',
  lead: 'caus',
  results: 'caus',
  problem: 'issue',
  problems: 'issue',
  issues: 'issue',
  trouble: 'issue',
  fix: 'fix',
  fixes: 'fix',
  fixed: 'fix',
  resolve: 'fix',
  resolves: 'fix',
  resolved: 'fix',
  solve: 'fix',
  solves: 'fix',
  solved: 'fix',
  check: 'verify',
  checks: 'verify',
  checking: 'verify',
  verify: 'verify',
  confirm: 'verify',
  confirms: 'verify',
  db: 'database',
  databases: 'database',
  msg: 'message',
  messages: 'message',
};

/** Pairs of opposites (compared as stems after the synonym fold): one side holding a word, the other its opposite and not it, differ. */
const OPPOSITE_WORDS: readonly (readonly [string, string])[] = [
  ['increase', 'decrease'],
  ['raise', 'lower'],
  ['higher', 'lower'],
  ['more', 'less'],
  ['more', 'fewer'],
  ['larger', 'smaller'],
  ['large', 'small'],
  ['before', 'after'],
  ['early', 'late'],
  ['earliest', 'latest'],
  ['first', 'last'],
  ['min', 'max'],
  ['minimum', 'maximum'],
  ['fast', 'slow'],
  ['faster', 'slower'],
  ['enable', 'disable'],
  ['add', 'remove'],
  ['open', 'close'],
  ['start', 'stop'],
  ['up', 'down'],
  ['success', 'fail'],
  ['succeed', 'fail'],
  ['pass', 'fail'],
  ['accept', 'reject'],
  ['allow', 'deny'],
  ['allow', 'block'],
  ['include', 'exclude'],
  ['inside', 'outside'],
  ['internal', 'external'],
  ['staging', 'production'],
  ['dev', 'production'],
  ['test', 'production'],
  ['read', 'write'],
  ['input', 'output'],
  ['upload', 'download'],
  ['import', 'export'],
  ['morning', 'afternoon'],
  ['morning', 'evening'],
  ['morning', 'night'],
  ['afternoon', 'evening'],
  ['day', 'night'],
  ['weekday', 'weekend'],
  ['new', 'old'],
  ['newer', 'older'],
  ['cheap', 'expensive'],
  ['cheaper', 'costlier'],
  ['short', 'long'],
  ['shorter', 'longer'],
  ['light', 'dark'],
  ['synchronous', 'asynchronous'],
  ['sync', 'async'],
  ['manual', 'automatic'],
  ['manually', 'automatically'],
  ['public', 'private'],
  ['online', 'offline'],
  ['local', 'remote'],
  ['prefer', 'dislike'],
  ['prefer', 'hate'],
  ['love', 'hate'],
  ['help', 'hurt'],
  ['improve', 'degrade'],
  ['improve', 'worsen'],
  ['better', 'worse'],
  ['win', 'lose'],
  ['gain', 'loss'],
  ['over', 'under'],
  ['above', 'below'],
  ['left', 'right'],
  ['north', 'south'],
  ['east', 'west'],
  ['ascending', 'descending'],
  ['encrypt', 'decrypt'],
  ['lock', 'unlock'],
  ['valid', 'invalid'],
  ['safe', 'unsafe'],
  ['stable', 'unstable'],
  ['correct', 'incorrect'],
  ['major', 'minor'],
  ['primary', 'secondary'],
  ['primary', 'replica'],
  ['leader', 'follower'],
  ['server', 'client'],
  ['frontend', 'backend'],
  ['upstream', 'downstream'],
  ['junior', 'senior'],
  ['email', 'slack'],
  ['email', 'phone'],
  ['slack', 'phone'],
  ['tea', 'coffee'],
  ['formal', 'casual'],
  ['verbose', 'concise'],
  ['brief', 'detailed'],
  ['written', 'verbal'],
  ['tabs', 'spaces'],
  ['monthly', 'weekly'],
  ['weekly', 'daily'],
  ['monthly', 'daily'],
  ['hourly', 'daily'],
  ['cold', 'warm'],
  ['hot', 'cold'],
];

export interface ClaimSignature {
  /** Content words, stemmed, without anchors, stopwords, negations and frequency words. */
  words: ReadonlySet<string>;
  /** Numbers, ids and versions, normalised. */
  numbers: ReadonlySet<string>;
  /** Names (stemmed, lower case) and, apart, those only ever seen capitalised as a sentence's first word. */
  names: ReadonlySet<string>;
  initialOnly: ReadonlySet<string>;
  /** Every word as written lower case (stemmed), to tell a sentence's capital from a name. */
  lower: ReadonlySet<string>;
  negated: boolean;
  frequency: ReadonlySet<string>;
}

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’._\-/:@%]*[\p{L}\p{N}%]|[\p{L}\p{N}]/gu;
const ID_LIKE = /[\d_./:@]/;
const NUMBER_UNIT = /^(\d+(?:[.,]\d+)*)([a-z%]+)$/;

function stem(word: string): string {
  const folded = SYNONYMS[word] ?? word;
  return stemmer(folded);
}

/** A number as a paraphrase may write it: thousands separators and a trailing `.0` do not make another number. */
function normalNumber(text: string): string {
  return text.replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/\.0+$/, '');
}

/**
 * Words that bound the number after them (`fewer than 3`, `at most 3`, `up to 3`): a bounded number is another number
 * (`fewer than 3 reviewers` is no rewording of `3 reviewers`), so the bound is kept with it.
 */
const BOUNDS: Readonly<Record<string, string>> = {
  fewer: '<',
  less: '<',
  under: '<',
  below: '<',
  most: '<=',
  max: '<=',
  maximum: '<=',
  up: '<=',
  more: '>',
  over: '>',
  above: '>',
  exceeding: '>',
  least: '>=',
  min: '>=',
  minimum: '>=',
};

/** The bound the words before a number put on it (`than`, `to`, `of` between them are skipped), or ''. */
function boundOf(before: readonly string[]): string {
  let at = before.length - 1;
  if (at >= 0 && (before[at] === 'than' || before[at] === 'to' || before[at] === 'of')) at--;
  return at >= 0 ? (BOUNDS[before[at]!] ?? '') : '';
}

export function signature(claim: string): ClaimSignature {
  const words = new Set<string>();
  const numbers = new Set<string>();
  const names = new Set<string>();
  const initials = new Set<string>();
  const lower = new Set<string>();
  const frequency = new Set<string>();
  let negated = false;
  // Sentences: a capital after . ! ? : or at the start is a sentence's, not (only) a name's.
  // Thousands separators go first (`10,000` is one number, not two).
  const text = claim.normalize('NFKC').replace(/(\d),(?=\d{3}\b)/g, '$1');
  for (const sentence of text.split(/[.!?;:]\s+|\n+|\s[-–—]\s/u)) {
    let first = true;
    const before: string[] = [];
    const tokens = sentence.match(TOKEN) ?? [];
    for (const [index, raw] of tokens.entries()) {
      let token = raw.replace(/['’]s$/u, '');
      const lowered = token.toLowerCase();
      const bound = boundOf(before);
      before.push(lowered);
      const initial = first;
      first = false;
      if (/n['’]t$/u.test(lowered) || lowered === 'cannot') {
        negated = true;
        continue;
      }
      // A number with its unit (`5s`, `20%`, `10ms`): the number is the anchor, the unit a word.
      const unit = NUMBER_UNIT.exec(lowered);
      if (unit) {
        numbers.add(bound + normalNumber(unit[1]!));
        token = unit[2] === '%' ? 'percent' : unit[2]!;
        words.add(stem(token));
        continue;
      }
      if (/\d/.test(lowered) || (ID_LIKE.test(lowered) && /\p{L}/u.test(lowered) && !/^[\p{L}]+[.]$/u.test(lowered))) {
        numbers.add(bound + normalNumber(lowered.replace(/[.]$/, '')));
        continue;
      }
      if (lowered === '%') continue;
      if (NUMBER_WORDS[lowered] !== undefined) {
        numbers.add(bound + NUMBER_WORDS[lowered]);
        continue;
      }
      if (NEGATIONS.has(lowered)) {
        negated = true;
        continue;
      }
      // "at most 3" is a bound on the number after it (BOUNDS), not "most"; "only … if/when/unless" is a condition
      // ("backups are only useful if restores are tested"), not a restriction of who or what.
      const notExtent =
        (lowered === 'most' && before.at(-2) === 'at') || (lowered === 'only' && tokens.slice(index + 1).some((later) => CONDITIONS.has(later.toLowerCase())));
      if (FREQUENCY[lowered] !== undefined && !notExtent) {
        frequency.add(lowered === 'few' && before.at(-2) === 'a' ? A_FEW : FREQUENCY[lowered]);
        continue;
      }
      // Hyphenated words are their parts (`read-only` is `read only`).
      const parts = lowered.split(/[-'’]/u).filter((part) => part !== '');
      const capital = /^\p{Lu}/u.test(token);
      const inner = /.\p{Lu}/u.test(token) && /\p{Ll}/u.test(token); // camelCase, iPhone
      const acronym = token.length >= 2 && token === token.toUpperCase() && /\p{Lu}/u.test(token);
      for (const part of parts) {
        const stemmed = stem(part);
        if (STOPWORDS.has(part)) continue;
        if (capital || inner || acronym) {
          if (initial && !inner && !acronym) initials.add(stemmed);
          else names.add(stemmed);
        } else {
          lower.add(stemmed);
        }
        words.add(stemmed);
      }
    }
  }
  const initialOnly = new Set([...initials].filter((name) => !names.has(name)));
  return { words, numbers, names, initialOnly, lower, negated, frequency };
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

/** Every name of `a` is a name of `b`, or a sentence's first word that `b` writes in lower case. */
function namesCovered(a: ClaimSignature, b: ClaimSignature): boolean {
  for (const name of a.names) if (!b.names.has(name) && !b.initialOnly.has(name)) return false;
  for (const name of a.initialOnly) if (!b.names.has(name) && !b.initialOnly.has(name) && !b.lower.has(name)) return false;
  return true;
}

let stemmedOpposites: (readonly [string, string])[] | undefined;
/** The opposite pairs as stems (once). */
function opposites(): (readonly [string, string])[] {
  stemmedOpposites ??= OPPOSITE_WORDS.map(([a, b]) => [stem(a), stem(b)] as const);
  return stemmedOpposites;
}

function opposed(a: ClaimSignature, b: ClaimSignature): boolean {
  const has = (signature: ClaimSignature, word: string) => signature.words.has(word);
  for (const [x, y] of opposites()) {
    if (has(a, x) && !has(a, y) && has(b, y) && !has(b, x)) return true;
    if (has(a, y) && !has(a, x) && has(b, x) && !has(b, y)) return true;
  }
  return false;
}

/** Why two claims are not near-duplicates, or `near` when they are: the detector's verdict, with its reason (for the dev set). */
export type Verdict = 'near' | 'numbers' | 'names' | 'negation' | 'opposite' | 'frequency' | 'words';

export function compareSignatures(a: ClaimSignature, b: ClaimSignature): Verdict {
  if (!sameSet(a.numbers, b.numbers)) return 'numbers';
  if (!namesCovered(a, b) || !namesCovered(b, a)) return 'names';
  if (a.negated !== b.negated) return 'negation';
  if (opposed(a, b)) return 'opposite';
  // One claim saying how often (or how many) and the other not is a changed claim too: "rarely fails" is no "fails".
  if (!sameSet(a.frequency, b.frequency)) return 'frequency';
  const shared = [...a.words].filter((word) => b.words.has(word)).length;
  const union = a.words.size + b.words.size - shared;
  if (union === 0) return 'near';
  return shared / union >= NEAR_JACCARD ? 'near' : 'words';
}

/** Whether `claim` rewords `rejected` (the same claim in other words). */
export function isNearDuplicate(claim: string, rejected: string): boolean {
  return compareSignatures(signature(claim), signature(rejected)) === 'near';
}

/** The first of `rejected` (newest first) that `claim` rewords, or undefined. Signatures of `rejected` may be precomputed. */
export function findRejected<T extends { signature: ClaimSignature }>(claim: string, rejected: readonly T[]): T | undefined {
  const own = signature(claim);
  return rejected.find((item) => compareSignatures(own, item.signature) === 'near');
}
