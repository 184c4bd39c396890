/**
 * `hippo mcp --http` (docs/mcp.md): the SDK's Streamable HTTP transport behind a small guard, one MCP session per
 * client. Before a request reaches a session:
 *
 * - the path must be `/mcp`;
 * - bound to a loopback address, the Host header must name a loopback host (a DNS-rebinding page cannot reach us
 *   under its own name); an Origin header, when present, must be one of the origins allowed (`--allow-origin`): the
 *   protocol's security guidance asks servers to validate Origin on every request, and browsers are the only
 *   clients that send it;
 * - when tokens are required (any address that is not loopback, or `--require-token`), `Authorization: Bearer` must
 *   carry a live token: none, a wrong one or a revoked one is 401 with one generic JSON-RPC error ("bearer token
 *   missing or invalid": which of the three is not said), and the session is served as the token's agent — a
 *   session opened by one agent is not found for another; when they are not required, a request that sends an
 *   `Authorization` header anyway is held to the same rule (served as its token's agent, or 401), and one without
 *   it is served as the start agent;
 * - a POST body is read up to a cap (413 past it, before any JSON is parsed).
 *
 * Every request is logged on one line (`log`, stderr by default): time, method, status, the token's id or "none",
 * duration — never the token, the body, the query or any memory text (issue 30).
 *
 * Sessions are closed when the client deletes them, after an idle time, and when the server stops; the server waits
 * for calls in flight before it closes the store.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { UsageError } from '../core/errors.js';
import type { ModelSource } from '../core/extract/extract.js';
import type { Store } from '../core/store/port.js';
import { authenticateToken } from '../core/tokens.js';
import { createHippoServer, type HippoServer } from './server.js';

/** Request bodies are read up to 4 MiB: a tool's largest argument (1 M characters of text) with room for JSON escapes. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A session nobody used for this long is closed (its client starts a new one). */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Open sessions at most, for the whole server: past it a new client gets 503 (docs/mcp.md, "Caps"). */
export const MAX_SESSIONS = 1_000;
/** Open sessions at most per bearer token: one token holder cannot fill the server (issue 27). */
export const MAX_SESSIONS_PER_TOKEN = 32;
/** Open sessions at most per agent, whatever tokens it holds (without tokens: the one agent served). */
export const MAX_SESSIONS_PER_AGENT = 128;
/** How long a client refused for too many sessions is told to wait (Retry-After, seconds). */
const RETRY_AFTER_SECONDS = 60;

/** How long an idle keep-alive connection stays open (longer than a load balancer's usual 60 s idle timeout). */
export const KEEP_ALIVE_MS = 65_000;

/** The limits a new session may hit, in the order they are checked. */
export type SessionLimit = 'token' | 'agent' | 'server';
export const MCP_PATH = '/mcp';

export interface HttpServeOptions {
  store: Store;
  host: string;
  /** 0 picks a free port (the URL says which). */
  port: number;
  /** The agent served when tokens are not required. */
  agentId: string;
  /** Require a bearer token on every request; forced on for an address that is not loopback. */
  requireTokens: boolean;
  allowReview: boolean;
  /** Origins (scheme://host[:port]) a browser page may call from; none by default. */
  allowedOrigins: readonly string[];
  version: string;
  maxBodyBytes?: number;
  model?: ModelSource;
  /** The access log: one line per request (default: stderr); `false` logs nothing. */
  log?: ((line: string) => void) | false;
  /** The session caps (tests and embedders); the constants above by default. */
  sessionLimits?: Partial<Record<SessionLimit, number>>;
}

export interface RunningHttpServer {
  url: string;
  /** Whether every request needs a bearer token. */
  requireTokens: boolean;
  /** Stops listening, waits for calls in flight, closes every session. The store stays open (the caller's). */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  hippo: HippoServer;
  agentId: string;
  /** The id (never the secret) of the token that opened it; undefined when tokens are not required. */
  tokenId: string | undefined;
  lastUsed: number;
  /** Requests of this session being answered now (POST, DELETE): a session with none is idle and may be evicted. */
  busy: number;
}

/** Whether `host` (an address or a name) is this machine's loopback: `localhost`, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare.toLowerCase() === 'localhost') return true;
  if (!ipaddr.isValid(bare)) return false;
  const address = ipaddr.process(bare);
  return address.range() === 'loopback';
}

/** The host name of a Host header (`127.0.0.1:8765`, `[::1]:8765`, `localhost`), without the port. */
function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(\[[^\]]*\]|[^:]+)(?::\d+)?$/.exec(header.trim());
  return match?.[1];
}

function plain(res: ServerResponse, status: number, body = '', headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

/** A JSON-RPC error as the Streamable HTTP transport writes its own (no id: the request could not be read). */
function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, data?: object, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) } }));
}

const LIMIT_WORDS: Record<SessionLimit, string> = {
  token: 'this token',
  agent: 'this agent',
  server: 'the server',
};

/** What a refused (413) body may still send before its connection is cut: the client reads the 413, not a reset. */
export const DISCARD_BYTES = 4 * MAX_BODY_BYTES;
/** ...and how long it may take to send it. */
const DISCARD_MS = 10_000;

/**
 * The body, or `undefined` when it is over `maxBytes` (known from Content-Length before anything is kept, or as soon
 * as the bytes read pass the cap). A refused body is not cut off at once: a client still sending would see a
 * connection reset instead of our 413, so the rest is read and thrown away before we answer (a "lingering close", as
 * nginx does), up to `DISCARD_BYTES` more and `DISCARD_MS`; past either the connection is cut. A declared length past
 * that bound is answered at once (and the connection closed).
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes + DISCARD_BYTES) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    let timer: NodeJS.Timeout | undefined;
    const cut = (): void => {
      req.socket.destroy();
      resolve(undefined);
    };
    const refuse = (): void => {
      refused = true;
      chunks.length = 0;
      timer = setTimeout(cut, DISCARD_MS);
      timer.unref();
    };
    if (Number.isFinite(declared) && declared > maxBytes) refuse();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refused) {
        if (size > maxBytes + DISCARD_BYTES) cut();
      } else if (size > maxBytes) refuse();
      else chunks.push(chunk);
    });
    req.once('end', () => {
      clearTimeout(timer);
      resolve(refused ? undefined : Buffer.concat(chunks).toString('utf8'));
    });
    req.once('close', () => {
      clearTimeout(timer);
      if (refused) resolve(undefined);
      else if (!req.complete) reject(new Error('the client closed the connection before its request body ended'));
    });
    req.once('error', (error) => (refused ? resolve(undefined) : reject(error)));
  });
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** Starts the HTTP server; resolves once it listens (a port in use or an address it cannot bind is exit 2). */
/**
 * One access-log line: `2026-12-06T20:15:00.123Z POST 401 token=none 2ms`. Only these fields: the method is one of
 * HTTP's words (anything else is shown as "other"), the token by its id.
 */
export function accessLine(request: { at: Date; method: string | undefined; status: number; tokenId: string | undefined; ms: number }): string {
  const method = /^(GET|POST|DELETE|PUT|PATCH|HEAD|OPTIONS)$/.test(request.method ?? '') ? request.method : 'other';
  return `${request.at.toISOString()} ${method} ${request.status} token=${request.tokenId ?? 'none'} ${Math.round(request.ms)}ms`;
}

export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const log = options.log === false ? undefined : (options.log ?? ((line: string) => void process.stderr.write(`${line}\n`)));
  const loopback = isLoopback(options.host);
  const requireTokens = options.requireTokens || !loopback;
  const allowedOrigins = new Set(options.allowedOrigins.map((origin) => origin.replace(/\/+$/, '')));
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const limits: Record<SessionLimit, number> = {
    token: options.sessionLimits?.token ?? MAX_SESSIONS_PER_TOKEN,
    agent: options.sessionLimits?.agent ?? MAX_SESSIONS_PER_AGENT,
    server: options.sessionLimits?.server ?? MAX_SESSIONS,
  };
  const sessions = new Map<string, Session>();
  /** Sessions whose initialize is being answered: not in `sessions` yet (no id), but counted against every limit. */
  const opening = new Set<Session>();

  /**
   * Makes room for a new session of `agentId` opened with `tokenId`, or says which limit stands in the way. Each
   * limit in turn (the token's, the agent's, the server's): when it is full, the oldest idle session it counts is
   * closed — the caller's own token's first, then its agent's, then (the server's limit only) anyone's; when every
   * session it counts is busy with a call, that limit is the answer. One token can fill neither its agent's share nor
   * the server, and evicts only its own sessions until the whole server is full.
   */
  const admit = (agentId: string, tokenId: string | undefined): SessionLimit | undefined => {
    const scopes: [SessionLimit, (session: Session) => boolean][] = [
      ['token', (session) => session.tokenId === tokenId],
      ['agent', (session) => session.agentId === agentId],
      ['server', () => true],
    ];
    const preference = (session: Session) => (tokenId !== undefined && session.tokenId === tokenId ? 0 : session.agentId === agentId ? 1 : 2);
    for (const [limit, counted] of scopes) {
      if (limit === 'token' && tokenId === undefined) continue;
      for (;;) {
        const open = [...sessions.values(), ...opening].filter(counted);
        if (open.length < limits[limit]) break;
        // A session still opening is answering its initialize: busy, never evicted (closing it would not take it out
        // of `opening`, and this loop would pick it again for ever).
        const idle = open
          .filter((session) => session.busy === 0 && !opening.has(session))
          .sort((a, b) => preference(a) - preference(b) || a.lastUsed - b.lastUsed)[0];
        if (!idle) return limit;
        void closeSession(idle);
      }
    }
    return undefined;
  };

  /** Runs one request of `session`, counting it as busy until its answer is written (or the client left). */
  const serve = (session: Session, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    // A GET is the client's standing event stream: it never makes a session busy (it would never be idle again).
    if (req.method !== 'GET') {
      session.busy++;
      res.once('close', () => {
        session.busy--;
        session.lastUsed = Date.now();
      });
    }
    return session.transport.handleRequest(req, res, body);
  };
  const inFlight = new Set<Promise<void>>();

  const handle = async (req: IncomingMessage, res: ServerResponse, seen: { tokenId?: string }): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://hippo').pathname;
    if (path !== MCP_PATH) return plain(res, 404, `not found: the MCP endpoint is ${MCP_PATH}\n`);
    if (loopback) {
      const name = hostName(req.headers.host);
      if (name === undefined || !isLoopback(name)) return plain(res, 403, 'forbidden: Host is not this loopback server\n');
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) return plain(res, 403, 'forbidden: Origin not allowed\n');

    let agentId = options.agentId;
    let tokenId: string | undefined;
    // A request that carries credentials is served as them, or refused: on loopback without required tokens a sent
    // token is not ignored, so a client configured with another agent's token never writes as the start agent.
    if (requireTokens || req.headers.authorization !== undefined) {
      const secret = bearer(req);
      const token = secret === undefined ? undefined : await authenticateToken(options.store, secret);
      if (!token) return jsonRpcError(res, 401, -32001, 'bearer token missing or invalid', undefined, { 'www-authenticate': 'Bearer' });
      agentId = token.agentId;
      tokenId = token.id;
      seen.tokenId = token.id;
    }

    let body: unknown;
    if (req.method === 'POST') {
      const text = await readBody(req, maxBody);
      if (text === undefined) {
        // A body past what we read and throw away is cut when the 413 is written; a smaller one is drained (above).
        if (Number(req.headers['content-length']) > maxBody + DISCARD_BYTES) res.setHeader('connection', 'close');
        return jsonRpcError(res, 413, -32600, `request body too large: the limit is ${maxBody} bytes`);
      }
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, -32700, 'parse error: the body is not JSON');
      }
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId !== 'string') {
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        return jsonRpcError(res, 400, -32000, 'bad request: no Mcp-Session-Id; start a session with an initialize request');
      }
      const full = admit(agentId, tokenId);
      if (full !== undefined) {
        // 429 when it is the caller's own limit (its token's or its agent's), 503 when the server is full. The body
        // names the limit and its size, never the token.
        return jsonRpcError(
          res,
          full === 'server' ? 503 : 429,
          -32000,
          `too many open sessions for ${LIMIT_WORDS[full]} (at most ${limits[full]}, each busy with a call); close one or try again later`,
          { limit: full, max: limits[full], retryAfterSeconds: RETRY_AFTER_SECONDS },
          { 'retry-after': String(RETRY_AFTER_SECONDS) },
        );
      }
      const hippo = createHippoServer({
        store: options.store,
        agentId,
        allowReview: options.allowReview,
        version: options.version,
        model: options.model,
        channel: 'mcp-http',
        tokenId,
      });
      const session: Session = { hippo, agentId, tokenId, lastUsed: Date.now(), busy: 0, transport: undefined as unknown as StreamableHTTPServerTransport };
      session.transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void sessions.set(id, session),
      });
      hippo.server.onclose = () => {
        if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
      };
      opening.add(session);
      try {
        await hippo.server.connect(session.transport);
        await serve(session, req, res, body);
      } finally {
        opening.delete(session);
      }
      return;
    }

    const session = sessions.get(sessionId);
    // Another agent's session is simply not there: session ids do not cross agents.
    if (!session || session.agentId !== agentId) return jsonRpcError(res, 404, -32001, 'session not found');
    session.lastUsed = Date.now();
    return serve(session, req, res, body);
  };

  const http: NodeHttpServer = createServer((req, res) => {
    // A client that goes away mid-call closes its socket: writing the answer then fails quietly, and we keep serving.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const seen: { tokenId?: string } = {};
    if (log) {
      const started = performance.now();
      let logged = false;
      const line = () => {
        if (logged) return;
        logged = true;
        log(accessLine({ at: new Date(), method: req.method, status: res.statusCode, tokenId: seen.tokenId, ms: performance.now() - started }));
      };
      res.once('finish', line);
      res.once('close', line);
    }
    const work = handle(req, res, seen).catch(() => plain(res, 500, 'internal error\n'));
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  http.headersTimeout = 30_000;
  http.requestTimeout = 5 * 60_000;
  // A SQLite search runs on this thread and holds it for its whole statement (seconds on a large store under load).
  // Node's keep-alive timer (5 s by default) fires first when the thread comes back, before the socket is read, so a
  // client that had already sent its next request on an idle connection got ECONNRESET (the 1 M load bench, issue
  // 25). Idle connections are kept longer than any statement holds the thread; `close()` still ends idle ones at once.
  http.keepAliveTimeout = KEEP_ALIVE_MS;

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const code = error.code === 'EADDRINUSE' ? 'port_in_use' : 'cannot_listen';
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : `cannot listen there (${error.code ?? error.message})`;
      reject(new UsageError(code, `${options.host}:${options.port}: ${why}`, { details: { host: options.host, port: options.port } }));
    };
    http.once('error', failed);
    http.listen(options.port, options.host, () => {
      http.off('error', failed);
      resolve();
    });
  });

  const sweep = setInterval(() => {
    const stale = Date.now() - SESSION_IDLE_MS;
    for (const session of sessions.values()) if (session.lastUsed < stale) void closeSession(session);
  }, 60_000);
  sweep.unref();

  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    requireTokens,
    async close() {
      clearInterval(sweep);
      // Stop taking connections; let the calls in flight finish (their writes land whole), then end every session
      // (which ends its event streams) and whatever connection is left.
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      await Promise.allSettled([...sessions.values()].map(closeSession));
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      http.closeAllConnections();
      await stopped;
    },
  };

  async function closeSession(session: Session): Promise<void> {
    if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    await session.hippo.idle();
    await session.hippo.server.close().catch(() => undefined);
  }
}
