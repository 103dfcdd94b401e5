/*
 * Whose IP a per-IP limit counts (issue 23), as an attacker would try to pick theirs: a
 * spoofed X-Forwarded-For sent straight to the app, a claim hidden left of a proxy chain,
 * a malformed entry, and a fresh IPv6 address from the same /64 for every request. The
 * requests go through the real HTTP server, so the peer address is the socket's.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readConfig } from "../../core/config.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

/** A sign-in code request over HTTP, as sent by whoever connects (here: 127.0.0.1). */
const requestCode = (stack: Stack, forwardedFor?: string) =>
  fetch(`${stack.baseUrl}/api/auth/request-otp`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }) },
    body: JSON.stringify({ email: uniqueEmail("ip") }),
  }).then(async (res) => ({ status: res.status, body: await res.json() }));

describe("a peer that is not a trusted proxy", () => {
  let stack: Stack;
  beforeAll(async () => {
    // the proxy is elsewhere: a client reaching the app directly is not it
    stack = await startStack({ serve: true, env: { TRUST_PROXY: "10.0.0.0/8", SIGN_IN_REQUESTS_PER_IP: "2" } });
  });
  afterAll(() => stack.close());

  test("cannot choose its IP with X-Forwarded-For: every claim counts against its own address", async () => {
    expect((await requestCode(stack, "203.0.113.1")).status).toBe(200);
    expect((await requestCode(stack, "10.0.0.5, 198.51.100.1")).status).toBe(200);
    const refused = await requestCode(stack, "2001:db8::1");
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("auth.tooManyAttempts");
    expect((await requestCode(stack)).status).toBe(429);
  });
});

describe("behind trusted proxies", () => {
  let stack: Stack;
  beforeAll(async () => {
    // our proxy on this host, and an outer one in 10.0.0.0/8 in front of it
    stack = await startStack({ serve: true, env: { TRUST_PROXY: "loopback, 10.0.0.0/8", SIGN_IN_REQUESTS_PER_IP: "2" } });
  });
  afterAll(() => stack.close());

  test("the right-most address that is not a trusted hop is the client; what stands left of it is ignored", async () => {
    expect((await requestCode(stack, "192.0.2.1, 203.0.113.5, 10.0.0.3")).status).toBe(200);
    expect((await requestCode(stack, "192.0.2.2, 203.0.113.5, 10.0.0.3")).status).toBe(200);
    // a new claim on the left does not make a new client
    expect((await requestCode(stack, "192.0.2.3, 203.0.113.5, 10.0.0.3")).status).toBe(429);
    expect((await requestCode(stack, "203.0.113.5")).status).toBe(429);
    // another client behind the same proxies has its own count
    expect((await requestCode(stack, "203.0.113.6, 10.0.0.3")).status).toBe(200);
  });

  test("a malformed entry is believed neither as the client nor as a way past it", async () => {
    // the walk stops at the junk: the client is the last hop vouched for (10.0.0.4), not 198.51.100.7
    expect((await requestCode(stack, "198.51.100.7, not-an-ip, 10.0.0.4")).status).toBe(200);
    expect((await requestCode(stack, "198.51.100.8, [1.2.3.4, 10.0.0.4")).status).toBe(200);
    expect((await requestCode(stack, "10.0.0.4")).status).toBe(429);
    expect((await requestCode(stack, "198.51.100.7")).status).toBe(200);
  });

  test("IPv6 clients count per /64: a fresh address in the same /64 shares the count, another /64 does not", async () => {
    expect((await requestCode(stack, "2001:db8:aa:1::1")).status).toBe(200);
    expect((await requestCode(stack, "[2001:db8:aa:1:ffff:ffff:ffff:fffe]:443")).status).toBe(200);
    expect((await requestCode(stack, "2001:DB8:AA:1:1234:5678:9abc:def0")).status).toBe(429);
    expect((await requestCode(stack, "2001:db8:aa:2::1")).status).toBe(200);
  });

  test("an IPv4-mapped IPv6 address is the IPv4 address", async () => {
    expect((await requestCode(stack, "203.0.113.77")).status).toBe(200);
    expect((await requestCode(stack, "::ffff:203.0.113.77")).status).toBe(200);
    expect((await requestCode(stack, "::ffff:cb00:714d")).status).toBe(429);
  });
});

describe("TRUST_PROXY", () => {
  const read = (value: string) => readConfig({ TRUST_PROXY: value }).trustedProxies;

  test("lists CIDRs and single addresses, IPv4 and IPv6, and loopback", () => {
    expect(read("")).toEqual([]);
    expect(read("off")).toEqual([]);
    expect(read("172.30.0.0/24, 192.0.2.7 ,fd00::/8,loopback").map((c) => `${c.family}/${c.prefix}`))
      .toEqual(["4/24", "4/32", "6/8", "4/8", "6/128"]);
  });

  test("refuses to start on the old yes-values and on anything that is not an address", () => {
    for (const value of ["1", "true", "yes", "on"]) expect(() => read(value)).toThrow(/CIDRs of your reverse proxies/);
    for (const value of ["10.0.0.0/33", "10.0.0.0/8/1", "proxy.example.com", "10.0.0.256", "fd00::/129", "10.0.0.0/8,,nonsense"]) {
      expect(() => read(value), value).toThrow(/TRUST_PROXY: .* is not an IP address or CIDR range/);
    }
  });
});
