/*
 * Where Pressa may send a request on a user's word (webhooks, docs/api.md "Webhooks"): a
 * public https:// address, checked after DNS at each send, so a name cannot point a delivery
 * into the server's own network (server-side request forgery). Pure checks plus one DNS call.
 */
import { type Cidr, inCidr, parseCidr, parseIp } from "./ip.ts";

/** Addresses no public service has: loopback, private, link-local, carrier NAT, multicast, reserved, and their IPv6 kin. */
const NOT_PUBLIC: Cidr[] = [
  "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
  "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
  "::/128", "::1/128", "64:ff9b::/96", "100::/64", "2001:db8::/32", "fc00::/7", "fe80::/10", "ff00::/8",
].map((text) => parseCidr(text)!);

export function isPublicIp(text: string): boolean {
  const ip = parseIp(text);
  return ip !== undefined && !NOT_PUBLIC.some((cidr) => inCidr(ip, cidr));
}

export type TargetRefusal = "scheme" | "address" | "unresolved";

/**
 * Why a URL may not be sent to, or undefined when it may: https only, and every address its
 * host resolves to public. With `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE, development and tests)
 * http:// and private addresses pass.
 */
export type Resolve = (host: string, type: "A" | "AAAA") => Promise<string[]>;

export async function refuseTarget(
  url: string,
  allowPrivate: boolean,
  resolve: Resolve = (host, type) => Deno.resolveDns(host, type),
): Promise<TargetRefusal | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "scheme";
  }
  if (parsed.protocol !== "https:" && !(allowPrivate && parsed.protocol === "http:")) return "scheme";
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (parseIp(host)) return isPublicIp(host) ? undefined : "address";
  if (host === "localhost" || host.endsWith(".localhost")) return "address";
  const addresses: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    try {
      addresses.push(...await resolve(host, type));
    } catch { /* no record of this type */ }
  }
  if (addresses.length === 0) return "unresolved";
  return addresses.every(isPublicIp) ? undefined : "address";
}
