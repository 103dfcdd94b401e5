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
export type Resolve = (host: string, type: "A" | "AAAA") => Promise<string[]>;
/**
 * A target refused, or the addresses it may be sent to: exactly those checked, so the delivery
 * connects to them and does not ask DNS again (a second answer could name a private address).
 * Empty only with `allowPrivate`, for a name DNS does not know (localhost, /etc/hosts): the
 * system's resolver then finds it.
 */
export type Target = { refused: TargetRefusal } | { refused?: undefined; addresses: string[] };

/**
 * Where a URL may be sent: https only, and every address its host resolves to public. With
 * `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE, development and tests) http:// and private addresses pass.
 */
export async function checkTarget(
  url: string,
  allowPrivate: boolean,
  resolve: Resolve = (host, type) => Deno.resolveDns(host, type),
): Promise<Target> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refused: "scheme" };
  }
  if (parsed.protocol !== "https:" && !(allowPrivate && parsed.protocol === "http:")) return { refused: "scheme" };
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (parseIp(host)) return allowPrivate || isPublicIp(host) ? { addresses: [host] } : { refused: "address" };
  if (!allowPrivate && (host === "localhost" || host.endsWith(".localhost"))) return { refused: "address" };
  const addresses: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    try {
      addresses.push(...await resolve(host, type));
    } catch { /* no record of this type */ }
  }
  if (allowPrivate) return { addresses };
  if (addresses.length === 0) return { refused: "unresolved" };
  return addresses.every(isPublicIp) ? { addresses } : { refused: "address" };
}

/** Why a URL may not be sent to, or undefined when it may (checkTarget without the addresses). */
export async function refuseTarget(url: string, allowPrivate: boolean, resolve?: Resolve): Promise<TargetRefusal | undefined> {
  return (await checkTarget(url, allowPrivate, resolve)).refused;
}
