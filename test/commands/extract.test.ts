import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractFacts, lineCol } from '../../src/core/facts/facts.js';
import { KINDS } from '../../src/core/facts/kinds.js';
import { DEFAULT_REGIONS } from '../../src/core/facts/region.js';
import { WINDOW_CHARS } from '../../src/core/facts/facts.js';
import { addMemory } from '../../src/core/memory/memory.js';
import { jsonText } from '../../src/core/json-text.js';
import { openSqliteStore } from '../../src/core/store/sqlite/adapter.js';
import { json, sandbox, type Sandbox } from '../helpers/cli.js';

interface FactJson {
  kind: string;
  value: string;
  normalized: string;
  label: string;
  origin: string;
  check: string;
  region?: string;
  model?: string;
  occurrences: { source: string; start: number; end: number; text: string; label: string }[];
}

let box: Sandbox;
beforeEach(async () => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const NOTES = [
  '# Vendor sheet',
  '',
  'Billing: accounts@larkspur.ie',
  'Tel: +353 1 234 5678 (reception)',
  'IBAN: IE29 AIBK 9311 5212 3456 78',
  'Status page https://status.example.com, renewal 2027-03-03.',
  'Bastion 10.20.0.2; test card 4242 4242 4242 4242.',
  'Again: ACCOUNTS@larkspur.ie',
].join('\n');

function write(name: string, content: string | Buffer): string {
  const path = join(box.dir, name);
  writeFileSync(path, content);
  return path;
}

const factsOf = (result: Awaited<ReturnType<Sandbox['hippo']>>) => json<{ facts: FactJson[] }>(result).facts;

describe('hippo extract over files and stdin', () => {
  it('--all finds every validated kind, with offsets that slice the file', async () => {
    const path = write('notes.md', NOTES);
    const result = await box.hippo(['extract', '--all', path, '--json']);
    expect(result.exitCode).toBe(0);
    const facts = factsOf(result);
    expect(facts.map((fact) => [fact.kind, fact.normalized])).toEqual([
      ['email', 'accounts@larkspur.ie'],
      ['phone', '+35312345678'],
      ['iban', 'IE29AIBK93115212345678'],
      ['url', 'https://status.example.com'],
      ['date', '2027-03-03'],
      ['ip', '10.20.0.2'],
      ['card', '4242424242424242'],
    ]);
    const text = readFileSync(path, 'utf8');
    for (const fact of facts) {
      expect(fact.origin).toBe('validated');
      for (const occurrence of fact.occurrences) {
        expect(occurrence.source).toBe(path);
        expect(text.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
      }
    }
    const email = facts[0]!;
    expect(email.occurrences.map((occurrence) => occurrence.text)).toEqual(['accounts@larkspur.ie', 'ACCOUNTS@larkspur.ie']);
    expect(email.label).toBe('Billing');
  });

  it('prints a table of kind, value, label, source:line:col and check', async () => {
    const path = write('notes.md', NOTES);
    const result = await box.hippo(['extract', 'email', path]);
    expect(result.exitCode).toBe(0);
    const lines = String(result.stdout).split('\n');
    expect(lines[0]).toMatch(/^KIND\s+VALUE\s+LABEL\s+SOURCE\s+CHECK$/);
    expect(lines[1]).toMatch(
      new RegExp(`^email\\s+accounts@larkspur\\.ie\\s+Billing\\s+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:10 \\+1\\s+validated$`),
    );
    expect(lines).toHaveLength(2);
    expect(String(result.stderr)).toBe('');
  });

  it('reads stdin when no FILE is given, and `-` among files', async () => {
    const fromStdin = await box.hippo(['extract', 'phone', '--json'], { input: 'call +353 1 234 5678' });
    expect(factsOf(fromStdin)[0]?.occurrences[0]).toMatchObject({ source: 'stdin', start: 5, end: 20 });
    const path = write('a.txt', 'mail a@larkspur.ie');
    const mixed = await box.hippo(['extract', 'email', path, '-', '--json'], { input: 'mail b@larkspur.ie' });
    expect(factsOf(mixed).map((fact) => fact.occurrences[0]?.source)).toEqual([path, 'stdin']);
  });

  it('takes several kinds separated by commas, each once', async () => {
    const path = write('notes.md', NOTES);
    const facts = factsOf(await box.hippo(['extract', 'phone,email,phone', path, '--json']));
    expect(facts.map((fact) => fact.kind)).toEqual(['email', 'phone']);
    const bad = await box.hippo(['extract', 'phone,passport', path, '--json']);
    expect(bad.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(bad).error.code).toBe('unknown_kind');
    const empty = await box.hippo(['extract', ',', path, '--json']);
    expect(json<{ error: { code: string } }>(empty).error.code).toBe('missing_kind');
  });

  it('has no cap over files unless --limit is given', async () => {
    const many = Array.from({ length: 8 }, (_, i) => `user${i}@larkspur.ie`).join('\n');
    const path = write('many.txt', many);
    expect(factsOf(await box.hippo(['extract', 'email', path, '--json']))).toHaveLength(8);
    expect(factsOf(await box.hippo(['extract', 'email', path, '--limit', '3', '--json'])).map((fact) => fact.value)).toEqual([
      'user0@larkspur.ie',
      'user1@larkspur.ie',
      'user2@larkspur.ie',
    ]);
  });

  it('reads national numbers in the --region given, and refuses an unknown region (exit 2)', async () => {
    const path = write('tel.txt', 'ring 01 234 5678 or +353 1 234 5678');
    const ie = factsOf(await box.hippo(['extract', 'phone', path, '--region', 'IE', '--json']));
    expect(ie).toHaveLength(1);
    expect(ie[0]?.occurrences.map((occurrence) => occurrence.text)).toEqual(['01 234 5678', '+353 1 234 5678']);
    const bad = await box.hippo(['extract', 'phone', path, '--region', 'XX', '--json']);
    expect(bad.exitCode).toBe(2);
    // Core names no flag (details carry the region); the CLI words it with the flag the user typed.
    expect(json<{ error: { code: string; message: string; details: unknown } }>(bad).error).toMatchObject({
      code: 'unknown_region',
      message: expect.stringMatching(/^--region: unknown region "XX"/),
      details: { region: 'XX' },
    });
  });

  it('finds lines and columns correctly deep in a large file', async () => {
    const filler = 'lorem ipsum dolor sit amet, no facts here\n'.repeat(50_000);
    const path = write('big.txt', `${filler}  mail: deep@larkspur.ie\n`);
    const result = await box.hippo(['extract', 'email', path]);
    expect(String(result.stdout)).toContain(`${path}:50001:9`);
  });

  it('lists the kinds with whether each is validated and how its facts are checked', async () => {
    const { kinds } = json<{ kinds: { kind: string; validated: boolean; check: string }[] }>(await box.hippo(['extract', '--kinds', '--json']));
    expect(kinds.map((kind) => [kind.kind, kind.validated, kind.check])).toEqual([
      ['email', true, 'validated'],
      ['phone', true, 'validated, labelled'],
      ['iban', true, 'validated'],
      ['card', true, 'validated, labelled'],
      ['url', true, 'validated'],
      ['ip', true, 'validated'],
      ['date', true, 'validated'],
      ['address', false, 'postcode, model'],
    ]);
    expect(String((await box.hippo(['extract', '--kinds'])).stdout)).toMatch(/^address\s+postcode, model/m);
  });
});

describe('hippo extract: regions (flag > HIPPO_REGION > config > locale)', () => {
  interface Regions {
    region?: string;
    regionSource: string;
    regions: string[];
    regionsSource: string;
  }
  const regionsOf = async (args: string[], env: Record<string, string>) =>
    json<{ regions: Regions }>(await box.hippo(['extract', '--kinds', '--json', ...args], { env })).regions;
  const writeConfig = (config: unknown) => {
    mkdirSync(join(box.dir, 'xdg-config', 'hippo'), { recursive: true });
    writeFileSync(join(box.dir, 'xdg-config', 'hippo', 'config.json'), JSON.stringify(config));
  };
  const C = { LC_ALL: '', LC_MESSAGES: '', LANG: 'C', HIPPO_REGION: '' };

  it('takes the flag, then HIPPO_REGION, then config "region", then the locale; a C locale gives none', async () => {
    writeConfig({ region: 'gb', regions: ['FR', 'de', 'IE'] });
    expect(await regionsOf(['--region', 'us'], { ...C, HIPPO_REGION: 'DE', LANG: 'en_IE.UTF-8' })).toEqual({
      region: 'US',
      regionSource: 'flag',
      regions: ['FR', 'DE', 'IE'],
      regionsSource: 'config',
    });
    expect(await regionsOf([], { ...C, HIPPO_REGION: 'de', LANG: 'en_IE.UTF-8' })).toMatchObject({
      region: 'DE',
      regionSource: 'HIPPO_REGION',
      regions: ['FR', 'IE'],
    });
    expect(await regionsOf([], { ...C, LANG: 'en_IE.UTF-8' })).toMatchObject({ region: 'GB', regionSource: 'config' });
    writeConfig({});
    expect(await regionsOf([], { ...C, LANG: 'en_IE.UTF-8' })).toMatchObject({ region: 'IE', regionSource: 'locale', regionsSource: 'default' });
    expect(await regionsOf([], { ...C, LC_ALL: 'de_AT.UTF-8', LANG: 'en_IE.UTF-8' })).toMatchObject({ region: 'AT', regionSource: 'locale' });
    const none = await regionsOf([], C);
    expect(none).toMatchObject({ regionSource: 'none' });
    expect(none.region).toBeUndefined();
    expect(none.regions).toContain('US');
    const text = await box.hippo(['extract', '--kinds'], { env: C });
    expect(String(text.stdout)).toMatch(/^home region: none \(C\/POSIX or no locale\); then US GB IE .* \(default list\); international numbers always$/m);
  });

  it('says which regions are in force in --help', async () => {
    writeConfig({ regions: ['IE', 'GB'] });
    const help = await box.hippo(['extract', '--help'], { env: { ...C, HIPPO_REGION: 'IE' } });
    expect(String(help.stdout).replace(/\s+/g, ' ')).toContain('home region: IE (HIPPO_REGION); then GB (config "regions"); international numbers always');
  });

  it('refuses an unknown region wherever it is written (exit 2, naming where)', async () => {
    const path = write('tel.txt', 'ring 01 234 5678');
    const fromEnv = await box.hippo(['extract', 'phone', path, '--json'], { env: { ...C, HIPPO_REGION: 'XX' } });
    expect(fromEnv.exitCode).toBe(2);
    expect(json<{ error: { code: string; message: string } }>(fromEnv).error).toMatchObject({
      code: 'unknown_region',
      message: expect.stringContaining('HIPPO_REGION'),
    });
    writeConfig({ regions: ['IE', 'Atlantis'] });
    const fromConfig = await box.hippo(['extract', 'phone', path, '--json'], { env: C });
    expect(json<{ error: { code: string; message: string } }>(fromConfig).error).toMatchObject({
      code: 'unknown_region',
      message: expect.stringContaining('config "regions"'),
    });
    writeConfig({ regions: 'IE' });
    const badType = await box.hippo(['extract', 'phone', path, '--json'], { env: C });
    expect(badType.exitCode).toBe(2);
    expect(json<{ error: { code: string; message: string } }>(badType).error).toMatchObject({
      code: 'bad_config',
      message: expect.stringContaining('"regions" must be an array of strings'),
    });
  });

  it('reads a national number of another region with no home region, and only international ones with an empty list', async () => {
    const path = write('tel.txt', 'Our Lisbon desk: 21 123 4567 (Mon–Fri)');
    const found = factsOf(await box.hippo(['extract', 'phone', path, '--json'], { env: C }));
    expect(found.map((fact) => [fact.normalized, fact.check, fact.region])).toEqual([['+351211234567', 'validated', 'PT']]);
    writeConfig({ regions: [] });
    expect(factsOf(await box.hippo(['extract', 'phone', path, '--json'], { env: C }))).toEqual([]);
  });

  it('marks a number kept for its label as labelled, in JSON and in the table', async () => {
    const path = write('tel.txt', 'Tel: 345-899-3560x4587\nref 345-899-3560');
    const facts = factsOf(await box.hippo(['extract', 'phone', path, '--region', 'US', '--json']));
    expect(facts.map((fact) => [fact.value, fact.normalized, fact.check])).toEqual([['345-899-3560x4587', '+13458993560;ext=4587', 'labelled']]);
    const text = await box.hippo(['extract', 'phone', path, '--region', 'US']);
    // The region is the number's own where libphonenumber knows it: +1 345 is the Cayman Islands.
    expect(String(text.stdout)).toMatch(/^phone\s+345-899-3560x4587\s+Tel\s+\S+:1:6\s+labelled \(KY\)$/m);
  });
});

describe('hippo extract: bad input (exit 2, one JSON document, nothing lost)', () => {
  it('refuses an unknown kind, listing the kinds', async () => {
    const path = write('notes.md', NOTES);
    const result = await box.hippo(['extract', 'telephone', path, '--json']);
    expect(result.exitCode).toBe(2);
    const { error } = json<{ error: { code: string; message: string } }>(result);
    expect(error.code).toBe('unknown_kind');
    expect(error.message).toContain('email, phone, iban, card, url, ip, date, address');
    expect(error.message).toContain('did you mean "phone"');
    const text = await box.hippo(['extract', 'telephone', path]);
    expect(text.exitCode).toBe(2);
    expect(String(text.stdout)).toBe('');
    expect(String(text.stderr)).toContain('kinds: email, phone');
  });

  it('refuses a missing kind', async () => {
    const result = await box.hippo(['extract', '--json']);
    expect(result.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(result).error.code).toBe('missing_kind');
  });

  it('refuses a non-UTF-8 file, naming it, and an unreadable one', async () => {
    const good = write('good.txt', 'a@larkspur.ie');
    const latin1 = write('latin1.txt', Buffer.from('caf\xe9 a@larkspur.ie', 'latin1'));
    const result = await box.hippo(['extract', 'email', good, latin1, '--json']);
    expect(result.exitCode).toBe(2);
    const { error } = json<{ error: { code: string; message: string } }>(result);
    expect(error).toMatchObject({ code: 'not_utf8' });
    expect(error.message).toContain(latin1);
    const missing = await box.hippo(['extract', 'email', join(box.dir, 'nope.txt'), '--json']);
    expect(missing.exitCode).toBe(2);
    expect(json<{ error: { code: string; message: string } }>(missing).error.message).toMatch(/nope\.txt: no such file$/);
    const stdin = await box.hippo(['extract', 'email', '--json'], { input: Buffer.from([0x61, 0xff, 0x62]) });
    expect(stdin.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(stdin).error.code).toBe('not_utf8');
  });

  it('refuses a bad --timeout, and files together with --query', async () => {
    const path = write('notes.md', NOTES);
    const timeout = await box.hippo(['extract', 'address', path, '--timeout', 'soon', '--json']);
    expect(timeout.exitCode).toBe(2);
    expect(json<{ error: { code: string } }>(timeout).error.code).toBe('bad_timeout');
    const both = await box.hippo(['extract', 'email', path, '--query', 'x', '--json']);
    expect(both.exitCode).toBe(2);
  });
});

describe('hippo extract --query over memories', () => {
  beforeEach(async () => {
    const store = await openSqliteStore({ path: box.db });
    const now = Date.now();
    const add = async (agentId: string, content: string, hoursAgo: number) =>
      (await addMemory(store, { agentId, content, createdAt: new Date(now - hoursAgo * 3_600_000).toISOString() })).memory.id;
    await add('ops', 'Vendor contacts: vendor0@larkspur.ie, vendor1@larkspur.ie, vendor2@larkspur.ie', 3);
    await add('ops', 'More vendor contacts: vendor3@larkspur.ie, vendor4@larkspur.ie, vendor5@larkspur.ie, vendor6@larkspur.ie', 2);
    await add('ops', 'Unrelated note about deploys, ops@larkspur.ie', 1);
    await add('other', 'Vendor contacts of another agent: secret@larkspur.ie', 1);
    await store.close();
  });

  it("reads the top search results in rank order, 5 facts per kind by default, never another agent's", async () => {
    const result = await box.hippo(['extract', 'email', '--query', 'vendor contacts', '--agent', 'ops', '--json']);
    expect(result.exitCode).toBe(0);
    const facts = factsOf(result);
    expect(facts).toHaveLength(5);
    const ranked = json<{ results: { memory: { id: string } }[] }>(await box.hippo(['search', 'vendor contacts', '--agent', 'ops', '--json'])).results.map(
      ({ memory }) => memory.id,
    );
    const ranks = facts.map((fact) => ranked.indexOf(fact.occurrences[0]!.source));
    expect(ranks.every((rank) => rank >= 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(JSON.stringify(facts)).not.toContain('secret@');
    const all = factsOf(await box.hippo(['extract', 'email', '--query', 'vendor contacts', '--agent', 'ops', '--limit', '50', '--json']));
    expect(all.map((fact) => fact.value).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `vendor${i}@larkspur.ie`));
    const top1 = factsOf(await box.hippo(['extract', 'email', '--query', 'vendor contacts', '--agent', 'ops', '--top', '1', '--limit', '50', '--json']));
    expect(new Set(top1.map((fact) => fact.occurrences[0]!.source)).size).toBe(1);
  });

  it('is a lookup: retrieval counts stay as they were', async () => {
    await box.hippo(['extract', 'email', '--query', 'vendor contacts', '--agent', 'ops', '--json']);
    const store = await openSqliteStore({ path: box.db });
    const counts = store.db.prepare('SELECT retrieval_count FROM memories WHERE agent_id = ?').all('ops') as { retrieval_count: number }[];
    await store.close();
    expect(counts).toHaveLength(3);
    expect(counts.every((row) => row.retrieval_count === 0)).toBe(true);
  });
});

describe('hippo extract over a file larger than one window (docs/decisions.md, "Extraction in windows, held as facts")', () => {
  const note = (index: number) =>
    `Note ${index}: Mobile: +353 86 ${String(100 + (index % 900)).padStart(3, '0')} ${String(1000 + index).padStart(4, '0')}, ops${index % 7}@example.ie, ` +
    `IBAN IE29 AIBK 9311 5212 3456 78, on 2021-05-0${1 + (index % 9)}, https://status.example.com/i/${index}, host 10.20.0.${index % 250}, cost €${index}.\n`;
  const filler = (index: number) => `${'lorem ipsum dolor sit amet '.repeat(40)}${index}\n`;

  /**
   * About 1.15 Mi characters: notes and filler lines to about half a window, then one long line across the window edge
   * (no line end between half a window and the edge, so the edge falls at WINDOW_CHARS exactly) holding an e-mail that
   * straddles it, then more lines.
   */
  function largeText(): { text: string; email: string } {
    let head = '';
    for (let index = 0; head.length < WINDOW_CHARS / 2 - 2000; index++) head += index % 4 === 0 ? note(index) : filler(index);
    const email = 'straddle.me@example.ie';
    let line = '';
    while (head.length + line.length < WINDOW_CHARS - 10) line += 'word ';
    let text = `${head}${line}${email} and ${'word '.repeat(1000)}\n`;
    for (let index = 0; text.length < WINDOW_CHARS * 1.15; index++) text += index % 3 === 0 ? note(10_000 + index) : filler(index);
    return { text, email };
  }

  it('finds a fact straddling the edge once, whole, and prints exactly what extraction over the whole text held at once prints', async () => {
    const { text, email } = largeText();
    const start = text.indexOf(email);
    expect(start).toBeLessThan(WINDOW_CHARS);
    expect(start + email.length).toBeGreaterThan(WINDOW_CHARS);
    expect(text.length).toBeGreaterThan(WINDOW_CHARS + 4096);
    const path = write('large.txt', text);
    const result = await box.hippo(['extract', '--all', path, '--region', 'IE', '--json']);
    expect(result.exitCode).toBe(0);
    // The former output: the whole file read as one passage, recognised by extractFacts, one JSON document.
    const whole = extractFacts([{ source: path, text }], { kinds: KINDS, region: 'IE', regions: DEFAULT_REGIONS.filter((region) => region !== 'IE') });
    expect(String(result.stdout)).toBe(jsonText({ facts: whole, warnings: [] }));
    const facts = factsOf(result);
    expect(facts.length).toBeGreaterThan(500);
    const straddling = facts.filter((fact) => fact.value === email);
    expect(straddling).toHaveLength(1);
    expect(straddling[0]?.occurrences).toEqual([{ source: path, start, end: start + email.length, text: email, label: '' }]);
    for (const fact of facts) for (const occurrence of fact.occurrences) expect(text.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
    // The table places it where it is in the whole file.
    const table = await box.hippo(['extract', 'email', path, '--region', 'IE']);
    const { line, col } = lineCol(text, start);
    expect(String(table.stdout)).toMatch(new RegExp(`${email}\\s.*${path.replaceAll('/', '\\/')}:${line}:${col}\\s`));
  });

  it('refuses bytes that are not UTF-8 past the first window with one JSON error document and no facts', async () => {
    const { text } = largeText();
    const path = write('bad.txt', Buffer.concat([Buffer.from(text), Buffer.from([0xff]), Buffer.from('\nmore@example.ie\n')]));
    const result = await box.hippo(['extract', '--all', path, '--json']);
    expect(result.exitCode).toBe(2);
    expect(json<{ error: { code: string; message: string } }>(result)).toEqual({
      error: expect.objectContaining({ code: 'not_utf8', message: expect.stringContaining(path) }),
    });
  });
});

describe('review findings', () => {
  it('keeps offsets exact for a file with a byte-order mark and CRLF lines (slice of the file as Node reads it)', async () => {
    const path = join(box.dir, 'bom.txt');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Office:\t+353 1 234 5678\r\nMail: jane@example.ie\r\n')]));
    const result = await box.hippo(['extract', '--all', path, '--region', 'IE', '--json']);
    expect(result.exitCode).toBe(0);
    const text = readFileSync(path, 'utf8');
    const { facts } = json<{ facts: { occurrences: { start: number; end: number; text: string }[] }[] }>(result);
    expect(facts.length).toBeGreaterThanOrEqual(2);
    for (const fact of facts) for (const occurrence of fact.occurrences) expect(text.slice(occurrence.start, occurrence.end)).toBe(occurrence.text);
  });

  it('finds no address in a pasted log of one enormous dotted domain, and returns promptly', async () => {
    const path = join(box.dir, 'log.txt');
    writeFileSync(path, `${'a'.repeat(1000)}@${'b.'.repeat(100_000)}com and jane@example.ie`);
    const result = await box.hippo(['extract', 'email', path, '--json']);
    expect(result.exitCode).toBe(0);
    expect(json<{ facts: { normalized: string }[] }>(result).facts.map((fact) => fact.normalized)).toEqual(['jane@example.ie']);
  });
});
