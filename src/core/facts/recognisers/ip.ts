import ipaddr from 'ipaddr.js';
import { charAt, charBefore, dropOverlaps, isWordChar, rawMatch } from '../text.js';
import type { RawMatch, RecogniserOptions } from '../types.js';

// Maximal runs of the characters an IPv6 address is written with (`[0-9A-Fa-f:.]+`, found by `colonRuns`); a run is
// an IPv6 candidate when it has two colons or more. Maximal runs of dot-separated digits are IPv4 candidates: exactly
// four parts, so a version string such as `1.2.3.4.5` is rejected whole rather than mined for an address.
const V4_RUN_RE = /\d+(?:\.\d+)*/g;
const ZONE_RE = /%[A-Za-z0-9_-]+/y;
const PREFIX_RE = /\/(\d{1,3})/y;

interface Span {
  start: number;
  end: number;
}

/**
 * Canonical form: IPv4 dotted decimal; IPv6 per RFC 5952 (lower case, longest zero run compressed), IPv4-mapped
 * addresses in mixed notation (`::ffff:192.0.2.1`, RFC 5952 §5) and a zone index kept as written; a CIDR prefix
 * length appended as `/n`. The address is not masked to its network: `192.168.1.1/24` names a host on a subnet.
 */
export function canonicalIp(address: string, prefix?: number): string {
  const parsed = ipaddr.parse(address);
  let canonical: string;
  if (parsed.kind() === 'ipv4') canonical = parsed.toString();
  else {
    const v6 = parsed as ipaddr.IPv6;
    canonical = v6.isIPv4MappedAddress() ? `::ffff:${v6.toIPv4Address().toString()}${v6.zoneId === undefined ? '' : `%${v6.zoneId}`}` : v6.toRFC5952String();
  }
  return prefix === undefined ? canonical : `${canonical}/${prefix}`;
}

/** A `/n` right after the address, kept when n is a valid prefix length for the family and is not run on. */
function prefixAfter(text: string, end: number, maxBits: number): Span | undefined {
  PREFIX_RE.lastIndex = end;
  const match = PREFIX_RE.exec(text);
  if (match === null) return undefined;
  const bits = Number(match[1]);
  const prefixEnd = end + match[0].length;
  if (bits > maxBits || isWordChar(charAt(text, prefixEnd))) return undefined;
  return { start: end, end: prefixEnd };
}

function withPrefix(text: string, span: Span, address: string, maxBits: number): RawMatch | undefined {
  const prefix = prefixAfter(text, span.end, maxBits);
  const end = prefix?.end ?? span.end;
  if (isWordChar(charAt(text, end))) return undefined;
  const bits = prefix === undefined ? undefined : Number(text.slice(prefix.start + 1, prefix.end));
  return rawMatch('ip', text, span.start, end, canonicalIp(address, bits));
}

/** Trims sentence punctuation from a run's end: trailing dots, and one trailing colon that is not part of `::`. */
function trimRun(run: string): string {
  let trimmed = run.replace(/\.+$/, '');
  if (trimmed.endsWith(':') && !trimmed.endsWith('::')) trimmed = trimmed.slice(0, -1);
  return trimmed;
}

// `abc::def` is as likely to be C++ as an address: apart from `::` itself, an address must contain a digit.
// The colon count is a cheap pre-filter only: ipaddr.js refuses any run with fewer than two colons itself.
function looksLikeV6(candidate: string): boolean {
  // Two colons make three pieces.
  // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent — the pre-filter above; a run let through is refused by ipaddr.js
  if (candidate.split(':').length < 3) return false;
  return candidate === '::' || /[0-9]/.test(candidate);
}

/** Whether a UTF-16 code unit is one an IPv6 address is written with: `[0-9A-Fa-f:.]`. */
function isV6Char(code: number): boolean {
  return (code >= 48 && code <= 58) || code === 46 || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * The maximal runs of `[0-9A-Fa-f:.]` that hold a colon, in text order: found from each colon outwards, so the many runs
 * without one (every word made of the letters a–f) cost nothing; none of them can hold an address.
 */
function* colonRuns(text: string): Generator<{ index: number; run: string }> {
  for (let from = 0; ;) {
    const colon = text.indexOf(':', from);
    if (colon < 0) return;
    let start = colon;
    while (start > from && isV6Char(text.charCodeAt(start - 1))) start--;
    let end = colon + 1;
    while (end < text.length && isV6Char(text.charCodeAt(end))) end++;
    yield { index: start, run: text.slice(start, end) };
    from = end;
  }
}

function ipv6Matches(text: string): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const { index: start, run } of colonRuns(text)) {
    const candidate = trimRun(run);
    if (!looksLikeV6(candidate) || isWordChar(charBefore(text, start))) continue;
    let end = start + candidate.length;
    // A zone index follows the address directly: after a trimmed dot or colon the sticky match fails.
    ZONE_RE.lastIndex = end;
    end += ZONE_RE.exec(text)?.[0].length ?? 0;
    const address = text.slice(start, end);
    if (!ipaddr.IPv6.isValid(address)) continue;
    const match = withPrefix(text, { start, end }, address, 128);
    if (match !== undefined) matches.push(match);
  }
  return matches;
}

function ipv4Matches(text: string): RawMatch[] {
  const matches: RawMatch[] = [];
  for (const run of text.matchAll(V4_RUN_RE)) {
    const start = run.index;
    const address = run[0];
    // A run without a dot is one part, never four (and most runs of digits in a text are such).
    if (!address.includes('.') || !ipaddr.IPv4.isValidFourPartDecimal(address)) continue;
    if (isWordChar(charBefore(text, start))) continue;
    // `host.10.0.0.1` or `v.1.2.3.4`: a dot glued to a word before the run makes it part of a longer name.
    if (charBefore(text, start) === '.' && isWordChar(charBefore(text, start - 1))) continue;
    const match = withPrefix(text, { start, end: start + address.length }, address, 32);
    if (match !== undefined) matches.push(match);
  }
  return matches;
}

/**
 * IPv4 and IPv6 addresses validated by ipaddr.js, word-bounded, with an optional zone index (IPv6) and CIDR
 * prefix length. An IPv4 address inside an accepted IPv6 one (`::ffff:10.0.0.1`) is not reported twice.
 */
export function recogniseIps(text: string, _opts: RecogniserOptions = {}): RawMatch[] {
  return dropOverlaps([...ipv6Matches(text), ...ipv4Matches(text)]);
}
