/*
 * IP addresses and CIDR ranges, as TRUST_PROXY names the trusted proxies and as the per-IP
 * limits count clients. Pure: numbers in, numbers out, nothing thrown on a client's text.
 */

/** An address as a number: 32 bits for IPv4, 128 for IPv6. An IPv4-mapped IPv6 address is IPv4. */
export type Ip = { family: 4 | 6; value: bigint };
export type Cidr = { family: 4 | 6; value: bigint; prefix: number };

const BITS = { 4: 32, 6: 128 } as const;

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]{2,45}$/.test(text)) return undefined;
  let groups: string[];
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const split = (half: string) => (half === "" ? [] : half.split(":"));
  let tail: bigint | undefined;
  const last = (parts: string[]) => parts[parts.length - 1];
  // a dotted IPv4 tail (::ffff:192.0.2.1) counts as two groups
  const withTail = (parts: string[]) => {
    if (parts.length && last(parts).includes(".")) {
      tail = parseIpv4(last(parts));
      return tail === undefined ? undefined : [...parts.slice(0, -1), "0", "0"];
    }
    return parts;
  };
  if (halves.length === 2) {
    const head = split(halves[0]);
    const rest = withTail(split(halves[1]));
    if (!rest || head.length + rest.length > 7) return undefined;
    groups = [...head, ...Array(8 - head.length - rest.length).fill("0"), ...rest];
  } else {
    const all = withTail(split(text));
    if (!all || all.length !== 8) return undefined;
    groups = all;
  }
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return tail === undefined ? value : (value & ~0xffffffffn) | tail;
}

const MAPPED_PREFIX = 0xffffn << 32n;

/**
 * An address as a socket or a proxy writes it: IPv4, IPv6 (a zone, brackets and a port are
 * taken off: "[2001:db8::1]:443", "192.0.2.1:5678"); undefined for anything else.
 */
export function parseIp(raw: string): Ip | undefined {
  let text = raw.trim();
  if (text.length > 60) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%[\w.-]+$/, "");
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIpv6(text);
  if (v6 === undefined) return undefined;
  return v6 >> 32n === MAPPED_PREFIX >> 32n ? { family: 4, value: v6 & 0xffffffffn } : { family: 6, value: v6 };
}

/** "10.0.0.0/8", "fd00::/8", or one address ("192.0.2.7" is /32, "::1" is /128); undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined) return undefined;
  const ip = parseIp(address);
  if (!ip) return undefined;
  const bits = BITS[ip.family];
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return undefined;
  return { family: ip.family, value: ip.value, prefix };
}

export function inCidr(ip: Ip, cidr: Cidr): boolean {
  if (ip.family !== cidr.family) return false;
  const shift = BigInt(BITS[ip.family] - cidr.prefix);
  return ip.value >> shift === cidr.value >> shift;
}

function formatIp(family: 4 | 6, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return groups.join(":");
}

/**
 * The key a per-IP limit counts under: an IPv4 address as it is; an IPv6 address by its
 * /64, the block one subscriber line gets (a client holds all of it and could otherwise
 * take a fresh address per request).
 */
export function limitBucket(ip: Ip): string {
  if (ip.family === 4) return formatIp(4, ip.value);
  return `${formatIp(6, (ip.value >> 64n) << 64n)}/64`;
}
