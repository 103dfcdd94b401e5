/*
 * Loads the signed-in user (one SQL call) for every /api request and refreshes the
 * cookie when the server slid the session's expiry. `requireUser` guards private routes.
 */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { SessionUser } from "../contract/auth.ts";
import type { Sql } from "../db.ts";
import { ApiError } from "../errors.ts";
import { SESSION_TTL_DAYS } from "../contract/limits.ts";
import { SESSION_COOKIE, sessionId, setSessionCookie } from "../session.ts";

const HALF_LIFE_MS = (SESSION_TTL_DAYS / 2) * 24 * 60 * 60 * 1000;

export function loadSession(sql: Sql, secureCookies: boolean): MiddlewareHandler {
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token && /^[a-z2-7]{32}$/.test(token)) {
      const id = sessionId(token);
      const [row] = await sql<(SessionUser & { expiresAt: Date })[]>`select * from app_public.session_user(${id})`;
      if (row) {
        c.set("user", { id: row.id, email: row.email, isAdmin: row.isAdmin });
        c.set("sessionId", id);
        // Sliding expiry: when less than half of the 30 days is left, 30 days again, for
        // the browser's cookie too. Most requests only read.
        if (row.expiresAt.getTime() < Date.now() + HALF_LIFE_MS) {
          await sql`select app_public.extend_session(${id})`;
          setSessionCookie(c, token, secureCookies);
        }
      }
    }
    await next();
  };
}

export const requireUser: MiddlewareHandler = async (c, next) => {
  if (!c.get("user")) throw new ApiError(401, "unauthorized", "Please sign in");
  await next();
};

/**
 * Admin calls: a signed-in non-admin is refused (403) before the request is read, so every
 * admin call answers the same way whatever its body. The SQL functions check again.
 */
export const requireAdmin: MiddlewareHandler = async (c, next) => {
  const user = c.get("user");
  if (!user) throw new ApiError(401, "unauthorized", "Please sign in");
  if (!user.isAdmin) throw new ApiError(403, "forbidden", "Only administrators can do this");
  await next();
};
