/*
 * The client's IP address, for limits kept per client (sign-in attempts).
 *
 * The socket's peer is the client, unless it is one of our reverse proxies (TRUST_PROXY).
 * Then X-Forwarded-For is walked from the right: each proxy appends the address it saw, so
 * the right-most entries are our proxies' own hops; the first address that is not a trusted
 * proxy is the client. Whatever stands left of it is the client's own claim and is never
 * read. An entry that is no address ends the walk at the last hop we could vouch for: only
 * a broken or untrusted writer puts one there, so nothing beyond it is believed.
 */
import type { Context } from "hono";
import { type Cidr, inCidr, type Ip, limitBucket, parseIp } from "../core/ip.ts";

/** Hops walked at most: a longer chain of our own proxies is not a deployment, but a header stuffed to cost us work. */
const HOPS_MAX = 20;

const trusted = (ip: Ip, proxies: Cidr[]) => proxies.some((cidr) => inCidr(ip, cidr));

/** The client's address, or undefined when the socket's peer is unknown (app.request without a connection). */
export function clientAddress(c: Context, proxies: Cidr[]): Ip | undefined {
  // Deno.serve hands Hono its connection info as the env (absent under app.request in tests)
  const info = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  let client = parseIp(info?.remoteAddr?.hostname ?? "");
  if (!client || !trusted(client, proxies)) return client;
  const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter((hop) => hop !== "");
  for (const hop of hops.reverse().slice(0, HOPS_MAX)) {
    const ip = parseIp(hop);
    if (!ip) break;
    client = ip;
    if (!trusted(ip, proxies)) break;
  }
  return client;
}

/** The bucket a per-IP limit counts the client under: IPv4 per address, IPv6 per /64. */
export function clientIpBucket(c: Context, proxies: Cidr[]): string {
  const ip = clientAddress(c, proxies);
  return ip ? limitBucket(ip) : "unknown";
}
