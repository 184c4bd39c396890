/**
 * The fetch for a model whose base URL host name was pinned to a loopback address (./loopback.ts): every connection
 * goes to that address, whatever the name resolves to later. Its own module: node:http/https load only when used.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';

type Fetch = typeof globalThis.fetch;
const NULL_BODY = [101, 204, 205, 304];

/**
 * A fetch that connects to `address` whatever the request's host name resolves to (node:http with a fixed `lookup`;
 * the URL, TLS server name and Host header keep the name). Refuses a request for any other host. No redirects are
 * followed (a 3xx is returned as is); the body is not decompressed (no Accept-Encoding is sent unless the caller sets
 * one).
 */
export function pinnedFetch(hostname: string, address: string): Fetch {
  const family = isIP(address);
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname.toLowerCase() !== hostname) throw new Error('pinned_host_mismatch');
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        {
          method: request.method,
          headers,
          signal: request.signal,
          lookup: (_name, options, callback) => {
            const done = callback as (...args: unknown[]) => void;
            if ((options as { all?: boolean }).all) done(null, [{ address, family }]);
            else done(null, address, family);
          },
        },
        (res) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
          }
          const status = res.statusCode ?? 502;
          const stream = NULL_BODY.includes(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          if (stream === null) res.resume();
          resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
