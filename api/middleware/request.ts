/*
 * Per-request plumbing: a request id (echoed as X-Request-Id) and one structured log
 * line per request with its status and duration.
 */
import type { MiddlewareHandler } from "hono";
import type { Log } from "../../core/log.ts";

export function requestLog(log: Log): MiddlewareHandler {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    await next();
    c.header("X-Request-Id", requestId);
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
