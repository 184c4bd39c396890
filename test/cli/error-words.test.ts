import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_WORDED, cliMessage, cliWords } from '../../src/cli/error-words.js';
import { ERROR_CODES, ExitCode, HippoError, type ErrorCode } from '../../src/core/errors.js';
import { forgetMemories } from '../../src/core/memory/forget.js';
import { addMemory, buildMemory, listMemories, validateAgentId } from '../../src/core/memory/memory.js';
import { modelNotConfigured, modelTimeout } from '../../src/core/model/errors.js';
import { answerRejected } from '../../src/core/model/answer-problem.js';
import { pruneSnapshots } from '../../src/core/nightly/snapshot.js';
import { resolveSnapshot } from '../../src/core/nightly/restore.js';
import { resolveDbPath } from '../../src/core/paths.js';
import { listCandidates } from '../../src/core/rem/candidates.js';
import { distill } from '../../src/core/rem/distill.js';
import { gather } from '../../src/core/rem/gather.js';
import { createHandoff } from '../../src/core/rem/handoff.js';
import { parseFocus } from '../../src/core/rem/prompt.js';
import { promote, reject } from '../../src/core/rem/review.js';
import { search } from '../../src/core/search.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import type { Scope } from '../../src/core/rem/gather.js';
import { errorOf } from '../helpers/errors.js';
import { tempStore } from '../helpers/store.js';
import { stageCandidates } from '../helpers/candidates.js';

let store: Awaited<ReturnType<typeof tempStore>>;
beforeEach(async () => {
  store = await tempStore();
});
afterEach(() => store.done());

const FLAG = /(^|[\s(`])--[a-z]/;

/** Core's message speaks to a library user (no flag); the CLI's names the flag; the code is the same. */
function expectWorded(error: Awaited<ReturnType<typeof errorOf>>, code: string, cli: string): void {
  expect(error.code).toBe(code);
  expect(error.message).not.toMatch(FLAG);
  expect(cliMessage(error)).toBe(cli);
}

describe('core errors in their own words, and the CLI in its', () => {
  it.each([
    ['bad_scope', () => gather(store, { agentId: 'a', scope: 'everything' as Scope }), '--scope must be one of recent, tagged, all'],
    ['bad_max_memories', () => gather(store, { agentId: 'a', maxMemories: 0 }), '--max-memories must be a whole number from 1 to 10000'],
    ['tag_required', () => gather(store, { agentId: 'a', scope: 'tagged' }), '--scope tagged needs --tag TAG (it never means "everything")'],
    ['bad_focus', () => parseFocus('gossip'), '--focus must be one of lessons, patterns, decisions, errors, preferences'],
    ['bad_status', () => listCandidates(store, { agentId: 'a', status: 'maybe' as 'all' }), '--status must be one of pending, promoted, rejected, all'],
    ['bad_limit', () => search(store, { agentId: 'a', query: 'x', limit: 0 }), '--limit must be a whole number from 1 to 1000000'],
    [
      'bad_durability',
      () => search(store, { agentId: 'a', query: 'x', durability: 'forever' as 'standard' }),
      '--durability must be one of permanent, persistent, standard, ephemeral',
    ],
    [
      'bad_agent',
      () => validateAgentId(' '),
      'the agent id must be 1–128 visible characters, no space at either end: no control, bidi, invisible format or default-ignorable characters (joiners, variation selectors, fillers)\nSet --agent or HIPPO_AGENT.',
    ],
    [
      'expires_on_durable',
      () => buildMemory({ agentId: 'a', content: 'x', durability: 'persistent', expiresAt: '2030-01-01T00:00:00.000Z' }, new Date()),
      'a persistent memory never expires: give no --expires, or make it standard or ephemeral',
    ],
    [
      'bad_max_age_days',
      () => pruneSnapshots(store, { keepLast: 3, keepHourly: 24, keepDaily: 7, keepWeekly: 4, maxAgeDays: 0 }),
      '--keep-days must be a whole number from 1 to 36500',
    ],
    ['bad_limit', () => listMemories(store, { agentId: 'a', limit: 2 ** 60 }), '--limit must be a whole number from 1 to 1000000'],
    ['nothing_to_forget', () => forgetMemories(store, { agentId: 'a' }), 'say what to forget: memory ids, or --match TEXT (--match - reads it from stdin)'],
    ['nothing_to_distill', () => createHandoff(store, { agentId: 'a' }), 'no memories in scope to distill\nTry --since 7d or --scope all.'],
    ['snapshot_not_found', () => resolveSnapshot(store, 'nope.db'), 'no snapshot "nope.db"\nList them with: hippo rem snapshots'],
  ])('%s', async (code, fn, cli) => {
    expectWorded(await errorOf(fn), code, cli);
  });

  it('bad_max_candidates (distill checks it before anything else)', async () => {
    const error = await distill(store, undefined, { agentId: 'a', maxCandidates: 0 }).catch((caught: unknown) => caught);
    expectWorded(error as Awaited<ReturnType<typeof errorOf>>, 'bad_max_candidates', '--max-candidates must be a whole number from 1 to 100');
  });

  it('fts_syntax keeps SQLite’s reason in its details', async () => {
    await addMemory(store, { agentId: 'a', content: 'a note' });
    const error = await errorOf(() => search(store, { agentId: 'a', query: 'a AND', raw: true }));
    expect(error.details?.syntaxError).toEqual(expect.any(String));
    expectWorded(
      error,
      'fts_syntax',
      `the --raw query is not valid FTS5 syntax (${String(error.details!.syntaxError)}); drop --raw to search the words as plain text`,
    );
  });

  it('rationale_required, reason_required and source_deleted', async () => {
    const [first] = (await stageCandidates(store, [{ claim: 'A claim.', sources: ['m1'] }])).candidates;
    expectWorded(
      await errorOf(() => promote(store, { agentId: 'ops', ids: [first!.id], rationale: ' ' })),
      'rationale_required',
      '--rationale is required and must not be blank: say why this insight should be kept',
    );
    expectWorded(
      await errorOf(() => reject(store, { agentId: 'ops', ids: [first!.id], reason: '' })),
      'reason_required',
      '--reason is required and must not be blank: say why this candidate is wrong or not worth keeping',
    );
    const [source] = first!.sourceMemoryIds;
    store.db.prepare('DELETE FROM memories WHERE id = ?').run(source);
    expectWorded(
      await errorOf(() => promote(store, { agentId: 'ops', ids: [first!.id], rationale: 'seen twice' })),
      'source_deleted',
      `candidate ${first!.id} cites 1 memory no longer in the database (${source})\nPass --allow-missing-sources to promote anyway.`,
    );
  });

  it('the database path: a directory, a URL, a SQLite file that is not hippo’s', async () => {
    const directory = join(store.dir, 'a-directory');
    mkdirSync(directory);
    expectWorded(
      await errorOf(() => openSqliteStore({ path: directory })),
      'not_a_database',
      `${directory} is a directory, not a hippo database file\nPass a file path with --db.`,
    );
    expectWorded(
      await errorOf(() => resolveDbPath('mysql://db/hippo', {})),
      'unsupported_database',
      '--db is a mysql:// URL\nGive a SQLite file path or a postgres:// URL.',
    );
    expect(cliMessage(await errorOf(() => resolveDbPath(undefined, { HIPPO_DB: 'mysql://db/hippo' })))).toMatch(/^HIPPO_DB is a mysql:\/\/ URL/);
    // A PostgreSQL URL a slash short is refused, never made a SQLite file in the current directory.
    for (const typo of ['postgres:/hippo@db/hippo', 'postgresql:hippo@db/hippo', 'POSTGRES:db']) {
      expect((await errorOf(() => resolveDbPath(typo, {}))).code, typo).toBe('bad_postgres_url');
      expect((await errorOf(() => resolveDbPath(undefined, { HIPPO_DB: typo }))).code, typo).toBe('bad_postgres_url');
    }
    expect(resolveDbPath(' postgresql://db/hippo ', {})).toBe('postgresql://db/hippo');
  });

  it('model errors: core names environment variables and the config file; the CLI adds --model and --prompt-only', async () => {
    const none = modelNotConfigured();
    expect(none.message).toContain('export HIPPO_MODEL=ollama:llama3.2');
    expect(none.message).not.toMatch(FLAG);
    // Core's message and its fix stay the message; the CLI's ways out are next steps, one a line.
    expect(cliWords(none)).toEqual({
      message: none.message,
      actions: [
        'Pass --model to choose one for a single command.',
        'Without a model, use --prompt-only to hand the prompt to any LLM and bring the answer back with `hippo rem ingest`.',
      ],
    });
    expect(cliMessage(none)).toBe(`${none.message}\nPass --model to choose one for a single command.\n${cliWords(none).actions![1]}`);
    for (const error of [modelTimeout(800), answerRejected({ reason: 'invalid_json', message: 'it contained no JSON object' })]) {
      expect(error.message).not.toMatch(FLAG);
      expect(cliWords(error).message).toBe(error.message);
      expect(cliWords(error).actions).toEqual([expect.stringMatching(/--prompt-only/)]);
    }
    // An ingested answer is already the prompt-only route: nothing to add.
    const ingested = answerRejected({ reason: 'invalid_json', message: 'no' }, { details: { handoffId: 'hof_x' } });
    expect(cliWords(ingested)).toEqual({ message: ingested.message });
  });

  it('leaves every other message as core wrote it: each code the CLI does not word, with or without details', async () => {
    const error = await errorOf(() => addMemory(store, { agentId: 'a', content: ' ' }));
    expect(CLI_WORDED.has(error.code)).toBe(false);
    expect(cliMessage(error)).toBe(error.message);
    const others = ERROR_CODES.filter((code) => !CLI_WORDED.has(code));
    expect(others.length).toBeGreaterThan(80);
    for (const code of [...others, 'http_status_404' as const, 'http_status_429' as const]) {
      for (const details of [undefined, { path: '/x', what: 'w', allowed: ['a', 'b'], handoffId: 'h', min: 1, max: 2 }]) {
        const other = new HippoError(code, `core words for ${code}`, ExitCode.usage, { details });
        expect(cliWords(other), code).toEqual({ message: `core words for ${code}` });
      }
    }
  });

  it('shows core’s own next steps before the CLI’s, and an error without any has no actions', () => {
    const core = new HippoError('model_unreachable', 'could not get an answer', ExitCode.modelUnavailable, { actions: ['Start the server.'] });
    expect(cliWords(core).actions).toEqual(['Start the server.', expect.stringMatching(/^Without a model, use --prompt-only/)]);
    expect(cliMessage(core).split('\n')).toEqual(['could not get an answer', 'Start the server.', expect.stringMatching(/--prompt-only/)]);
    expect(new HippoError('usage', 'x', ExitCode.usage, { actions: [] }).actions).toBeUndefined();
    expect(cliWords(new HippoError('usage', 'x', ExitCode.usage))).toEqual({ message: 'x' });
  });

  it('is keyed by ErrorCode: a code hippo does not give does not compile', () => {
    // @ts-expect-error a misspelt code (`npm run typecheck` fails if this ever compiles)
    const typo: ErrorCode = 'memory_not_fond';
    expect(ERROR_CODES).not.toContain(typo);
    expect(ERROR_CODES).toContain('memory_not_found');
    expect([...CLI_WORDED].every((code) => (ERROR_CODES as readonly string[]).includes(code))).toBe(true);
  });
});
