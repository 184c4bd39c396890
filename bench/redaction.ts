// Issue 17 benchmark: the overhead of egress redaction — on a 50-memory distillation prompt, and on a 24 000-character
// address fallback request — in ms and as a ratio to building the same prompt without it. In-process through the
// public library API only (the same functions `rem rapid` and the fallback call).
import { buildFallbackPrompt, buildPrompt, DEFAULT_REDACT_KINDS, Redactor, type GatheredMemory, type Memory, type RedactKind } from 'hippo';
import { fmt, machine, median, writeSection } from './lib.js';

const ROUNDS = 30;
const WARMUP = 3;

/** A work note of about 480 characters, with personal data in one note of three (a card, an IBAN, a phone, an email). */
function note(index: number): string {
  const base =
    `Deploy ${index}: the billing cron moved to Tuesday after the migration lock on the payments table stalled the Friday release again; ` +
    `we rolled back at 17:40, and the on-call asked that migrations never ride the release train. Next time, check the lock first. `;
  const pii =
    index % 3 === 0
      ? `Supplier ${index}: card 4111 1111 1111 1111, IBAN IE29 AIBK 9311 5212 3456 78, call +353 1 234 ${String(5000 + index)}, mail ops${index}@example.ie. `
      : '';
  return (base + pii + base).slice(0, 480);
}

function memory(index: number): Memory {
  const at = new Date(Date.UTC(2026, 10, 1, 9, index)).toISOString();
  return {
    id: `mem_${String(index).padStart(26, '0')}`,
    agentId: 'bench',
    content: note(index),
    durability: 'standard',
    tags: [],
    subject: null,
    thread: null,
    versionOf: null,
    source: 'bench',
    createdAt: at,
    updatedAt: at,
    expiresAt: null,
    archivedAt: null,
    archivedReason: null,
    derivedFrom: [],
    promotedFrom: null,
    contentHash: '0'.repeat(64),
    lastReflectedAt: null,
    retrievalCount: 0,
    lastRetrievedAt: null,
  };
}

function time(fn: () => unknown): number {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS + WARMUP; round++) {
    const start = performance.now();
    fn();
    if (round >= WARMUP) times.push(performance.now() - start);
  }
  return median(times);
}

export async function run(): Promise<void> {
  const memories: GatheredMemory[] = Array.from({ length: 50 }, (_, index) => {
    const item = memory(index);
    return { ref: `m${index + 1}`, memory: item, text: item.content, truncated: false };
  });
  const plainPrompt = time(() => buildPrompt({ focus: 'lessons', memories }));
  const redactPrompt = (kinds: readonly RedactKind[]) => () => {
    const redactor = new Redactor({ kinds, region: 'IE' });
    const shown = memories.map((item) => ({ ...item, text: redactor.redact(item.text).text }));
    return buildPrompt({ focus: 'lessons', memories: shown, placeholderExample: redactor.firstPlaceholder() });
  };
  const redactedPrompt = time(redactPrompt(DEFAULT_REDACT_KINDS));
  const noPhonePrompt = time(redactPrompt(DEFAULT_REDACT_KINDS.filter((kind) => kind !== 'phone')));
  const promptChars = buildPrompt({ focus: 'lessons', memories }).length;

  // 24 000 characters of passages, as the fallback sends at most.
  const passages = Array.from({ length: 50 }, (_, index) => ({ source: `mem_${index}`, text: `${note(index)}\nOffice: 18 Baggot Street Lower, Dublin 2` }));
  let total = 0;
  const shown = passages.filter((passage) => (total += passage.text.length) <= 24_000);
  const plainFallback = time(() => buildFallbackPrompt('address', shown));
  const redactedFallback = time(() => {
    const redactor = new Redactor({ kinds: DEFAULT_REDACT_KINDS, region: 'IE' });
    const sent = shown.map((passage) => ({ source: passage.source, text: redactor.redact(passage.text).text }));
    return buildFallbackPrompt('address', sent);
  });
  const fallbackChars = shown.reduce((sum, passage) => sum + passage.text.length, 0);

  writeSection(
    'redaction',
    `## Egress redaction (issue 17)

${machine()}. Median of ${ROUNDS} rounds after ${WARMUP} warm-up rounds, in-process; one note in three carries a card, an
IBAN, a phone number and an email (kinds: ${DEFAULT_REDACT_KINDS.join(', ')}; home region IE, the default candidate regions).
The alternative is the same prompt built without redaction.

| request | without redaction | with redaction | overhead | ratio |
|---|---|---|---|---|
| 50-memory \`rem rapid\` prompt (${promptChars} characters) | ${fmt(plainPrompt, 3)} ms | ${fmt(redactedPrompt, 2)} ms | ${fmt(redactedPrompt - plainPrompt, 2)} ms | ${fmt(redactedPrompt / plainPrompt, 0)}× |
| address fallback request (${fallbackChars} characters of passages) | ${fmt(plainFallback, 3)} ms | ${fmt(redactedFallback, 2)} ms | ${fmt(redactedFallback - plainFallback, 2)} ms | ${fmt(redactedFallback / plainFallback, 0)}× |

| 50-memory prompt, kinds email, iban, card (no phone) | ${fmt(plainPrompt, 3)} ms | ${fmt(noPhonePrompt, 2)} ms | ${fmt(noPhonePrompt - plainPrompt, 2)} ms | ${fmt(noPhonePrompt / plainPrompt, 0)}× |

Building a prompt is string concatenation, so the ratio is large; the overhead in ms is what matters next to a model
call (hundreds of ms to seconds). The last row shows how much of it the phone recogniser costs (it reads every text in
the home region and each candidate region; the text around each line break is read a second time, to find values
split across lines). Measured on a shared 2-core machine under load from other jobs: read the ms as an upper bound.
`,
  );
}
