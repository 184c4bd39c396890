/**
 * `memory forget --verify` (docs/governance.md): given a receipt and the text it covers, looks for that text again in
 * every place hippo keeps data — the live store's rows (memories, candidates' claims and stored prompts, handoffs'
 * stored prompts, the search context a threaded memory keeps of its neighbours' text), the engine's raw files where a
 * client can read them (SQLite: the database file and its WAL, as bytes, so free pages and index segments are
 * covered), and every snapshot (read as the store reads it, and a SQLite snapshot also as raw bytes) — and says,
 * place by place, "absent" or where it was found.
 *
 * Only a text the receipt covers is looked for (its SHA-256 must be one the receipt kept): verify is no way to search
 * the raw files, which hold every agent's rows, for an arbitrary text.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { HippoError, NotFoundError, UsageError } from '../errors.js';
import { textSha256, type ForgetReceipt } from '../memory/forget.js';
import { snapshotFiles } from '../nightly/snapshot.js';
import { escapeXml } from '../rem/prompt.js';
import type { EraseReport, EraseRewriter, Store } from '../store/port.js';

const RECEIPT_ID = /^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface VerifyPlace {
  /** Where looked, in fixed words (and a file or snapshot name). */
  place: string;
  status: 'absent' | 'found' | 'unknown';
  /** Where it was found (row ids, or "raw bytes at offset …"), or why unknown. */
  where: string[];
}

export interface VerifyResult {
  receiptId: string;
  agentId: string;
  /** The receipt's memory the text is (by its SHA-256), or null when it is the text matched. */
  memoryId: string | null;
  places: VerifyPlace[];
  /** True when every place says absent. */
  absent: boolean;
}

/** The receipt of the agent, or `receipt_not_found` (exit 3): a malformed, forged or other agent's id alike. */
export async function getReceipt(store: Store, agentId: string, id: string): Promise<ForgetReceipt> {
  const stored = RECEIPT_ID.test(id) ? await store.receipts.get(agentId, id) : undefined;
  if (!stored)
    throw new NotFoundError('receipt_not_found', `no forget receipt ${id.slice(0, 64)} for agent "${agentId}"`, { details: { id: id.slice(0, 64) } });
  return stored.receipt as unknown as ForgetReceipt;
}

/** A rewriter that only finds: every candidate or handoff holding a needle is reported (never written: dry runs only). */
function finder(needles: string[]): EraseRewriter {
  const holds = (text: string | null) => text !== null && needles.some((needle) => text.includes(needle));
  return () => ({
    needles,
    candidate: (candidate) =>
      holds(candidate.claim) || holds(candidate.editedClaim) || holds(candidate.prompt) || candidate.tags.some(holds) ? null : candidate,
    handoff: (handoff) => (holds(handoff.prompt) ? { ...handoff } : handoff),
  });
}

function found(report: EraseReport): string[] {
  return [
    ...report.memories.map((memory) => `memory ${memory.id}`),
    ...report.candidatesDeleted.map((id) => `candidate ${id}`),
    ...report.handoffsChanged.map((id) => `handoff ${id}`),
  ];
}

/** Offsets of any needle in a file, read in chunks (a large file is never read whole). */
export function scanFile(path: string, needles: readonly Buffer[]): number[] {
  const longest = Math.max(...needles.map((needle) => needle.length));
  const chunk = Buffer.alloc(4 * 1024 * 1024 + longest);
  const hits: number[] = [];
  const fd = openSync(path, 'r');
  try {
    let position = 0;
    let carried = 0;
    for (;;) {
      const read = readSync(fd, chunk, carried, chunk.length - carried, position);
      if (read === 0) break;
      const filled = carried + read;
      const view = chunk.subarray(0, filled);
      for (const needle of needles) {
        for (let at = view.indexOf(needle); at !== -1 && hits.length < 10; at = view.indexOf(needle, at + 1)) hits.push(position - carried + at);
      }
      position += read;
      carried = Math.min(longest - 1, filled);
      chunk.copy(chunk, 0, filled - carried, filled);
    }
  } finally {
    closeSync(fd);
  }
  return [...new Set(hits)].sort((a, b) => a - b);
}

/**
 * Re-scans for the text (see the module comment). `receipt_not_found` (exit 3) for an id the agent has no receipt
 * under; `text_not_in_receipt` (exit 2) for a text whose SHA-256 the receipt did not keep.
 */
export async function verifyForget(store: Store, options: { agentId: string; receiptId: string; text: string }): Promise<VerifyResult> {
  const receipt = await getReceipt(store, options.agentId, options.receiptId);
  const hash = textSha256(options.text);
  const memory = receipt.memories.find((entry) => entry.sha256 === hash);
  if (!memory && receipt.matchSha256 !== hash) {
    throw new UsageError(
      'text_not_in_receipt',
      `the text given is none of those receipt ${receipt.id} covers (its SHA-256 matches none the receipt kept); only a text a receipt covers is looked for`,
      { details: { receiptId: receipt.id } },
    );
  }
  const text = options.text;
  const needles = [...new Set([text, escapeXml(text)])];
  const spec = { agentId: options.agentId, memoryIds: [], match: text };
  const places: VerifyPlace[] = [];

  const live = await store.transaction((tx) => tx.erasure.erase(spec, finder(needles), { dryRun: true }));
  const liveFound = found(live);
  places.push({ place: 'live store: memories, candidates, stored prompts', status: liveFound.length > 0 ? 'found' : 'absent', where: liveFound });
  // A threaded memory keeps its neighbours' text for the search (on PostgreSQL in no file a client can read).
  const contexts = (await store.erasure.contextsHolding(options.agentId, [text])).map((id) => `search context of memory ${id}`);
  places.push({ place: "live store: neighbours' search contexts", status: contexts.length > 0 ? 'found' : 'absent', where: contexts });

  // The raw bytes as written (UTF-8) and as a JSON string holds them (tags, lists).
  const bytes = [...new Set([text, JSON.stringify(text).slice(1, -1)])].map((form) => Buffer.from(form, 'utf8'));
  for (const path of store.rawFiles()) {
    const offsets = scanFile(path, bytes);
    places.push({ place: `raw file ${path}`, status: offsets.length > 0 ? 'found' : 'absent', where: offsets.map((offset) => `byte ${offset}`) });
  }

  for (const snapshot of snapshotFiles(store.snapshots.dir, store.snapshots.suffix).reverse()) {
    try {
      const report = await store.snapshots.erase(snapshot.path, spec, finder(needles), { dryRun: true });
      const where = found(report);
      // A SQLite snapshot is a database file: its bytes too (a compressed logical snapshot is read as rows only).
      if (store.rawFiles().length > 0) where.push(...scanFile(snapshot.path, bytes).map((offset) => `raw byte ${offset}`));
      places.push({ place: `snapshot ${snapshot.name}`, status: where.length > 0 ? 'found' : 'absent', where });
    } catch (error) {
      if (!(error instanceof HippoError)) throw error;
      places.push({ place: `snapshot ${snapshot.name}`, status: 'unknown', where: [`cannot be read (${error.code})`] });
    }
  }
  return {
    receiptId: receipt.id,
    agentId: options.agentId,
    memoryId: memory?.id ?? null,
    places,
    absent: places.every((place) => place.status === 'absent'),
  };
}
