/**
 * MCP clients for tests: the SDK's own `Client`, talking to the built CLI (`node bin/run.js mcp …`) over stdio or over
 * Streamable HTTP, exactly as Claude Code, Cursor or any other client would.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execa, type ResultPromise } from 'execa';
import { BIN, type Sandbox } from './cli.js';

/** A JSON document read back from the server: its shape is what the assertions check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from a process, checked by the assertions that read it
export type Json = any;

export const CLIENT_INFO = { name: 'hippo-test-client', version: '1.2.3' };

export interface StdioSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** `hippo mcp ARGS` spawned by the SDK's stdio client transport, initialised. */
export async function stdioClient(box: Sandbox, args: string[] = [], env: Record<string, string> = {}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { ...getDefaultEnvironment(), ...box.env, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** A tool call's structured content (failing the test with the server's text when the call failed). */
export async function call<T = Record<string, Json>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  return result.structuredContent as T;
}

/** A tool call expected to fail: its `{error: {code, message, details?}}` and its text. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string; details?: Json; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} was expected to fail, but returned ${JSON.stringify(result.structuredContent)}`);
  const error = (result.structuredContent as { error: { code: string; message: string; details?: unknown } }).error;
  const [first] = result.content;
  return { ...error, text: first?.type === 'text' ? first.text : '' };
}

/** The text content of a tool result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

export interface HttpServer {
  url: string;
  process: ResultPromise;
  stderr(): string;
  stop(): Promise<void>;
}

/** `hippo mcp --http --port 0 ARGS`, resolved once it says where it listens. */
export async function startHttpServer(box: Sandbox, args: string[] = [], env: Record<string, string> = {}): Promise<HttpServer> {
  const child = execa('node', [BIN, 'mcp', '--http', '--port', '0', ...args], {
    reject: false,
    env: { ...box.env, ...env },
    extendEnv: true,
    stdin: 'ignore',
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${stderr}`)), 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void child.then((result) => {
      clearTimeout(timer);
      reject(new Error(`the server exited ${result.exitCode}:\n${stderr}`));
    });
  });
  return {
    url,
    process: child,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/** An SDK client over Streamable HTTP, with a bearer token when given. */
export async function httpClient(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined);
  const client = new Client(CLIENT_INFO);
  await client.connect(transport);
  return client;
}

/** One raw JSON-RPC POST, as a client that no SDK wrote would send it. */
export async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO },
});
