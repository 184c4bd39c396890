/**
 * The stdio transport of `hippo mcp` (docs/mcp.md): newline-delimited JSON-RPC on stdin and stdout, as the MCP
 * specification's stdio transport says. It replaces the SDK's `StdioServerTransport` for three reasons a server that
 * must keep serving cares about: a line that is not JSON, or not JSON-RPC, is answered with the JSON-RPC error the
 * specification names (-32700, -32600) instead of being dropped silently; a line over the size cap is skipped (and
 * answered) instead of closing the connection; and the end of stdin — the client going away — closes the transport.
 * Only protocol frames are written to stdout.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { jsonText } from '../core/json-text.js';
import { createHippoServer, type HippoServerOptions } from './server.js';

/** A message larger than this is refused (and skipped up to its newline): 16 MiB, far past any tool call hippo takes. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Inside a line that went over the cap: drop everything up to its newline. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string) => this.take(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  /**
   * The end of stdin: nothing more will be read, but calls already read are still answered (serveStdio waits for them
   * and then closes the server, which closes this transport). Without a listener, it closes at once.
   */
  onInputEnd?: () => void;
  private readonly onEnd = () => {
    this.stopReading();
    if (this.onInputEnd) this.onInputEnd();
    else void this.close();
  };
  /** A client that closed its end makes writes fail (EPIPE): that is the client leaving, not a crash. */
  private readonly onOutputError = () => void this.close();

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onEnd);
    this.output.on('error', this.onOutputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    // As the commands' --json: bidi and C1 controls (and U+2028/2029) in memory text travel as \u escapes, never raw.
    const line = `${jsonText(message)}\n`;
    await new Promise<void>((resolve) => {
      if (this.output.write(line)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopReading();
    this.onclose?.();
  }

  private stopReading(): void {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    this.input.off('error', this.onEnd);
    this.chunks = [];
    this.buffered = 0;
  }

  private take(chunk: Buffer): void {
    let rest = chunk;
    for (;;) {
      const newline = rest.indexOf(0x0a);
      if (newline < 0) break;
      const tail = rest.subarray(0, newline);
      rest = rest.subarray(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = this.chunks.length === 0 ? tail : Buffer.concat([...this.chunks, tail]);
      this.chunks = [];
      this.buffered = 0;
      this.handleLine(line);
      if (this.closed) return;
    }
    if (this.skipping || rest.length === 0) return;
    this.chunks.push(rest);
    this.buffered += rest.length;
    if (this.buffered > this.maxLineBytes) {
      this.chunks = [];
      this.buffered = 0;
      this.skipping = true;
      this.reply(ErrorCode.InvalidRequest, `message too large: over ${this.maxLineBytes} bytes; it was skipped`);
    }
  }

  private handleLine(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(ErrorCode.ParseError, 'parse error: the line is not JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.reply(ErrorCode.InvalidRequest, 'invalid request: not a JSON-RPC 2.0 message', requestId(value));
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** A JSON-RPC error for a message that never reached the server; without the id when it could not be read. */
  private reply(code: number, message: string, id?: string | number): void {
    void this.send({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message } });
  }
}

/** The id of a message that is not valid JSON-RPC, when it has a usable one (so the client can match the error). */
function requestId(value: unknown): string | number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Serves one agent on stdin/stdout until the client closes stdin or `signal` fires; then waits for calls in flight
 * (their writes land whole) and closes the server. The store stays open (the caller's).
 */
export async function serveStdio(
  options: HippoServerOptions & { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream; signal?: AbortSignal },
): Promise<void> {
  const hippo = createHippoServer(options);
  const transport = new LineTransport(options.input ?? process.stdin, options.output ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    hippo.server.onclose = resolve;
    // The client closed stdin: what it sent before is still answered (hippo.idle below), then the server closes.
    transport.onInputEnd = resolve;
  });
  const aborted = new Promise<void>((resolve) => {
    if (options.signal?.aborted) resolve();
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await hippo.server.connect(transport);
  await Promise.race([closed, aborted]);
  await hippo.idle();
  await hippo.server.close();
}
