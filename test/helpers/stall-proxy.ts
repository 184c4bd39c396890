/**
 * A TCP proxy on 127.0.0.1 in front of a real server that can be made to stop answering without closing anything:
 * the way a server behind a dead route, a frozen VM or a stuck load balancer looks to a client. Until it stalls it
 * forwards every byte both ways; once stalled (by `stall()`, or when the client has sent a chosen byte string), it
 * keeps every socket open and forwards nothing more in either direction, and new connections are accepted and left
 * unanswered. `close()` ends it all.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface StallProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Whether it has stalled. */
  stalled(): boolean;
  /** Stops forwarding now. */
  stall(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `host:port`; with `stallWhenClientSends`, it stalls as soon as a client sends those bytes. */
export async function startStallProxy(target: { host: string; port: number }, options: { stallWhenClientSends?: string } = {}): Promise<StallProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const marker = options.stallWhenClientSends === undefined ? undefined : Buffer.from(options.stallWhenClientSends, 'utf8');
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.on('close', () => sockets.delete(client));
    if (stalled) return; // accepted, never answered
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('error', () => undefined);
    upstream.on('close', () => sockets.delete(upstream));
    let tail = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      if (stalled) return;
      if (marker) {
        // The marker may straddle two chunks: look at the end of the last one too.
        const window = Buffer.concat([tail, chunk]);
        if (window.includes(marker)) {
          stalled = true;
          return;
        }
        tail = window.subarray(Math.max(0, window.length - marker.length + 1));
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!stalled) client.write(chunk);
    });
    // Either side closing closes the other, until the stall: from then on nothing is closed by the proxy.
    client.on('end', () => !stalled && upstream.end());
    upstream.on('end', () => !stalled && client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    stalled: () => stalled,
    stall: () => {
      stalled = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
