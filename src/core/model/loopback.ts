/**
 * Whether a model's base URL is on this machine (issue 27 defect 4; docs/redaction.md "Loopback"). Loopback is:
 * - an address literal in 127.0.0.0/8 or ::1, in any spelling the URL standard accepts (`[0:0:0:0:0:0:0:1]`,
 *   `http://2130706433`), and the IPv4-mapped form of a 127.0.0.0/8 address (`[::ffff:127.0.0.1]`: the kernel
 *   delivers it to the IPv4 loopback, it never reaches a network);
 * - the name `localhost` itself (not `foo.localhost`, not `localhost.`: those go to the resolver, which may ask DNS);
 * - any other name that resolves ONLY to loopback addresses when the command resolves it (`pinLoopback`, once per
 *   command). The request is then sent to that very address (the name is kept for TLS and the Host header), so a
 *   second lookup cannot move the destination. A name that does not resolve, or resolves to any other address, is not
 *   loopback.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import type { HttpModelConfig, ModelConfig } from './config.js';

/** True for an address in 127.0.0.0/8, ::1, or ::ffff:127.x.y.z (in either of its spellings). */
export function isLoopbackAddress(address: string): boolean {
  let host = address.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  const family = isIP(host);
  if (family === 4) return host.startsWith('127.');
  if (family !== 6) return false;
  let canonical: string;
  try {
    canonical = new URL(`http://[${host}]/`).hostname.slice(1, -1); // the URL standard's compressed form
  } catch {
    return false;
  }
  if (canonical === '::1') return true;
  // ::ffff:127.0.0.1 is written ::ffff:7f00:1 in canonical form.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical);
}

/** True when the host part of `baseUrl` is a loopback address literal or exactly `localhost` (no lookup). */
export function isLoopbackUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || isLoopbackAddress(host);
}

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Every address a name resolves to (the system resolver, as the connection would use). */
export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

const systemLookup: LookupAll = (hostname) =>
  new Promise((resolve, reject) => {
    // `dns.lookup` read at call time: the same function `net.connect` uses.
    dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/**
 * The config with `pinnedAddress` set when its base URL names a host (not an address literal, not `localhost`) that
 * resolves only to loopback addresses now; otherwise the config unchanged. A failed lookup leaves it unpinned
 * (not loopback: redaction under `auto` applies, and the request itself reports the unreachable host).
 */
export async function pinLoopback<C extends ModelConfig>(config: C, lookup: LookupAll = systemLookup): Promise<C> {
  if (config.provider === 'command') return config;
  let host: string;
  try {
    host = new URL(config.baseUrl).hostname.toLowerCase();
  } catch {
    return config;
  }
  if (host === 'localhost' || isIP(host.replace(/^\[|\]$/g, '')) !== 0) return config;
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch {
    return config;
  }
  const first = addresses[0];
  if (first === undefined || !addresses.every((a) => isLoopbackAddress(a.address))) return config;
  return { ...config, pinnedAddress: first.address };
}

/** Whether a config's prompts stay on this machine: a loopback base URL, or a name pinned to a loopback address. */
export function staysOnMachine(config: HttpModelConfig): boolean {
  return isLoopbackUrl(config.baseUrl) || config.pinnedAddress !== undefined;
}
