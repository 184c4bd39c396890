import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getMemory } from '../../../src/core/memory/memory.js';
import { getCandidate, type Candidate } from '../../../src/core/rem/candidates.js';
import { reject } from '../../../src/core/rem/review.js';
import { openStore } from '../../../src/core/store/store.js';
import { displayWidth } from '../../../src/ui/review/text.js';
import { formatTime } from '../../../src/views/output.js';
import { KEY, NOTES, renderReview, stageCandidates, type ReviewHarness } from '../../helpers/review.js';
import { fixedClock, tempStore } from '../../helpers/store.js';

const clock = fixedClock('2026-11-02T12:00:00.000Z');
let store: Awaited<ReturnType<typeof tempStore>>;
let ui: ReviewHarness | undefined;
let memoryIds: string[];
/** In list order (newest first): [0] migrations claim, [1] vague claim, [2] runbook claim. */
let candidates: Candidate[];

const MIGRATIONS = 'Run database migrations outside the Friday release train; they lock the payments table.';
const VAGUE = 'Friday deploys fail.';
const RUNBOOK = 'Keep a rollback runbook next to every migration.';

beforeEach(async () => {
  clock.set('2026-11-02T12:00:00.000Z');
  store = await tempStore(clock);
  ({ memoryIds, candidates } = await stageCandidates(store, [
    { claim: RUNBOOK, sources: ['m3'], tags: ['runbook'] },
    { claim: VAGUE, sources: ['m2'] },
    { claim: MIGRATIONS, sources: ['m3', 'm2', 'm1'], tags: ['deploy', 'db'] },
  ]));
  clock.set('2026-11-02T15:00:00.000Z');
});

afterEach(async () => {
  ui?.unmount();
  ui = undefined;
  await store.done();
});

const status = (candidate: Candidate) => getCandidate(store, 'ops', candidate.id);
const lines = (frame: string) => frame.split('\n');
/** The frame's words without borders or line breaks, for text that may wrap. */
const flat = (frame: string) => frame.replace(/[│╭╮╰╯─]/g, ' ').replace(/\s+/g, ' ');
/** The list row of a claim (starts with the selection marker column). */
const rowOf = (frame: string, claimStart: string) => lines(frame).find((line) => line.includes(claimStart.slice(0, 20)));

describe('the review screen (docs/design.md §4.7)', () => {
  it('lists pending candidates with model, age and number of sources, and shows the selected claim with the full text of what it cites', async () => {
    ui = await renderReview(store);
    const frame = ui.frame();
    expect(frame).toContain('Pending candidates (3)');
    expect(frame).toMatch(/› Run database migrations.*qwen2\.5:7b\s+3h\s+3 src/);
    expect(frame).toMatch(/ {3}Friday deploys fail\..*qwen2\.5:7b\s+3h\s+1 src/);
    // The detail pane: full claim, tags, model, run, then every cited memory in full with its date.
    expect(frame).toContain('tags deploy, db · model qwen2.5:7b (handoff)');
    expect(frame).toContain(`run ${candidates[0]!.runId}`);
    expect(frame).toContain('Cited memories (3)');
    // Cited in the candidate's order: m3 (the oldest note) first.
    // The review screen writes times as every other view does: local (TZ) with the offset (one formatter).
    expect(frame).toContain(`[1] ${formatTime('2026-11-02T09:00:00.000Z', 'local')}  ${memoryIds[0]}`);
    expect(frame).toContain(`[3] ${formatTime('2026-11-02T11:00:00.000Z', 'local')}  ${memoryIds[2]}`);
    expect(flat(frame)).toContain('Deploy of api v2.14 failed on Friday: the migration held a lock on the payments table.');
    expect(frame).toContain('p promote');
  });

  it('moves the selection with j/k and the arrow keys, and the detail follows', async () => {
    ui = await renderReview(store);
    let frame = await ui.press('j');
    expect(rowOf(frame, VAGUE)).toMatch(/^│ › Friday deploys fail\./);
    expect(frame).toContain('Cited memories (1)');
    frame = await ui.press(KEY.down);
    expect(rowOf(frame, RUNBOOK)).toMatch(/^│ › Keep a rollback runbook/);
    frame = await ui.press(KEY.down); // already at the end: stays
    expect(rowOf(frame, RUNBOOK)).toMatch(/^│ › /);
    frame = await ui.press('k', KEY.up);
    expect(rowOf(frame, MIGRATIONS)).toMatch(/^│ › Run database migrations/);
  });

  it('promotes with a rationale: empty is refused with a message, Enter writes it at once, the list updates', async () => {
    ui = await renderReview(store);
    let frame = await ui.press('p');
    expect(frame).toContain(`Promote ${candidates[0]!.id} as a persistent memory — why keep it?`);
    frame = await ui.press(KEY.enter);
    expect(frame).toContain('✗ a rationale is required');
    expect((await status(candidates[0]!)).status).toBe('pending');
    await ui.type('matches the post-mortem');
    frame = await ui.press(KEY.enter);

    const promoted = await status(candidates[0]!);
    expect(promoted).toMatchObject({ status: 'promoted', reviewer: 'tester', reviewRationale: 'matches the post-mortem', editedClaim: null });
    const memory = await getMemory(store, 'ops', promoted.promotedMemoryId!);
    expect(memory).toMatchObject({
      content: MIGRATIONS,
      durability: 'persistent',
      derivedFrom: candidates[0]!.sourceMemoryIds,
      promotedFrom: candidates[0]!.id,
      tags: ['deploy', 'db'],
    });

    expect(frame).toContain(`✓ promoted ${candidates[0]!.id} → ${memory.id}`);
    expect(frame).toContain('Pending candidates (2)');
    expect(frame).not.toContain('Run database migrations outside');
    expect(rowOf(frame, VAGUE)).toMatch(/^│ › /); // the next one is selected
    expect(frame).toContain('promoted 1 · rejected 0 · skipped 0 · 2 pending');
  });

  it('stays responsive while a decision is written: keys typed meanwhile are read after it, in order', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    ui = await renderReview(store, {}, undefined, (controller) => ({
      promote: async (...args) => {
        await slow;
        return controller.promote(...args);
      },
      reject: async (...args) => {
        await slow;
        return controller.reject(...args);
      },
    }));
    await ui.press('p');
    await ui.type('matches the post-mortem');
    let frame = await ui.press(KEY.enter);
    expect(frame).toContain(`saving the promotion of ${candidates[0]!.id}…`);
    expect((await status(candidates[0]!)).status).toBe('pending');
    // Typed ahead while it saves: select the next candidate and open a rejection, then give a reason.
    frame = await ui.press('j', 'r');
    expect(frame).toContain('saving the promotion');
    release();
    await slow;
    frame = await ui.type('one Friday is not a pattern');
    frame = await ui.press(KEY.enter);
    expect((await status(candidates[0]!)).status).toBe('promoted');
    expect(await status(candidates[2]!)).toMatchObject({ status: 'rejected', reviewRationale: 'one Friday is not a pattern' });
    expect((await status(candidates[1]!)).status).toBe('pending');
    expect(frame).toContain('promoted 1 · rejected 1 · skipped 0 · 1 pending');
  });

  it('Esc cancels a prompt and nothing is written', async () => {
    ui = await renderReview(store);
    await ui.press('p');
    await ui.type('half a thought');
    const frame = await ui.press(KEY.escape);
    expect(frame).toContain('promotion cancelled — nothing was saved');
    expect(frame).toContain('Pending candidates (3)');
    expect(await status(candidates[0]!)).toMatchObject({ status: 'pending', reviewRationale: null });
  });

  it('rejects with a reason (required too)', async () => {
    ui = await renderReview(store);
    await ui.press('j', 'r');
    let frame = await ui.press(KEY.enter);
    expect(frame).toContain('✗ a reason is required');
    expect((await status(candidates[1]!)).status).toBe('pending');
    await ui.type('one Friday is not a pattern');
    frame = await ui.press(KEY.enter);
    expect(await status(candidates[1]!)).toMatchObject({ status: 'rejected', reviewer: 'tester', reviewRationale: 'one Friday is not a pattern' });
    expect(frame).toContain(`✓ rejected ${candidates[1]!.id}`);
    expect(frame).toContain('Pending candidates (2)');
  });

  it('edits the claim then promotes: the edited text becomes the memory, the original stays on the candidate', async () => {
    ui = await renderReview(store);
    let frame = await ui.press('e');
    expect(frame).toContain('Edit the claim');
    expect(frame).toContain(`› ${MIGRATIONS}`); // prefilled with the claim
    await ui.press(KEY.ctrlU);
    await ui.type('Schedule migrations on Tuesday mornings');
    frame = await ui.press(KEY.enter);
    expect(frame).toContain(`Promote your edited wording of ${candidates[0]!.id}`);
    expect((await status(candidates[0]!)).status).toBe('pending');
    await ui.type('agreed in the retro');
    await ui.press(KEY.enter);

    const promoted = await status(candidates[0]!);
    expect(promoted).toMatchObject({
      status: 'promoted',
      claim: MIGRATIONS,
      editedClaim: 'Schedule migrations on Tuesday mornings',
      reviewRationale: 'agreed in the retro',
    });
    expect((await getMemory(store, 'ops', promoted.promotedMemoryId!)).content).toBe('Schedule migrations on Tuesday mornings');
    expect(ui.frame()).toContain(`✓ promoted ${candidates[0]!.id} (edited)`);
  });

  it('edits with the cursor keys, refuses an empty claim, and promotes an unchanged claim as the original', async () => {
    ui = await renderReview(store);
    await ui.press('j', 'j', 'e'); // the runbook claim
    // Move left over "migration." and insert before it.
    await ui.press(...Array.from({ length: 'migration.'.length }, () => KEY.left));
    let frame = await ui.type('database ');
    expect(frame).toContain('› Keep a rollback runbook next to every database migration.');
    await ui.press(KEY.ctrlU);
    frame = await ui.press(KEY.enter);
    expect(frame).toContain('✗ the claim cannot be empty');
    await ui.press(KEY.escape);
    expect((await status(candidates[2]!)).status).toBe('pending');

    await ui.press('e', KEY.enter); // unchanged
    expect(ui.frame()).toContain('the claim is unchanged, so the original wording will be promoted');
    await ui.type('we do this already');
    await ui.press(KEY.enter);
    expect(await status(candidates[2]!)).toMatchObject({ status: 'promoted', editedClaim: null });
  });

  it('skips, filters by text, and reports the session on quit', async () => {
    ui = await renderReview(store);
    let frame = await ui.press('s');
    expect(frame).toContain(`skipped ${candidates[0]!.id} — it stays pending`);
    expect(rowOf(frame, MIGRATIONS)).toContain('(skipped) Run database');
    expect(rowOf(frame, VAGUE)).toMatch(/^│ › /);

    await ui.press('/');
    frame = await ui.type('runbook');
    expect(frame).toContain('Pending — 1 of 3 match "runbook"');
    expect(frame).not.toContain('Friday deploys fail.');
    frame = await ui.press(KEY.enter);
    expect(rowOf(frame, RUNBOOK)).toMatch(/^│ › Keep a rollback runbook/);
    await ui.press('r');
    await ui.type('covered by the checklist');
    frame = await ui.press(KEY.enter);
    expect(frame).toContain('Nothing matches the filter');
    frame = await ui.press(KEY.escape);
    expect(frame).toContain('filter cleared');
    expect(frame).toContain('Pending candidates (2)');

    await ui.press('q');
    expect(ui.summary()).toEqual({
      decisions: [{ ok: true, kind: 'rejected', candidateId: candidates[2]!.id }],
      skipped: [candidates[0]!.id],
      remaining: 2,
      interrupted: false,
    });
    expect((await status(candidates[0]!)).status).toBe('pending');
  });

  it('Ctrl-C quits from anywhere, even a prompt, keeping what was decided and nothing half-typed', async () => {
    ui = await renderReview(store);
    await ui.press('r');
    await ui.type('wrong');
    await ui.press(KEY.enter, 'p');
    expect(ui.latest()).toMatchObject({ interrupted: false, decisions: [{ kind: 'rejected', candidateId: candidates[0]!.id }] });
    expect(ui.summary()).toBeUndefined();
    await ui.type('not finished');
    await ui.press(KEY.ctrlC);
    expect(ui.summary()).toMatchObject({ interrupted: true, remaining: 2, decisions: [{ kind: 'rejected', candidateId: candidates[0]!.id }] });
    expect((await status(candidates[0]!)).status).toBe('rejected');
    expect((await status(candidates[1]!)).status).toBe('pending');
  });

  it('takes keys that arrive together one at a time (fast typing: "p", the rationale and Enter in one read)', async () => {
    ui = await renderReview(store);
    await ui.press('jpone Friday is enough\r');
    expect(await status(candidates[1]!)).toMatchObject({ status: 'promoted', reviewRationale: 'one Friday is enough' });
  });

  it('takes Enter and Backspace inside keys read together in a prompt: a promotion then a rejection in one read', async () => {
    ui = await renderReview(store);
    await ui.press('pwhx\u007Fy\rrnope\r');
    expect(await status(candidates[0]!)).toMatchObject({ status: 'promoted', reviewRationale: 'why' });
    expect(await status(candidates[1]!)).toMatchObject({ status: 'rejected', reviewRationale: 'nope' });
    expect(ui.latest()?.decisions.map((decision) => decision.kind)).toEqual(['promoted', 'rejected']);
  });

  it('interrupts on a Ctrl-C read together with other keys, in a prompt too, keeping only what was confirmed', async () => {
    ui = await renderReview(store);
    await ui.press('rwrong\rpnot finished\u0003more');
    expect(ui.summary()).toMatchObject({ interrupted: true, remaining: 2, decisions: [{ kind: 'rejected', candidateId: candidates[0]!.id }] });
    expect((await status(candidates[1]!)).status).toBe('pending');
    ui.unmount();
    ui = await renderReview(store);
    await ui.press('jj\u0003');
    expect(ui.summary()).toMatchObject({ interrupted: true, decisions: [] });
  });

  it('shows the help with every key, and any key goes back', async () => {
    ui = await renderReview(store, {}, { columns: 80, rows: 24 });
    let frame = await ui.press('?');
    for (const text of [
      'Reviewing candidates',
      'promote: keep the claim as a memory',
      'edit the claim, then promote',
      'reject; asks for a reason',
      'skip: leave it pending',
      'filter by text',
      'quit; every decision is saved',
      'Enter confirms, Esc cancels',
      'Promotions become persistent memories, recorded as reviewer "tester" for agent "ops".',
    ]) {
      expect(flat(frame)).toContain(text);
    }
    frame = await ui.press('x');
    expect(frame).toContain('Pending candidates (3)');
    frame = await ui.press('x');
    expect(frame).toContain('"x" does nothing here — press ? for help');
  });

  it('shows a decision taken by another process meanwhile as an inline conflict and drops the candidate, then carries on', async () => {
    ui = await renderReview(store);
    const other = await openStore({ path: store.path });
    await reject(other, { agentId: 'ops', ids: [candidates[0]!.id], reason: 'decided elsewhere', reviewer: 'someone-else' });
    await other.close();

    await ui.press('p');
    await ui.type('looks right');
    let frame = await ui.press(KEY.enter);
    expect(flat(frame)).toContain(`✗ candidate ${candidates[0]!.id} is already rejected; it cannot be promoted — removed from the list`);
    expect(frame).toContain('Pending candidates (2)');
    expect(await status(candidates[0]!)).toMatchObject({
      status: 'rejected',
      reviewer: 'someone-else',
      reviewRationale: 'decided elsewhere',
      promotedMemoryId: null,
    });

    await ui.press('r');
    await ui.type('vague');
    frame = await ui.press(KEY.enter);
    expect((await status(candidates[1]!)).status).toBe('rejected');
    expect(frame).toContain(`✓ rejected ${candidates[1]!.id}`);
  });

  it('reports a rejection made elsewhere meanwhile as such, not as the reviewer’s decision', async () => {
    ui = await renderReview(store);
    const other = await openStore({ path: store.path });
    await reject(other, { agentId: 'ops', ids: [candidates[0]!.id], reason: 'decided elsewhere', reviewer: 'someone-else' });
    await other.close();

    await ui.press('r');
    await ui.type('vague');
    const frame = await ui.press(KEY.enter);
    expect(flat(frame)).toContain(`✗ candidate ${candidates[0]!.id} is already rejected elsewhere — removed from the list`);
    expect(frame).toContain('Pending candidates (2)');
    expect(frame).toContain('rejected 0');
    expect(ui.latest()).toMatchObject({ decisions: [], remaining: 2 });
    expect(await status(candidates[0]!)).toMatchObject({ status: 'rejected', reviewer: 'someone-else', reviewRationale: 'decided elsewhere' });
  });

  it('shows a cited memory that no longer exists as such, and refuses to promote it inline unless allowed', async () => {
    store.db.prepare('DELETE FROM memories WHERE id = ?').run(memoryIds[1]);
    ui = await renderReview(store);
    let frame = ui.frame();
    expect(frame).toContain(`[2] ${memoryIds[1]} — no longer in the database`);
    await ui.press('p');
    await ui.type('still true');
    frame = await ui.press(KEY.enter);
    expect(flat(frame)).toContain(`✗ candidate ${candidates[0]!.id} cites 1 memory no longer in the database`);
    expect(frame).toContain('› still true'); // the prompt stays open: Enter retries, Esc gives up
    expect((await status(candidates[0]!)).status).toBe('pending');
    frame = await ui.press(KEY.escape);
    expect(frame).toContain('promotion cancelled');
    ui.unmount();

    ui = await renderReview(store, { allowMissingSources: true, durability: 'permanent' });
    await ui.press('p');
    await ui.type('still true');
    await ui.press(KEY.enter);
    const promoted = await status(candidates[0]!);
    expect(promoted.status).toBe('promoted');
    expect((await getMemory(store, 'ops', promoted.promotedMemoryId!)).durability).toBe('permanent');
  });

  it('on a cited memory deleted while the screen is open, refuses, stops showing it, and says how to promote anyway', async () => {
    ui = await renderReview(store);
    let frame = ui.frame();
    expect(flat(frame)).toContain(NOTES[1]);
    store.db.prepare('DELETE FROM memories WHERE id = ?').run(memoryIds[1]);
    await ui.press('p');
    await ui.type('still true');
    frame = await ui.press(KEY.enter);
    expect(flat(frame)).toContain('quit and run `hippo rem candidates --allow-missing-sources` to promote anyway');
    expect(flat(frame)).not.toContain('pass --allow-missing-sources');
    expect(frame).toContain(`[2] ${memoryIds[1]} — no longer in the database`);
    expect(flat(frame)).not.toContain(NOTES[1]);
    expect((await status(candidates[0]!)).status).toBe('pending');
  });

  it('scrolls the evidence when it is longer than the pane', async () => {
    await store.done();
    store = await tempStore(clock);
    const long = Array.from({ length: 40 }, (_, index) => `Paragraph ${index + 1} of the incident review.`).join('\n');
    ({ candidates } = await stageCandidates(store, [{ claim: 'Review incidents in writing.', sources: ['m1'] }], [long]));
    ui = await renderReview(store, {}, { columns: 100, rows: 30 });
    let frame = ui.frame();
    expect(frame).toContain('Paragraph 1 of');
    expect(frame).not.toContain('Paragraph 40 of');
    expect(frame).toMatch(/↓ lines 1–\d+ of 48/);
    frame = await ui.press(KEY.pageDown, KEY.pageDown, KEY.pageDown, KEY.pageDown);
    expect(frame).toContain('Paragraph 40 of the incident review.');
    expect(frame).toMatch(/↑ {2}lines \d+–48 of 48/);
    frame = await ui.press(KEY.pageUp, KEY.pageUp, KEY.pageUp, KEY.pageUp);
    expect(frame).toContain('Claim');
    expect(frame).not.toContain('Paragraph 40 of');
  });

  it('never lets stored text drive the terminal: control characters in a memory are shown inert', async () => {
    await store.done();
    store = await tempStore(clock);
    await stageCandidates(store, [{ claim: 'Beware titles.', sources: ['m1'] }], ['Clear screen: \u001B[2J\u001B[H and bell \u0007 done.']);
    // Validation refuses such claims from a model now; a row written some other way must still be shown inert.
    store.db.prepare('UPDATE candidates SET claim = ?').run('Beware \u001B]0;owned\u0007 titles.');
    ui = await renderReview(store);
    const frame = ui.frame();
    expect(frame).not.toMatch(/(?!\n)\p{Cc}/u);
    expect(frame).toContain('Clear screen: \uFFFD[2J\uFFFD[H and bell \uFFFD done.');
  });
});

describe('the detail pane guards its short facts too', () => {
  it('shows a model id with an escape sequence, and tags with bidi controls, inert', async () => {
    // A model id as a server reported it (or as --generated-by gave it), tags stored before validation refused them.
    store.db.prepare('UPDATE candidates SET generated_by = ?, tags = ?').run('evil-model\u001B]0;pwned\u0007', JSON.stringify(['deploy\u202E', 'db']));
    ui = await renderReview(store, {}, { columns: 200, rows: 40 });
    const frame = ui.frame();
    expect(frame).not.toMatch(/(?!\n)\p{Cc}/u);
    expect(frame).not.toMatch(/\p{Bidi_Control}/u);
    expect(frame).toContain('model evil-model\uFFFD]0;pwned\uFFFD (handoff)');
    expect(frame).toContain('tags deploy\uFFFD, db');
  });
});

describe('text the terminal measures differently (width agreement with ink)', () => {
  it('shows every word of a memory with zero-width and format characters, and of a claim full of emoji', async () => {
    await store.done();
    store = await tempStore(clock);
    const note = `${'Rotate\u200B the\u00AD signing\uFEFF keys\u200B '.repeat(6)}every 90 days. END-OF-NOTE`;
    await stageCandidates(store, [{ claim: 'Rotate keys.', sources: ['m1'] }], [note]);
    store.db.prepare('UPDATE candidates SET claim = ?').run(`${'🚀'.repeat(25)} rocket claim END-R`);
    ui = await renderReview(store, {}, { columns: 80, rows: 40 });
    const frame = ui.frame();
    expect(flat(frame)).toContain('every 90 days. END-OF-NOTE');
    expect(frame).toContain('END-R');
    expect(frame).not.toMatch(/[\u00AD\u200B\uFEFF]/u);
    for (const line of lines(frame)) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  });

  it('shows a right-to-left override as a marker, so stored text cannot reorder what the reviewer reads', async () => {
    await store.done();
    store = await tempStore(clock);
    await stageCandidates(store, [{ claim: 'Check payees.', sources: ['m1'] }], ['Pay invoice \u202Egnp.exe\u202C today.']);
    ui = await renderReview(store);
    const frame = ui.frame();
    expect(frame).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    expect(frame).toContain('Pay invoice \uFFFDgnp.exe\uFFFD today.');
  });
});

describe('layout (80 and 200 columns)', () => {
  const widest = (frame: string) => Math.max(...lines(frame).map(displayWidth));

  it('stacks the list above the evidence on 80 columns and fits every line', async () => {
    ui = await renderReview(store, {}, { columns: 80, rows: 24 });
    const frame = ui.frame();
    expect(widest(frame)).toBeLessThanOrEqual(80);
    expect(lines(frame).length).toBeLessThanOrEqual(23);
    expect(lines(frame).filter((line) => line.startsWith('╭')).length).toBe(2); // two boxes, one above the other
    expect(lines(frame).some((line) => line.includes('╮╭'))).toBe(false);
    expect(rowOf(frame, MIGRATIONS)).toMatch(/› Run database migrations outside.*…\s+qwen2\.5:7b\s+3h\s+3 src/);
    expect(frame).toContain('j/k move  p promote  e edit  r reject  s skip  / filter  ? help  q quit');
  });

  it('says which rows show when the list is longer than its pane, and scrolls it with the selection', async () => {
    await store.done();
    store = await tempStore(clock);
    await stageCandidates(
      store,
      Array.from({ length: 8 }, (_, index) => ({ claim: `Claim number ${index + 1}.`, sources: ['m1'] })),
    );
    ui = await renderReview(store, {}, { columns: 80, rows: 24 });
    let frame = ui.frame();
    expect(frame).toContain('Pending candidates (8) · showing 1–5');
    expect(frame).toContain('› Claim number 8.');
    expect(frame).not.toContain('Claim number 3.');
    frame = await ui.press('G');
    expect(frame).toContain('Pending candidates (8) · showing 4–8');
    expect(frame).toContain('› Claim number 1.');
  });

  it('puts them side by side on 200 columns, with more of each claim in the list', async () => {
    ui = await renderReview(store, {}, { columns: 200, rows: 40 });
    const frame = ui.frame();
    expect(widest(frame)).toBeLessThanOrEqual(200);
    expect(lines(frame).filter((line) => line.includes('╮╭')).length).toBe(1);
    const row = rowOf(frame, MIGRATIONS)!;
    expect(row).toMatch(/^│ › Run database migrations outside the Friday release train; they lock.*qwen2\.5:7b\s+3h\s+3 src │╭?│ /);
    expect(lines(frame).find((line) => line.startsWith('│ Pending candidates (3)'))).toMatch(/││ Claim\s+│$/); // the evidence beside the list
    expect(frame).toContain('hippo review · agent ops · reviewer tester');
  });

  it('follows a resize from wide to narrow', async () => {
    ui = await renderReview(store, {}, { columns: 200, rows: 40 });
    const frame = await ui.resize(80, 24);
    expect(widest(frame)).toBeLessThanOrEqual(80);
    expect(lines(frame).some((line) => line.includes('╮╭'))).toBe(false);
  });

  it('says so when the terminal is too small, and q still quits', async () => {
    ui = await renderReview(store, {}, { columns: 30, rows: 8 });
    expect(ui.frame()).toContain('too small');
    await ui.press('q');
    expect(ui.summary()).toMatchObject({ interrupted: false, remaining: 3 });
  });
});
