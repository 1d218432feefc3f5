// Whose request it is: the address of the client, for the audit log and the log. A client can put
// anything into X-Forwarded-For, so only the entries the console's own reverse proxies added count:
// with TRUSTED_PROXY_HOPS = n, the n nearest hops (the connection's peer and the n - 1 entries
// right of the client's) are trusted proxies, and the client is the entry the outermost one added.
// With 0 (the default) the connection's peer is the client and no header is believed.
import { isIP } from "node:net";

/**
 * The header lib/connections.ts sets on every request from the connection's peer address, over
 * anything a client sent under the same name: how the application, which sees only headers, learns it.
 */
export const PEER_HEADER = "x-console-peer";

/** An address as the audit log keeps it: an IP address (IPv4 mapped into IPv6 written as IPv4), else null. */
export function normalizeAddress(text: string | null | undefined): string | null {
  let address = text?.trim() ?? "";
  // [v6]:port, or v4:port
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  if (/^::ffff:[\d.]+$/i.test(address)) address = address.slice(7);
  return isIP(address) ? address.toLowerCase() : null;
}

/**
 * The client's address: the connection's `peer` when `hops` is 0; otherwise the X-Forwarded-For
 * entry `hops` places left of the peer (each trusted proxy appends the address it was reached from).
 * Entries further left are what the client claimed and are ignored. A chain shorter than the hops
 * (the request did not come through every proxy) gives its left-most entry; no header, the peer.
 */
export function clientAddress(forwardedFor: string | null, peer: string | null, hops: number): string | null {
  if (hops <= 0) return normalizeAddress(peer);
  const chain = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  // The peer is the nearest proxy; the entry it added is the last, the client's is `hops` from the right.
  const index = Math.max(chain.length - hops, 0);
  return normalizeAddress(chain[index] ?? peer);
}

/** The client's address from a request's headers, with `hops` trusted proxies (config: TRUSTED_PROXY_HOPS). */
export function clientAddressOf(headers: { get(name: string): string | null }, hops: number): string | null {
  return clientAddress(headers.get("x-forwarded-for"), headers.get(PEER_HEADER), hops);
}
