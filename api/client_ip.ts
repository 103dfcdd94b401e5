/*
 * The client's IP address, for limits kept per client (sign-in attempts). Behind a reverse
 * proxy (TRUST_PROXY) it is the last address in X-Forwarded-For: the one our proxy saw and
 * appended; earlier entries are whatever the client claimed. Otherwise the socket's peer.
 */
import type { Context } from "hono";

export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").map((part) => part.trim()).filter(Boolean);
    if (forwarded?.length) return forwarded[forwarded.length - 1].slice(0, 100);
  }
  // Deno.serve hands Hono its connection info as the env (absent under app.request in tests)
  const info = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}
