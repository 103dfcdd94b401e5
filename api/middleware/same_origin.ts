/*
 * Cross-site request forgery guard for state-changing calls. Browsers tell us where a
 * request comes from (Sec-Fetch-Site, Origin); a mutation from another site is refused.
 * Requests without those headers (curl, the tests' app.request) are not browsers
 * carrying someone's cookie by surprise, so they pass.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../core/errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function sameOrigin(publicUrl: string): MiddlewareHandler {
  const allowed = new URL(publicUrl).origin;
  return async (c, next) => {
    // a bearer token is not a credential the browser adds by itself: no forgery to guard against
    const bearer = /^Bearer\s/i.test(c.req.header("authorization") ?? "");
    if (!SAFE_METHODS.has(c.req.method) && !bearer) {
      const site = c.req.header("sec-fetch-site");
      const origin = c.req.header("origin");
      const ownOrigin = new URL(c.req.url).origin;
      const crossSite = site !== undefined && site !== "same-origin" && site !== "none";
      const foreignOrigin = origin !== undefined && origin !== allowed && origin !== ownOrigin;
      if (crossSite || foreignOrigin) {
        throw new ApiError("crossSite");
      }
    }
    await next();
  };
}
