/**
 * Issue 29, through the built CLI and real MCP clients on both engines: the read audit (who was handed which
 * memories), forget receipts (hashes, derived knowledge flagged or cascaded, audit records cleared) and their later
 * verification — with the hostile cases: another agent's audit, a forged or another agent's receipt, a text the
 * receipt does not cover, a read by a client that leaves at once.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineSandbox, json, type EngineSandbox } from '../helpers/cli.js';
import { call, callError, CLIENT_INFO, httpClient, startHttpServer, stdioClient, type Json } from '../helpers/mcp.js';

const SECRET = 'The vault door code is 4417-alpha-kestrel';
const OTHER = 'Deploys go out on Tuesdays after the standup';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const CLIENT = `${CLIENT_INFO.name} ${CLIENT_INFO.version}`;

describe.each(['sqlite', 'postgres'] as const)('governance on %s', { timeout: 240_000 }, (engine) => {
  let box: EngineSandbox;
  const add = async (content: string, agent = 'alice') => {
    const result = await box.hippo(['memory', 'add', content, '--agent', agent, '--json']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    return json<{ memory: { id: string } }>(result).memory.id;
  };
  /** Stages candidates citing `ids` through the MCP distill loop; returns their ids in order. */
  const stage = async (claims: { claim: string; cite: string[] }[], agent = 'alice') => {
    const session = await stdioClient(box, ['--agent', agent]);
    try {
      const prompt = await call(session.client, 'rem_prompt', { scope: 'all', maxCandidates: 10 });
      const refByMemory = Object.fromEntries(Object.entries(prompt.handoff.refs as Record<string, string>).map(([ref, id]) => [id, ref]));
      const answer = { candidates: claims.map(({ claim, cite }) => ({ claim, sources: cite.map((id) => refByMemory[id]), tags: [] })) };
      const staged = await call(session.client, 'rem_ingest', { handoff: prompt.handoff.id, answer });
      return (staged.candidates as { id: string }[]).map((candidate) => candidate.id);
    } finally {
      await session.close();
    }
  };
  const promote = async (candidateId: string, agent = 'alice') => {
    const result = await box.hippo(['rem', 'promote', candidateId, '--rationale', 'keep', '--agent', agent, '--json']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    return (json<Json>(result).promoted[0].memory as { id: string }).id;
  };
  const reads = async (args: string[]) => {
    const result = await box.hippo(['audit', 'reads', ...args, '--json']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    return json<{ reads: Json[] }>(result).reads;
  };

  beforeAll(async () => {
    box = await engineSandbox(engine);
  });
  afterAll(async () => {
    await box.dispose();
  });

  it('records what an MCP client over stdio was handed (ids, never text), and shows it only to its own agent', async () => {
    const secret = await add(SECRET);
    const other = await add(OTHER);
    const session = await stdioClient(box, ['--agent', 'alice']);
    const found = await call(session.client, 'memory_search', { query: 'vault door code' });
    expect(found.results.map((result: Json) => result.memory.id)).toEqual([secret]);
    await call(session.client, 'memory_get', { id: other });
    await session.client.readResource({ uri: `hippo://memory/${secret}` });
    // The client leaves at once: the reads it was answered are recorded all the same.
    await session.close();

    const all = await reads(['--agent', 'alice']);
    const byOperation = Object.fromEntries(all.map((read) => [read.operation, read]));
    expect(byOperation.memory_search).toMatchObject({ agentId: 'alice', channel: 'mcp-stdio', client: CLIENT, tokenId: null, memoryIds: [secret] });
    expect(byOperation.memory_search.queryHash).toMatch(/^[0-9a-f]{32}$/);
    expect(byOperation.memory_get).toMatchObject({ memoryIds: [other], queryHash: null });
    expect(byOperation['resources/read']).toMatchObject({ memoryIds: [secret] });
    // Never the query or a memory's text.
    const raw = String((await box.hippo(['audit', 'reads', '--agent', 'alice', '--json'])).stdout);
    expect(raw).not.toMatch(/vault|4417|Tuesdays/);

    expect((await reads(['--agent', 'alice', '--memory', other])).map((read) => read.operation)).toEqual(['memory_get']);
    expect(await reads(['--agent', 'alice', '--client', 'someone-else 9'])).toEqual([]);
    // Another agent sees none of alice's reads, by the CLI…
    expect(await reads(['--agent', 'mallory'])).toEqual([]);
    expect(await reads(['--agent', 'mallory', '--memory', secret])).toEqual([]);
    // …nor over MCP: audit_reads exists only with --allow-review, and serves only the server's own agent.
    const plain = await stdioClient(box, ['--agent', 'alice']);
    expect((await plain.client.listTools()).tools.map((tool) => tool.name)).not.toContain('audit_reads');
    await plain.close();
    const mallory = await stdioClient(box, ['--agent', 'mallory', '--allow-review']);
    expect((await call(mallory.client, 'audit_reads', {})).reads).toEqual([]);
    expect((await call(mallory.client, 'audit_reads', { memoryId: secret })).reads).toEqual([]);
    expect((await callError(mallory.client, 'audit_reads', { agentId: 'alice' })).code).toBe('usage');
    await mallory.close();
    const reviewer = await stdioClient(box, ['--agent', 'alice', '--allow-review']);
    const mine = (await call(reviewer.client, 'audit_reads', { memoryId: secret })).reads as Json[];
    expect(mine.map((read) => read.operation).sort()).toEqual(['memory_search', 'resources/read']);
    await reviewer.close();
  });

  it('records the token id of an HTTP session', async () => {
    const id = await add('HTTP reads are audited too', 'hank');
    const created = await box.hippo(['mcp', 'token', 'create', '--agent', 'hank', '--json']);
    const { token, secret } = json<{ token: { id: string }; secret: string }>(created);
    const server = await startHttpServer(box, ['--require-token']);
    try {
      const client = await httpClient(server.url, secret);
      await call(client, 'memory_list', {});
      await client.close();
    } finally {
      await server.stop();
    }
    const [read] = await reads(['--agent', 'hank']);
    expect(read).toMatchObject({ channel: 'mcp-http', client: CLIENT, tokenId: token.id, operation: 'memory_list', memoryIds: [id] });
  });

  it('records a read answered while another process holds the store (hostile review: no read hidden by a busy store)', async () => {
    const id = await add('The heron gate opens with swordfish', 'erin');
    const session = await stdioClient(box, ['--agent', 'erin']);
    // Another process holds the store's write lock for a second: a CLI write, an import, a nightly run.
    const release = await holdStore(box.env.HIPPO_DB!);
    try {
      const found = await call(session.client, 'memory_search', { query: 'heron gate' });
      expect(found.results.map((result: Json) => result.memory.id)).toEqual([id]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await release();
    }
    await session.close();
    expect((await reads(['--agent', 'erin'])).map((read) => [read.operation, read.memoryIds])).toEqual([['memory_search', [id]]]);
  });

  it('records an insight handed over as a promoted candidate (hostile review: candidates_list and candidate_show)', async () => {
    const source = await add('The quarterly audit found the pelican ledger off by 12 percent', 'fred');
    const [pending, promoted] = await stage(
      [
        { claim: 'Ledgers drift without monthly checks', cite: [source] },
        { claim: 'The pelican ledger needs a monthly reconciliation', cite: [source] },
      ],
      'fred',
    );
    const insight = await promote(promoted!, 'fred');
    const session = await stdioClient(box, ['--agent', 'fred']);
    // A promoted candidate's claim is the insight memory's text: handed over as much as memory_get would hand it.
    const listed = await call(session.client, 'candidates_list', { status: 'promoted' });
    expect(listed.candidates.map((candidate: Json) => candidate.claim)).toEqual(['The pelican ledger needs a monthly reconciliation']);
    await call(session.client, 'candidate_show', { id: promoted });
    // Pending claims are no memory's text yet: a list of them hands over no memory.
    await call(session.client, 'candidates_list', {});
    await call(session.client, 'candidate_show', { id: pending });
    await session.close();
    expect((await reads(['--agent', 'fred', '--memory', insight])).map((read) => read.operation).sort()).toEqual(['candidate_show', 'candidates_list']);
    const candidateReads = (await reads(['--agent', 'fred'])).filter((read) => read.operation.startsWith('candidate'));
    expect(candidateReads.map((read) => [read.operation, read.memoryIds])).toEqual([
      ['candidate_show', [source]],
      ['candidate_show', [source, insight]],
      ['candidates_list', [insight]],
    ]);
  });

  it('forgets with a receipt, flags what was derived, clears the audit, and verifies later', async () => {
    const source = await add('Rotate the staging key every 30 days, code word heron-771', 'fred');
    const reader = await stdioClient(box, ['--agent', 'fred']);
    await call(reader.client, 'memory_get', { id: source });
    await reader.close();
    expect((await reads(['--agent', 'fred', '--memory', source])).length).toBe(1);
    // (the distill loop below hands it over once more: rem_prompt)
    const [promoted, pending] = await stage(
      [
        { claim: 'Staging keys are rotated monthly', cite: [source] },
        { claim: 'Code words are used for staging keys', cite: [source] },
      ],
      'fred',
    );
    const insight = await promote(promoted!, 'fred');

    const plan = json<Json>(await box.hippo(['memory', 'forget', source, '--agent', 'fred', '--dry-run', '--json']));
    expect(plan.derived.insights).toEqual([{ id: insight, cites: [source], action: 'flagged' }]);
    expect(plan.derived.candidates).toContainEqual({ id: pending, status: 'pending', cites: [source], action: 'flagged' });

    const forgot = await box.hippo(['memory', 'forget', source, '--agent', 'fred', '--yes', '--json']);
    expect(forgot.exitCode, String(forgot.stderr)).toBe(0);
    const receipt = json<Json>(forgot).receipt;
    expect(receipt.id).toMatch(/^rcpt_/);
    expect(receipt.memories).toEqual([{ id: source, versionOf: null, sha256: sha256('Rotate the staging key every 30 days, code word heron-771') }]);
    expect(receipt.derived.insights).toEqual([{ id: insight, cites: [source], action: 'flagged' }]);
    expect(receipt.erased).toMatchObject({ memoryRows: 1, searchEntries: 1, auditRecords: 2, snapshotsRewritten: null });
    expect(receipt.reclaim.complete).toBe(true);
    expect(String(forgot.stdout)).not.toContain('heron');
    // The audit no longer names it; the insight says its source was forgotten (CLI and MCP).
    expect(await reads(['--agent', 'fred', '--memory', source])).toEqual([]);
    const shown = await box.hippo(['memory', 'show', insight, '--agent', 'fred']);
    expect(String(shown.stdout)).toContain(`a source was forgotten: ${source}`);
    const session = await stdioClient(box, ['--agent', 'fred']);
    expect((await call(session.client, 'memory_get', { id: insight })).forgottenSources).toEqual([source]);
    expect((await call(session.client, 'candidate_show', { id: pending })).candidate.forgottenSourceIds).toEqual([source]);
    await session.close();

    const verify = (id: string, text: string, agent = 'fred') => box.hippo(['memory', 'forget', '--verify', id, '--agent', agent, '--json'], { input: text });
    const verified = await verify(receipt.id, 'Rotate the staging key every 30 days, code word heron-771\n');
    expect(verified.exitCode, String(verified.stderr)).toBe(0);
    const report = json<Json>(verified);
    expect(report).toMatchObject({ receiptId: receipt.id, memoryId: source, absent: true });
    expect(report.places[0]).toEqual({ place: 'live store: memories, candidates, stored prompts', status: 'absent', where: [] });
    if (engine === 'sqlite') expect(report.places.some((place: Json) => place.place.startsWith('raw file '))).toBe(true);

    // Hostile: a forged id, another agent replaying fred's receipt, a text the receipt does not cover.
    const forged = await verify('rcpt_01JD3Z8N6Q2W4E5R7T9Y1V3J5M', 'anything');
    expect(forged.exitCode).toBe(3);
    expect(json<Json>(forged).error.code).toBe('receipt_not_found');
    const replayed = await verify(receipt.id, 'Rotate the staging key every 30 days, code word heron-771', 'mallory');
    expect(replayed.exitCode).toBe(3);
    expect(json<Json>(replayed).error.code).toBe('receipt_not_found');
    const fishing = await verify(receipt.id, OTHER);
    expect(fishing.exitCode).toBe(2);
    expect(json<Json>(fishing).error.code).toBe('text_not_in_receipt');
  });

  it('finds a text the receipt covers where it is still held', async () => {
    const text = 'Gate PIN for the north lot is 5521';
    const held = await add(text, 'gina');
    const receiptOf = async (id: string) => json<Json>(await box.hippo(['memory', 'forget', id, '--agent', 'gina', '--yes', '--json'])).receipt;
    const receipt = await receiptOf(held);
    // The same text stored again afterwards: verify must not say "absent".
    const again = await add(text, 'gina');
    const verified = await box.hippo(['memory', 'forget', '--verify', receipt.id, '--agent', 'gina', '--json'], { input: text });
    expect(verified.exitCode).toBe(7);
    const report = json<Json>(verified);
    expect(report.absent).toBe(false);
    expect(report.places[0]).toMatchObject({ status: 'found', where: [`memory ${again}`] });
  });

  it("verify scans the search context a thread neighbour keeps of the forgotten text (review of issue 29: PostgreSQL's too)", async () => {
    const text = 'The boathouse alarm code is 8093-otter';
    const inThread = async (content: string) =>
      json<{ memory: { id: string } }>(await box.hippo(['memory', 'add', content, '--thread', 'dock', '--agent', 'kim', '--json'])).memory.id;
    const before = await inThread('We met at the boathouse on Monday');
    const secret = await inThread(text);
    await inThread('Lunch was at the pier café');
    const forgot = await box.hippo(['memory', 'forget', secret, '--agent', 'kim', '--yes', '--json']);
    expect(forgot.exitCode, String(forgot.stderr)).toBe(0);
    const receipt = json<Json>(forgot).receipt.id as string;
    const verify = () => box.hippo(['memory', 'forget', '--verify', receipt, '--agent', 'kim', '--json'], { input: text });
    const contexts = (report: Json) => report.places.find((place: Json) => place.place === "live store: neighbours' search contexts");

    const clean = await verify();
    expect(clean.exitCode, String(clean.stderr)).toBe(0);
    expect(contexts(json<Json>(clean))).toEqual({ place: "live store: neighbours' search contexts", status: 'absent', where: [] });

    // The neighbour's context still holding the text (a rebuild that missed it): verify must say where.
    await plantContext(box.env.HIPPO_DB!, 'kim', before, `Before it: ${text}`);
    const dirty = await verify();
    expect(dirty.exitCode).toBe(7);
    const report = json<Json>(dirty);
    expect(report.absent).toBe(false);
    expect(contexts(report)).toEqual({ place: "live store: neighbours' search contexts", status: 'found', where: [`search context of memory ${before}`] });
    expect(report.places[0]).toMatchObject({ place: 'live store: memories, candidates, stored prompts', status: 'absent' });
  });

  it('refuses memory ids or erasing flags given with --verify, exit 2, and changes nothing (review of issue 29)', async () => {
    const kept = await add('The greenhouse key hangs by the door', 'lee');
    const gone = await add('The shed padlock is 3312', 'lee');
    const receipt = json<Json>(await box.hippo(['memory', 'forget', gone, '--agent', 'lee', '--yes', '--json'])).receipt.id as string;
    for (const extra of [[kept], ['--match', 'greenhouse'], ['--cascade'], ['--purge-snapshots'], ['--dry-run']]) {
      const result = await box.hippo(['memory', 'forget', ...extra, '--verify', receipt, '--agent', 'lee', '--yes', '--json'], {
        input: 'The shed padlock is 3312',
      });
      expect(result.exitCode, extra.join(' ')).toBe(2);
      const error = json<Json>(result).error;
      expect(error.code).toBe('usage');
      expect(error.message).toContain('--verify takes a receipt id');
      expect(error.message).toContain(extra[0] === kept ? 'memory ids' : extra[0]);
    }
    expect((await box.hippo(['memory', 'show', kept, '--agent', 'lee'])).exitCode).toBe(0);
    // Alone (with --yes, which verify does not need), it verifies.
    const alone = await box.hippo(['memory', 'forget', '--verify', receipt, '--agent', 'lee', '--yes', '--json'], { input: 'The shed padlock is 3312' });
    expect(alone.exitCode, String(alone.stderr)).toBe(0);
    expect(json<Json>(alone).absent).toBe(true);
  });

  it('--cascade forgets derived insights recursively and pending candidates, under one receipt', async () => {
    const source = await add('Customer Ivo prefers invoices in Croatian kuna', 'cara');
    const [first, pendingId] = await stage(
      [
        { claim: 'Ivo wants kuna invoices', cite: [source] },
        { claim: 'Some customers want local currency', cite: [source] },
      ],
      'cara',
    );
    const insight = await promote(first!, 'cara');

    const plan = json<Json>(await box.hippo(['memory', 'forget', source, '--agent', 'cara', '--cascade', '--dry-run', '--json']));
    expect(plan.memories.map((memory: Json) => memory.id).sort()).toEqual([source, insight].sort());

    const result = await box.hippo(['memory', 'forget', source, '--agent', 'cara', '--cascade', '--yes', '--json']);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const receipt = json<Json>(result).receipt;
    expect(receipt.cascade).toBe(true);
    expect(receipt.memories.map((memory: Json) => memory.id).sort()).toEqual([source, insight].sort());
    expect(receipt.derived.insights).toEqual([{ id: insight, cites: [source], action: 'forgotten' }]);
    expect(receipt.derived.candidates).toContainEqual({ id: pendingId, status: 'pending', cites: [source], action: 'deleted' });
    for (const id of [insight]) expect((await box.hippo(['memory', 'show', id, '--agent', 'cara'])).exitCode).toBe(3);
    const listed = json<Json>(await box.hippo(['rem', 'candidates', '--agent', 'cara', '--status', 'all', '--json']));
    expect(listed.candidates.map((candidate: Json) => candidate.id)).not.toContain(pendingId);
  });

  it('records the thread neighbour whose text a CLI search showed (hostile review: audit.cliReads on)', async () => {
    const shown = json<{ memory: { id: string } }>(
      await box.hippo(['memory', 'add', 'we adopted a beagle on Saturday', '--thread', 't1', '--tag', 'pets', '--agent', 'gina', '--json']),
    ).memory.id;
    const hit = json<{ memory: { id: string } }>(
      await box.hippo(['memory', 'add', 'Biscuit. The kids voted on it.', '--thread', 't1', '--tag', 'kids', '--agent', 'gina', '--json']),
    ).memory.id;
    expect((await box.hippo(['config', 'set', 'audit.cliReads', 'on'])).exitCode).toBe(0);
    try {
      // The hit is the tagged turn; the beagle is shown as the neighbour that matched, though its tag is filtered out.
      const found = await box.hippo(['search', 'beagle', '--tag', 'kids', '--agent', 'gina']);
      expect(String(found.stdout)).toContain(`matched nearby (${shown}): we adopted a **beagle** on Saturday`);
    } finally {
      expect((await box.hippo(['config', 'set', 'audit.cliReads', 'off'])).exitCode).toBe(0);
    }
    expect((await reads(['--agent', 'gina'])).map((read) => [read.channel, read.operation, read.memoryIds])).toEqual([['cli', 'search', [hit, shown]]]);
  });

  it('records CLI exports and extractions over memories when audit.cliReads is on (review of issue 29)', async () => {
    const mailed = await add('Invoices go to billing@example.com every Monday', 'ivy');
    const plain = await add('The office plants are watered on Fridays', 'ivy');
    const foreign = await add('Jules keeps the spare key', 'jules');
    const file = `${box.dir}/ivy-export.jsonl`;
    expect((await box.hippo(['config', 'set', 'audit.cliReads', 'on'])).exitCode).toBe(0);
    try {
      for (const args of [
        ['memory', 'export', '--agent', 'ivy'],
        ['memory', 'export', '--agent', 'ivy', '--json'],
        ['memory', 'export', '--agent', 'ivy', '--output', file],
        ['memory', 'export', '--all-agents'],
        ['extract', 'email', '--memory', mailed, '--memory', plain, '--agent', 'ivy'],
        ['extract', 'email', '--query', 'invoices billing', '--agent', 'ivy'],
      ]) {
        const result = await box.hippo(args);
        expect(result.exitCode, `${args.join(' ')}: ${String(result.stderr)}`).toBe(0);
      }
      expect(String((await box.hippo(['extract', 'email', '--memory', mailed, '--agent', 'ivy'])).stdout)).toContain('billing@example.com');
    } finally {
      expect((await box.hippo(['config', 'set', 'audit.cliReads', 'off'])).exitCode).toBe(0);
    }
    const ivy = (await reads(['--agent', 'ivy'])).reverse();
    expect(ivy.map((read) => [read.channel, read.operation, [...read.memoryIds].sort()])).toEqual([
      ...Array.from({ length: 4 }, () => ['cli', 'memory export', [mailed, plain].sort()]),
      // Only the memory whose facts were shown is handed over by an extraction.
      ['cli', 'extract', [mailed]],
      ['cli', 'extract', [mailed]],
      ['cli', 'extract', [mailed]],
    ]);
    expect(ivy[4].queryHash).toBeNull();
    expect(ivy[5].queryHash).toMatch(/^[0-9a-f]{32}$/);
    // --all-agents: each agent's memories under that agent.
    expect((await reads(['--agent', 'jules', '--memory', foreign])).map((read) => read.operation)).toEqual(['memory export']);
    // Off again: nothing more is recorded.
    expect((await box.hippo(['memory', 'export', '--agent', 'ivy'])).exitCode).toBe(0);
    expect(await reads(['--agent', 'ivy'])).toHaveLength(7);
  });

  it('prunes read records by age (every agent), recorded as a run', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const dry = json<Json>(await box.hippo(['audit', 'prune', '--older-than', '1s', '--dry-run', '--json']));
    expect(dry.pruned).toBeGreaterThan(0);
    const pruned = json<Json>(await box.hippo(['audit', 'prune', '--older-than', '1s', '--json']));
    expect(pruned).toMatchObject({ pruned: dry.pruned, dryRun: false });
    expect(pruned.run.kind).toBe('audit prune');
    expect(await reads(['--agent', 'alice'])).toEqual([]);
  });
});

/**
 * Puts `text` into a memory's search context (the text of its thread neighbours) from another connection. PostgreSQL
 * stores the context in the row; SQLite computes it in the view memories_search (migration 13), so the view is
 * replaced by one that also lends the memory `text`, standing for a context computed wrong.
 */
async function plantContext(location: string, agentId: string, memoryId: string, text: string): Promise<void> {
  if (!location.startsWith('postgres')) {
    const db = new Database(location);
    try {
      const view = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'memories_search'").pluck().get() as string;
      const rowid = db.prepare('SELECT rowid FROM memories WHERE agent_id = ? AND id = ?').pluck().get(agentId, memoryId) as number;
      db.exec(`DROP VIEW memories_search; ${view.replace('VIEW memories_search AS', 'VIEW memories_search_computed AS')};`);
      db.prepare(
        `CREATE VIEW memories_search AS SELECT rowid, content, tags, subject, agent_id, context_before,
           CASE WHEN rowid = ${rowid} THEN '${text.replaceAll("'", "''")}' ELSE context_after END AS context_after, date_words
         FROM memories_search_computed`,
      ).run();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    expect((await client.query('UPDATE memories SET context_after = $1 WHERE agent_id = $2 AND id = $3', [text, agentId, memoryId])).rowCount).toBe(1);
  } finally {
    await client.end();
  }
}

/** Takes the store's write side from another connection (SQLite: the write lock; PostgreSQL: the read audit's table). */
async function holdStore(location: string): Promise<() => Promise<void>> {
  if (!location.startsWith('postgres')) {
    const db = new Database(location);
    db.exec('BEGIN IMMEDIATE');
    return async () => {
      db.exec('COMMIT');
      db.close();
    };
  }
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE read_audit IN ACCESS EXCLUSIVE MODE');
  return async () => {
    await client.query('COMMIT');
    await client.end();
  };
}
