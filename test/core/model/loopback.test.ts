/**
 * Issue 27 defect 4: what counts as loopback for a model's base URL. Address literals in 127.0.0.0/8 and ::1 (every
 * spelling), the IPv4-mapped form of a 127.x address, and `localhost` itself; `foo.localhost` is a name like any
 * other: loopback only when it resolves ONLY to loopback addresses, and then every request goes to that address.
 */
import { describe, expect, test } from 'vitest';
import { createModelClient, describeModelConfig, isLoopbackUrl, pinLoopback, type HttpModelConfig, type LookupAll } from '../../../src/core/model/index.js';
import { destinationOf } from '../../../src/core/redaction.js';
import { reply, useModelServer } from '../../helpers/model-server.js';

const base = { timeoutMs: 5_000, maxBytes: 1024 * 1024, source: 'flag' as const };
const ollama = (baseUrl: string): HttpModelConfig => ({ ...base, provider: 'ollama', model: 'm', baseUrl });
/** A resolver that answers from a table (and fails for any other name, as an unknown name does). */
const table =
  (entries: Record<string, string[]>): LookupAll =>
  async (hostname) => {
    const addresses = entries[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('isLoopbackUrl: literals and localhost only', () => {
  test.each([
    ['http://127.0.0.1:11434', true],
    ['http://127.8.9.10', true],
    ['http://127.255.255.254', true],
    ['http://2130706433', true], // 127.0.0.1 as one number
    ['http://0x7f.1', true],
    ['http://localhost:1234/v1', true],
    ['http://LOCALHOST', true],
    ['http://[::1]:8080', true],
    ['http://[0:0:0:0:0:0:0:1]', true],
    ['http://[0000::0001]', true],
    ['http://[::ffff:127.0.0.1]:8080', true],
    ['http://[::ffff:7f00:1]', true],
    ['http://[::ffff:127.9.9.9]', true],
    ['http://foo.localhost', false],
    ['http://localhost.', false],
    ['http://a.b.localhost:8080/v1', false],
    ['http://localhost.evil.com', false],
    ['http://128.0.0.1', false],
    ['http://126.255.255.255', false],
    ['http://192.168.1.2:11434', false],
    ['http://[::2]', false],
    ['http://[::]', false],
    ['http://[::127.0.0.1]', false], // IPv4-compatible (deprecated), not the mapped form
    ['http://[::ffff:10.0.0.1]', false],
    ['http://[fe80::1]', false],
    ['https://api.openai.com/v1', false],
    ['not a url', false],
  ])('isLoopbackUrl(%s) = %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});

describe('pinLoopback: a name counts only when it resolves only to loopback', () => {
  const lookup = table({
    'foo.localhost': ['127.0.0.1'],
    'mixed.test': ['127.0.0.1', '192.0.2.7'],
    'mixed6.test': ['::1', '2001:db8::1'],
    'only6.test': ['::1'],
    'many.test': ['127.0.0.2', '::1', '::ffff:127.0.0.3'],
    'remote.test': ['192.0.2.7'],
    'empty.test': [],
  });

  test('foo.localhost is remote unless it resolves, and by itself its name proves nothing', async () => {
    const config = ollama('http://foo.localhost:11434');
    expect(destinationOf(config)).toBe('remote');
    expect(describeModelConfig(config).leavesMachine).toBe(true);
    // Unresolvable: not loopback.
    const unresolved = await pinLoopback(config, table({}));
    expect(unresolved.pinnedAddress).toBeUndefined();
    expect(destinationOf(unresolved)).toBe('remote');
  });

  test.each([
    ['http://foo.localhost:11434', '127.0.0.1'],
    ['http://only6.test', '::1'],
    ['http://many.test/v1', '127.0.0.2'],
  ])('%s resolves only to loopback: pinned to %s, loopback', async (url, address) => {
    const pinned = await pinLoopback(ollama(url), lookup);
    expect(pinned.pinnedAddress).toBe(address);
    expect(destinationOf(pinned)).toBe('loopback');
    expect(describeModelConfig(pinned).leavesMachine).toBe(false);
    expect(describeModelConfig(pinned).egress).toContain(address);
  });

  test.each(['http://mixed.test', 'http://mixed6.test', 'http://remote.test', 'http://empty.test', 'http://unknown.test'])(
    '%s resolves to something other than loopback (or nothing): remote, not pinned',
    async (url) => {
      const result = await pinLoopback(ollama(url), lookup);
      expect(result.pinnedAddress).toBeUndefined();
      expect(destinationOf(result)).toBe('remote');
      expect(describeModelConfig(result).leavesMachine).toBe(true);
    },
  );

  test('literals and localhost are not looked up (loopback or not)', async () => {
    const never: LookupAll = async () => {
      throw new Error('looked up');
    };
    for (const url of ['http://127.0.0.1:1', 'http://localhost:1', 'http://[::1]:1', 'http://192.0.2.7']) {
      expect((await pinLoopback(ollama(url), never)).pinnedAddress).toBeUndefined();
    }
  });
});

describe('a pinned request goes to the pinned address, under the name', () => {
  const server = useModelServer({ per: 'suite' });

  test('the name never resolves again: the request reaches the address, with the name as Host', async () => {
    const port = new URL(server.baseUrl('ollama')).port;
    // `pinned.invalid` cannot resolve anywhere (RFC 6761): only the pin can bring the request to the server.
    const config = await pinLoopback(ollama(`http://pinned.invalid:${port}`), table({ 'pinned.invalid': ['127.0.0.1'] }));
    expect(config.pinnedAddress).toBe('127.0.0.1');
    server.respondWith(reply.json({ ok: true }));
    const result = await createModelClient(config).generateObject({ prompt: 'hi', jsonSchema: { type: 'object' }, maxOutputTokens: 16, temperature: 0 });
    expect(result.value).toEqual({ ok: true });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.host).toBe(`pinned.invalid:${port}`);
    expect(server.requests[0]?.body).toMatchObject({ model: 'm' });
  });

  test('without the pin the same name is unreachable', async () => {
    const port = new URL(server.baseUrl('ollama')).port;
    const call = createModelClient(ollama(`http://pinned.invalid:${port}`)).generateObject({
      prompt: 'hi',
      jsonSchema: { type: 'object' },
      maxOutputTokens: 16,
      temperature: 0,
    });
    await expect(call).rejects.toMatchObject({ code: 'model_unreachable' });
    expect(server.requests).toHaveLength(0);
  });
});
