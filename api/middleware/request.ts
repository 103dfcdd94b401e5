/*
 * Per-request plumbing: a request id (echoed as X-Request-Id), one structured log line per
 * request with its status and duration, and the duration in GET /metrics' histogram.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Log } from "../../core/log.ts";
import type { LocalHistogram } from "../../core/metrics.ts";

/** Seconds: most answers take milliseconds; AI calls and uploads take seconds. */
export const HTTP_DURATION_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The request's labels for the histogram. Only patterns we registered and methods we know
 * become label values, never the raw path or method, so nobody can make a series per
 * request (ids, junk paths, made-up methods). A request no route matched (only middleware
 * ran) is `unmatched`.
 */
export function routeLabels(c: Context): { method: string; route: string; status: string } {
  const route = matchedRoutes(c).find((r) => r.method !== "ALL")?.path ?? "unmatched";
  const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : "other";
  return { method, route, status: String(c.res.status) };
}

export function requestLog(log: Log, durations?: { histogram: LocalHistogram; instance: string }): MiddlewareHandler {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    await next();
    c.header("X-Request-Id", requestId);
    durations?.histogram.observe({ api_instance: durations.instance, ...routeLabels(c) }, (performance.now() - started) / 1000);
    if (c.req.path.startsWith("/api/")) {
      log("info", "request", {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  };
}
