/**
 * The MCP Inspector's command-line client (@modelcontextprotocol/inspector-cli, a client no one here wrote) against
 * the built CLI: `tools/list` and a `tools/call`, over stdio and over HTTP with a bearer token.
 */
import { execa } from 'execa';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, json, ROOT, sandbox, type Sandbox } from '../helpers/cli.js';
import { startHttpServer, type HttpServer, type Json } from '../helpers/mcp.js';

const INSPECTOR = join(ROOT, 'node_modules', '.bin', 'mcp-inspector-cli');
let box: Sandbox;
let server: HttpServer | undefined;

beforeEach(() => {
  box = sandbox();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  box.cleanup();
});

/**
 * Runs the inspector and parses the one JSON document it prints. Its cwd is a directory of this repository: inspector-cli
 * 1.0.x looks for its own package.json with a path relative to the working directory (`../package.json`), and finds it
 * only from one level below a directory that has one.
 */
async function inspector(args: string[]): Promise<Json> {
  const result = await execa(INSPECTOR, args, { cwd: join(ROOT, 'bin'), env: { ...box.env }, extendEnv: true, reject: false });
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return JSON.parse(String(result.stdout));
}

describe('the MCP Inspector CLI against hippo mcp', () => {
  it('lists the tools over stdio, with their input schemas', async () => {
    const { tools } = await inspector(['--cli', 'node', BIN, 'mcp', '--agent', 'me', '--method', 'tools/list']);
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(['memory_add', 'memory_search', 'facts_extract', 'rem_prompt', 'rem_ingest', 'candidates_list', 'candidate_show']),
    );
    expect(tools.map((tool: { name: string }) => tool.name)).not.toContain('candidate_promote');
    const search = tools.find((tool: { name: string }) => tool.name === 'memory_search');
    expect(search.inputSchema).toMatchObject({ type: 'object', required: ['query'], properties: { query: { type: 'string' } } });
  });

  it('calls memory_add over stdio; the memory is in the store', async () => {
    const result = await inspector([
      '--cli',
      'node',
      BIN,
      'mcp',
      '--agent',
      'me',
      '--method',
      'tools/call',
      '--tool-name',
      'memory_add',
      '--tool-arg',
      'content=Ana at the Dublin office: ana@example.com',
      '--tool-arg',
      'tags=["contacts"]',
    ]);
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toMatch(/^added mem_/);
    const { memories } = json<Json>(await box.hippo(['memory', 'list', '--agent', 'me', '--json']));
    expect(memories).toEqual([expect.objectContaining({ id: result.structuredContent.memory.id, tags: ['contacts'], source: 'mcp' })]);
  });

  it('calls memory_search over HTTP with a bearer token', async () => {
    const created = json<Json>(await box.hippo(['mcp', 'token', 'create', '--agent', 'ops', '--json']));
    await box.hippo(['memory', 'add', 'Dublin office: +353 1 234 5678', '--agent', 'ops']);
    server = await startHttpServer(box, ['--require-token']);
    const result = await inspector([
      '--cli',
      server.url,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${created.secret}`,
      '--method',
      'tools/call',
      '--tool-name',
      'memory_search',
      '--tool-arg',
      'query=phone of the Dublin office',
    ]);
    expect(result.structuredContent.facts).toEqual([expect.objectContaining({ kind: 'phone', normalized: '+35312345678' })]);
    expect(result.structuredContent.results[0].memory.agentId).toBe('ops');
  });
});
