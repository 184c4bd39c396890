/**
 * `hippo memory forget` (docs/design.md §2, docs/decisions.md "Forget"): a real delete. The memories named — by id, or
 * every memory of the agent holding a text — and their older versions are erased with their search index entries;
 * their text is taken out of the prompts stored with candidates and handoffs; candidates citing them are marked
 * (`forgottenSourceIds`) so a reviewer sees the evidence is gone; with a text to match, candidates whose claim holds it
 * are deleted. Then the engine makes sure no copy stays in its files (`reclaim`), and with `purgeSnapshots` every
 * snapshot holding any of it is rewritten without it. The audit row (`memory forget`) records ids and counts — never
 * the text, and never the text matched.
 *
 * What is erased is decided once, by the adapters from the same `EraseSpec`, with this module's rewriter: the same
 * rules on the live store and in every snapshot.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { ConflictError, ExitCode, HippoError, NotFoundError, UsageError } from '../errors.js';
import { newId } from '../ids.js';
import { acquireLock } from '../nightly/lock.js';
import { snapshotFiles, unattributedSnapshots } from '../nightly/snapshot.js';
import type { Memory, Run } from '../records.js';
import { clip, TRUNCATION_MARKER } from '../rem/gather.js';
import { bracketsAsSent, escapeXml, memoryBodies, PLACEHOLDER_OPEN, scrubPrompt, scrubRefs } from '../rem/prompt.js';
import { withRun } from '../runs.js';
import type { EraseReport, EraseRewriter, EraseSpec, HeldLock, ReclaimResult, Store, StoreOps, UnattributedSnapshots } from '../store/port.js';
import { iso } from '../time.js';
import { requireWellFormed } from '../well-formed.js';
import { missingMemories } from './memory.js';

/** What a prompt shows in place of a forgotten memory's text. */
export const FORGOTTEN_MARKER = '[forgotten]';
/** A memory id, exactly. */
const MEMORY_ID = /^mem_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface ForgetOptions {
  agentId: string;
  /** Memories by id (their older versions go with them). */
  ids?: readonly string[];
  /** Every memory of the agent whose content, subject or a tag holds this text (exact, case-sensitive). */
  match?: string;
  /** Also rewrite every snapshot holding any of it (under the nightly lock). */
  purgeSnapshots?: boolean;
  /**
   * Also forget what was derived from it (docs/governance.md): promoted insights citing a forgotten memory, recursively,
   * and pending candidates citing one, in the same transaction and under the same receipt. Without it they are flagged.
   */
  cascade?: boolean;
  signal?: AbortSignal;
}

/** Knowledge derived from what is forgotten: flagged "a source was forgotten", or forgotten too with `cascade`. */
export interface DerivedReport {
  /** Promoted insights (memories derived from a forgotten one), with the forgotten ids they cite. */
  insights: { id: string; cites: string[]; action: 'flagged' | 'forgotten' }[];
  /** Candidates citing a forgotten memory. */
  candidates: { id: string; status: string; cites: string[]; action: 'flagged' | 'deleted' }[];
}

/** A snapshot holding something a forget erases: what, by id and count (never text). */
export interface SnapshotHolding {
  name: string;
  path: string;
  memoryIds: string[];
  candidates: number;
  handoffs: number;
}

/** `forget --dry-run`: everything that holds it, live and in snapshots; nothing changed, no audit row. */
export interface ForgetPlan {
  agentId: string;
  /** The memories that would be erased (older versions included), as they are. */
  memories: Memory[];
  /** Candidates whose claim, edited claim or a tag holds the matched text: they would be deleted. */
  candidatesDeleted: { id: string; status: string; claim: string }[];
  /** Candidates that would lose the text from their prompt or be marked as citing a forgotten memory. */
  candidatesChanged: string[];
  handoffsChanged: string[];
  /** Snapshots holding any of it (rewritten by `purgeSnapshots`). */
  snapshots: SnapshotHolding[];
  /** Snapshots that cannot be read (damaged, or a newer hippo's): what they hold is unknown. */
  unreadableSnapshots: { name: string; code: string }[];
  /** Snapshots an older hippo left in the shared folder that are not this store's: not read (null: none). */
  unattributedSnapshots: UnattributedSnapshots | null;
  /** What was derived from it, and what would become of it (flagged, or with `cascade` forgotten too). */
  derived: DerivedReport;
}

export interface ForgetResult {
  run: Run;
  /** Erased memories by id (older versions say which memory they were a version of). */
  forgotten: { id: string; versionOf: string | null }[];
  candidatesChanged: string[];
  candidatesDeleted: string[];
  handoffsChanged: string[];
  reclaim: ReclaimResult;
  /** With `purgeSnapshots`: the snapshots rewritten (by name); null without it. */
  snapshotsRewritten: string[] | null;
  /** Without `purgeSnapshots`: how many snapshots exist that were taken before (they may hold it). */
  snapshotsNotChecked: number;
  /** Snapshots an older hippo left in the shared folder that are not this store's: never read or rewritten (null: none). */
  unattributedSnapshots: UnattributedSnapshots | null;
  /** The receipt, as stored (no text: hashes and ids; docs/governance.md). */
  receipt: ForgetReceipt;
}

/** What a forget erased where, kept under its id (`memory forget --verify`) and printed; never a text, only its SHA-256. */
export interface ForgetReceipt {
  id: string;
  agentId: string;
  createdAt: string;
  runId: string;
  memories: { id: string; versionOf: string | null; sha256: string }[];
  /** The SHA-256 of the text matched (a forget by text), null for one by ids. */
  matchSha256: string | null;
  cascade: boolean;
  derived: DerivedReport;
  erased: {
    memoryRows: number;
    /** The memories' own search entries (deleted with them; SQLite: FTS5 secure-delete). */
    searchEntries: number;
    /** Threads whose neighbours' search contexts were rebuilt without the text. */
    neighbourThreads: number;
    candidatesChanged: number;
    candidatesDeleted: number;
    /** Stored prompts (candidates' and handoffs') the text was taken out of. */
    storedPromptsRewritten: number;
    handoffsChanged: number;
    /** Read-audit records the forgotten ids were taken out of. */
    auditRecords: number;
    /** Snapshots rewritten without it (null: not asked to purge them). */
    snapshotsRewritten: string[] | null;
    /** Snapshots taken earlier and not checked (they may hold it). */
    snapshotsNotChecked: number;
  };
  /** Whether the engine's own copies are gone (SQLite: WAL checkpointed and truncated, free pages zeroed). */
  reclaim: ReclaimResult | null;
}

/** The SHA-256 of a text, hex: what a receipt keeps of it. */
export function textSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A forget rewriter that also deletes the pending candidates citing an erased memory (`cascade`). */
function cascadeRewriter(base: EraseRewriter): EraseRewriter {
  return (erased) => {
    const ids = new Set(erased.map((memory) => memory.id));
    const rewrite = base(erased);
    return {
      ...rewrite,
      candidate: (candidate) => (candidate.status === 'pending' && candidate.sourceMemoryIds.some((id) => ids.has(id)) ? null : rewrite.candidate(candidate)),
    };
  };
}

/**
 * What an erase of `spec` reaches, derived knowledge included: with `cascade`, the spec grows by every insight
 * derived (recursively) from what it erases, and pending candidates citing any of it are deleted. Reads only.
 */
async function expand(
  ops: StoreOps,
  spec: EraseSpec,
  base: EraseRewriter,
  cascade: boolean,
): Promise<{ spec: EraseSpec; rewriter: EraseRewriter; derived: DerivedReport }> {
  const rewriter = cascade ? cascadeRewriter(base) : base;
  const asked = new Set(spec.memoryIds);
  let ids = new Set(spec.memoryIds);
  let report: EraseReport;
  let insights: { id: string; derivedFrom: string[] }[];
  let first: Set<string> | undefined;
  for (;;) {
    report = await ops.erasure.erase({ ...spec, memoryIds: [...ids] }, rewriter, { dryRun: true });
    const erased = new Set(report.memories.map((memory) => memory.id));
    first ??= erased;
    insights = (await ops.receipts.derivedFrom(spec.agentId, [...erased])).filter((insight) => !erased.has(insight.id));
    if (!cascade || insights.length === 0) break;
    ids = new Set([...ids, ...erased, ...insights.map((insight) => insight.id)]);
  }
  const erased = new Set(report.memories.map((memory) => memory.id));
  const derived: DerivedReport = { insights: [], candidates: [] };
  if (cascade) {
    for (const memory of report.memories) {
      if (first.has(memory.id) || asked.has(memory.id) || memory.versionOf !== null) continue;
      derived.insights.push({ id: memory.id, cites: memory.derivedFrom.filter((id) => erased.has(id)), action: 'forgotten' });
    }
  } else {
    for (const insight of insights) derived.insights.push({ id: insight.id, cites: insight.derivedFrom.filter((id) => erased.has(id)), action: 'flagged' });
  }
  for (const id of [...report.candidatesChanged, ...report.candidatesDeleted].sort()) {
    const candidate = await ops.candidates.get(spec.agentId, id);
    const cites = candidate?.sourceMemoryIds.filter((source) => erased.has(source)) ?? [];
    if (!candidate || cites.length === 0) continue;
    const deleted = report.candidatesDeleted.includes(id);
    derived.candidates.push({ id, status: candidate.status, cites, action: deleted ? 'deleted' : 'flagged' });
  }
  return { spec: { ...spec, memoryIds: [...ids] }, rewriter, derived };
}

/**
 * The core's rewriter for an erase: prompts lose the erased memories' text (and any matched text) to `marker`,
 * candidates citing an erased memory record it in `forgottenSourceIds`, a candidate promoted to an erased memory is
 * deleted (its claim is the memory's text), and with `match` a candidate whose claim, edited claim or a tag holds the
 * text is deleted.
 */
export function forgetRewriter(match: string | undefined, marker = FORGOTTEN_MARKER, extraTexts: readonly string[] = []): EraseRewriter {
  return (erased) => {
    const ids = new Set(erased.map((memory) => memory.id));
    // What a prompt shows of each memory (`clip`), and what to look for: its escaped text without the cut marker. A
    // redacted prompt shows its brackets as ASCII ones (`bracketsAsSent`) even where it replaced no value, so with no
    // placeholder to find it by: that form is looked for too.
    const contents = [...erased.map((memory) => memory.content), ...extraTexts];
    const shown = new Set(contents.flatMap((content) => [clip(content).text, bracketsAsSent(clip(content).text)]));
    const bodies = [...shown].map((text) => escapeXml(text.endsWith(TRUNCATION_MARKER) ? text.slice(0, -TRUNCATION_MARKER.length) : text));
    const matchNeedles = match === undefined ? [] : [...new Set([match, escapeXml(match)])];
    // A body holding the matched text is found by that text already.
    // A redacted prompt (docs/redaction.md) shows a memory with placeholders in place of its values, so its text is not
    // there to find as written: every prompt holding a placeholder (or a clipped memory) is read, and its elements
    // matched (`showsRedacted`).
    const needles = [
      ...matchNeedles,
      ...bodies.filter((body) => !matchNeedles.some((needle) => body.includes(needle))),
      ...(contents.length > 0 ? [PLACEHOLDER_OPEN] : []),
      // A clipped memory whose last value straddled the cut was shown without it, so with no placeholder either.
      ...(contents.some((content) => clip(content).truncated) ? [TRUNCATION_MARKER] : []),
    ];
    const holdsMatch = (text: string | null) => match !== undefined && text !== null && text.includes(match);
    return {
      needles,
      candidate(candidate) {
        if (holdsMatch(candidate.claim) || holdsMatch(candidate.editedClaim) || candidate.tags.some(holdsMatch)) return null;
        // Promoted to an erased memory: its claim is that memory's text, and cannot be rewritten without changing what it says.
        if (candidate.promotedMemoryId !== null && ids.has(candidate.promotedMemoryId)) return null;
        const prompt = scrubPrompt(candidate.prompt, shown, match, marker, contents);
        const cited = candidate.sourceMemoryIds.filter((id) => ids.has(id) && !candidate.forgottenSourceIds.includes(id));
        if (prompt === candidate.prompt && cited.length === 0) return candidate;
        return { ...candidate, prompt, forgottenSourceIds: [...candidate.forgottenSourceIds, ...cited] };
      },
      handoff(handoff) {
        let prompt = scrubPrompt(handoff.prompt, shown, match, marker, contents);
        if (handoff.placeholders === null) return prompt === handoff.prompt ? handoff : { ...handoff, prompt };
        // A redacted handoff (docs/redaction.md) shows its memories with placeholders, not as written: an erased memory's
        // element is found by its ref, and the map keeps only the placeholders the remaining memories still show, so
        // neither the forgotten text nor its values stay on the row, and an ingest cannot bring them back.
        const erasedRefs = new Set(Object.entries(handoff.refs).flatMap(([ref, id]) => (ids.has(id) ? [ref] : [])));
        prompt = scrubRefs(prompt, erasedRefs, marker);
        const shownText = memoryBodies(prompt).join('\n');
        const placeholders = Object.fromEntries(Object.entries(handoff.placeholders).filter(([placeholder]) => shownText.includes(placeholder)));
        const same = prompt === handoff.prompt && Object.keys(placeholders).length === Object.keys(handoff.placeholders).length;
        return same ? handoff : { ...handoff, prompt, placeholders };
      },
    };
  };
}

function validate(options: ForgetOptions): { ids: string[]; match: string | undefined } {
  const ids = [...new Set(options.ids ?? [])];
  const match = options.match;
  if (ids.length === 0 && match === undefined) {
    throw new UsageError('nothing_to_forget', 'say what to forget: memory ids, or a text to match', { details: { option: 'ids' } });
  }
  if (match !== undefined) {
    if (match.trim() === '') throw new UsageError('empty_match', 'the text to match is empty: every memory would match', { details: { option: 'match' } });
    requireWellFormed(match, 'the text to match');
  }
  const bad = ids.find((id) => !MEMORY_ID.test(id));
  if (bad !== undefined) throw new NotFoundError('memory_not_found', `no memory ${bad} for agent "${options.agentId}"`, { details: { id: bad } });
  return { ids, match };
}

function isEmpty(report: EraseReport): boolean {
  return report.memories.length + report.candidatesChanged.length + report.candidatesDeleted.length + report.handoffsChanged.length === 0;
}

/** Every snapshot of the store, oldest first (a purge that stops half way has rewritten the oldest ones). */
function storeSnapshots(store: Store) {
  return snapshotFiles(store.snapshots.dir, store.snapshots.suffix).reverse();
}

/** What each snapshot holds of the spec; unreadable ones listed apart. */
async function scanSnapshots(store: Store, spec: EraseSpec, rewriter: EraseRewriter): Promise<Pick<ForgetPlan, 'snapshots' | 'unreadableSnapshots'>> {
  const snapshots: SnapshotHolding[] = [];
  const unreadableSnapshots: { name: string; code: string }[] = [];
  for (const snapshot of storeSnapshots(store)) {
    let report: EraseReport;
    try {
      report = await store.snapshots.erase(snapshot.path, spec, rewriter, { dryRun: true });
    } catch (error) {
      if (!(error instanceof HippoError) || error.exitCode !== ExitCode.usage) throw error;
      unreadableSnapshots.push({ name: snapshot.name, code: error.code });
      continue;
    }
    if (isEmpty(report)) continue;
    snapshots.push({
      name: snapshot.name,
      path: snapshot.path,
      memoryIds: report.memories.map((memory) => memory.id),
      candidates: report.candidatesChanged.length + report.candidatesDeleted.length,
      handoffs: report.handoffsChanged.length,
    });
  }
  return { snapshots, unreadableSnapshots };
}

/**
 * `forget --dry-run`: what a forget would erase and rewrite, live and in every snapshot (`scanSnapshots: false` leaves
 * the snapshots out: a confirmation question that needs no list of them). Reads only; writes no audit row.
 */
export async function planForget(store: Store, options: ForgetOptions & { scanSnapshots?: boolean }): Promise<ForgetPlan> {
  const { ids, match } = validate(options);
  let spec: EraseSpec = { agentId: options.agentId, memoryIds: ids, match };
  let rewriter = forgetRewriter(match);
  let deleted: ForgetPlan['candidatesDeleted'] = [];
  let derived: DerivedReport = { insights: [], candidates: [] };
  const report = await store.transaction(async (tx) => {
    ({ spec, rewriter, derived } = await expand(tx, spec, rewriter, options.cascade === true));
    const found = await tx.erasure.erase(spec, rewriter, { dryRun: true });
    const candidates = await Promise.all(found.candidatesDeleted.map((id) => tx.candidates.get(options.agentId, id)));
    deleted = candidates.flatMap((candidate) => (candidate ? [{ id: candidate.id, status: candidate.status, claim: candidate.claim }] : []));
    return found;
  });
  const snapshotSpec: EraseSpec = { ...spec, memoryIds: [...new Set([...ids, ...report.memories.map((memory) => memory.id)])] };
  return {
    agentId: options.agentId,
    memories: report.memories,
    candidatesDeleted: deleted,
    candidatesChanged: report.candidatesChanged,
    handoffsChanged: report.handoffsChanged,
    ...(options.scanSnapshots === false ? { snapshots: [], unreadableSnapshots: [] } : await scanSnapshots(store, snapshotSpec, rewriter)),
    unattributedSnapshots: unattributedSnapshots(store),
    derived,
  };
}

/**
 * Forgets for good (see the module comment). Unknown ids — another agent's too, or ones already forgotten — are exit
 * 3 and nothing changes (with `purgeSnapshots`, an id found only in snapshots is erased from them). With
 * `purgeSnapshots`, under the nightly lock (exit 4 while a night or restore runs), every snapshot is read first: one
 * that cannot be read is exit 4 (`snapshot_not_rewritable`) before anything changes. A snapshot whose rewrite fails
 * after the live store was changed finishes the run `partial` (exit 7), naming what still holds the text.
 */
export async function forgetMemories(store: Store, options: ForgetOptions): Promise<ForgetResult> {
  const { ids, match } = validate(options);
  const asked: EraseSpec = { agentId: options.agentId, memoryIds: ids, match };
  // With cascade, what is derived from it is forgotten too (the spec grows; recomputed inside the erase's transaction).
  const { spec, rewriter } = await expand(store, asked, forgetRewriter(match), options.cascade === true);
  const live = await store.erasure.erase(spec, rewriter, { dryRun: true });
  const liveIds = new Set(live.memories.map((memory) => memory.id));
  const missing = ids.filter((id) => !liveIds.has(id));
  if (!options.purgeSnapshots) {
    if (missing.length > 0) throw await missingMemories(store, options.agentId, missing, ' (nothing was forgotten)');
    if (isEmpty(live)) throw nothingMatches(options.agentId);
    const forgotten = await forgetLive(store, spec, rewriter, options, null);
    return { ...forgotten, snapshotsNotChecked: storeSnapshots(store).length, unattributedSnapshots: unattributedSnapshots(store) };
  }
  const lock = await acquireLock(store, { runId: newId('run', store.clock().getTime()), kind: 'memory forget' });
  try {
    // Every snapshot read before anything changes: one that cannot be rewritten stops the forget here.
    const snapshotSpec: EraseSpec = { ...spec, memoryIds: [...new Set([...ids, ...liveIds])] };
    const scanned = await scanSnapshots(store, snapshotSpec, rewriter);
    if (scanned.unreadableSnapshots.length > 0) {
      const [first] = scanned.unreadableSnapshots;
      throw new ConflictError(
        'snapshot_not_rewritable',
        `snapshot ${first!.name} cannot be read (${first!.code}), so it cannot be rewritten; nothing was forgotten. Remove it, or forget without purging snapshots`,
        { details: { snapshots: scanned.unreadableSnapshots } },
      );
    }
    if (scanned.snapshots.length > 0) checkWritable(store.snapshots.dir, scanned.snapshots);
    const inSnapshots = new Set(scanned.snapshots.flatMap((snapshot) => snapshot.memoryIds));
    const nowhere = missing.filter((id) => !inSnapshots.has(id));
    if (nowhere.length > 0) throw await missingMemories(store, options.agentId, nowhere, ' (nothing was forgotten)');
    if (isEmpty(live) && scanned.snapshots.length === 0) throw nothingMatches(options.agentId);
    const forgotten = await forgetLive(store, spec, rewriter, options, { lock, snapshots: scanned.snapshots, snapshotSpec });
    return { ...forgotten, snapshotsNotChecked: 0, unattributedSnapshots: unattributedSnapshots(store) };
  } finally {
    await lock.release();
  }
}

function nothingMatches(agentId: string): NotFoundError {
  // Never the text itself: it may be the secret being forgotten.
  return new NotFoundError('nothing_matches', `no memory or candidate of agent "${agentId}" holds that text (nothing was forgotten)`);
}

/**
 * The snapshot directory and every snapshot to rewrite must be writable before anything changes: a snapshot made
 * read-only or immutable (chattr +i) by its owner would otherwise fail only after the live store was changed.
 */
function checkWritable(dir: string, snapshots: readonly SnapshotHolding[]): void {
  for (const target of [{ path: dir, name: null }, ...snapshots.map((snapshot) => ({ path: snapshot.path, name: snapshot.name }))]) {
    try {
      accessSync(target.path, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      const what = target.name === null ? `the snapshot directory ${dir} is` : `snapshot ${target.name} is`;
      throw new ConflictError('snapshot_not_rewritable', `${what} not writable (${code}); nothing was forgotten`, {
        details: { dir, ...(target.name === null ? {} : { snapshot: target.name }), reason: code },
      });
    }
  }
}

async function forgetLive(
  store: Store,
  spec: EraseSpec,
  rewriter: EraseRewriter,
  options: ForgetOptions,
  purge: { lock: HeldLock; snapshots: SnapshotHolding[]; snapshotSpec: EraseSpec } | null,
): Promise<Omit<ForgetResult, 'snapshotsNotChecked' | 'unattributedSnapshots'>> {
  return withRun(
    store,
    'memory forget',
    options.agentId,
    async (scope) => {
      const steps: Record<string, string> = purge ? { lock: purge.lock.takenOver ? 'took over a stale lock' : 'acquired' } : {};
      scope.record.steps = steps;
      const receiptId = newId('rcpt', store.clock().getTime());
      let receipt!: ForgetReceipt;
      const report = await store.transaction(async (tx) => {
        // What was derived from it, decided in the transaction that erases it (cascade: erased with it).
        const asked: EraseSpec = { ...spec, memoryIds: [...new Set(options.ids ?? [])] };
        const expanded = await expand(tx, asked, forgetRewriter(options.match), options.cascade === true);
        // The erase re-indexes the thread neighbours of what it deletes (ErasureRepo.erase).
        const erased = await tx.erasure.erase(expanded.spec, expanded.rewriter);
        const erasedIds = erased.memories.map((memory) => memory.id);
        const auditRecords = await tx.audit.removeMemoryIds(spec.agentId, erasedIds);
        const candidates = await Promise.all(erased.candidatesChanged.map((id) => tx.candidates.get(spec.agentId, id)));
        receipt = {
          id: receiptId,
          agentId: spec.agentId,
          createdAt: iso(store.clock()),
          runId: scope.run.id,
          memories: erased.memories.map((memory) => ({ id: memory.id, versionOf: memory.versionOf, sha256: textSha256(memory.content) })),
          matchSha256: options.match === undefined ? null : textSha256(options.match),
          cascade: options.cascade === true,
          derived: expanded.derived,
          erased: {
            memoryRows: erased.memories.length,
            searchEntries: erased.memories.length,
            neighbourThreads: new Set(erased.memories.flatMap((memory) => (memory.thread ? [memory.thread] : []))).size,
            candidatesChanged: erased.candidatesChanged.length,
            candidatesDeleted: erased.candidatesDeleted.length,
            storedPromptsRewritten: candidates.filter((candidate) => candidate !== undefined).length + erased.handoffsChanged.length,
            handoffsChanged: erased.handoffsChanged.length,
            auditRecords,
            snapshotsRewritten: null,
            snapshotsNotChecked: 0,
          },
          reclaim: null,
        };
        await tx.receipts.insert({
          agentId: spec.agentId,
          id: receiptId,
          createdAt: receipt.createdAt,
          runId: scope.run.id,
          memoryIds: erasedIds,
          receipt: receipt as unknown as Record<string, unknown>,
        });
        return erased;
      });
      steps.erase = 'done';
      steps.receipt = receiptId;
      const counts = {
        memories: report.memories.filter((memory) => memory.versionOf === null).length,
        olderVersions: report.memories.filter((memory) => memory.versionOf !== null).length,
        candidatesChanged: report.candidatesChanged.length,
        candidatesDeleted: report.candidatesDeleted.length,
        handoffsChanged: report.handoffsChanged.length,
      };
      scope.record.counts = counts;
      const memoryIds = new Set(report.memories.map((memory) => memory.id));
      // The ids (never the text) are on the row however it ends; a purge adds those found only in snapshots.
      scope.record.memoryIds = [...memoryIds];
      const reclaim = await store.reclaim();
      steps.reclaim = reclaim.steps.join('; ');
      let rewritten: string[] | null = null;
      if (purge) {
        rewritten = [];
        const failed: { name: string; code: string }[] = [];
        for (const snapshot of purge.snapshots) {
          try {
            await store.snapshots.erase(snapshot.path, purge.snapshotSpec, rewriter);
            rewritten.push(snapshot.name);
            for (const id of snapshot.memoryIds) memoryIds.add(id);
            scope.record.memoryIds = [...memoryIds];
          } catch (error) {
            failed.push({ name: snapshot.name, code: error instanceof HippoError ? error.code : 'unexpected' });
          }
        }
        Object.assign(counts, { snapshotsRewritten: rewritten.length, snapshotsFailed: failed.length });
        steps.snapshots = failed.length === 0 ? `rewrote ${rewritten.length} snapshot(s)` : `rewrote ${rewritten.length}, failed ${failed.length}`;
        if (failed.length > 0) {
          receipt = { ...receipt, reclaim, erased: { ...receipt.erased, snapshotsRewritten: rewritten } };
          await store.receipts.update(spec.agentId, receiptId, receipt as unknown as Record<string, unknown>);
          const run = await scope.finish({ status: 'partial', counts, errors: [...new Set(failed.map((failure) => failure.code))], steps });
          throw new HippoError(
            'snapshot_purge_incomplete',
            `the memories were forgotten, but ${failed.length} snapshot(s) could not be rewritten and still hold them (${failed.map((failure) => `${failure.name}: ${failure.code}`).join(', ')}); forget the same ids again with purging snapshots`,
            ExitCode.partial,
            { details: { run, failed, memoryIds: [...memoryIds], receiptId } },
          );
        }
      }
      receipt = {
        ...receipt,
        reclaim,
        erased: { ...receipt.erased, snapshotsRewritten: rewritten, snapshotsNotChecked: purge ? 0 : storeSnapshots(store).length },
      };
      await store.receipts.update(spec.agentId, receiptId, receipt as unknown as Record<string, unknown>);
      const run = await scope.finish({ status: 'completed', counts, candidateIds: [...report.candidatesChanged, ...report.candidatesDeleted], steps });
      return {
        receipt,
        run,
        forgotten: report.memories.map((memory) => ({ id: memory.id, versionOf: memory.versionOf })),
        candidatesChanged: report.candidatesChanged,
        candidatesDeleted: report.candidatesDeleted,
        handoffsChanged: report.handoffsChanged,
        reclaim,
        snapshotsRewritten: rewritten,
      };
    },
    purge ? { id: purge.lock.holder.runId, signal: options.signal } : { signal: options.signal },
  );
}
