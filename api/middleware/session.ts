/*
 * Loads the signed-in user (one SQL call) for every /api request and refreshes the
 * cookie when the server slid the session's expiry. `requireUser` guards private routes.
 */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { SessionUser } from "../../contract/auth.ts";
import type { Sql } from "../../core/db.ts";
import { ApiError } from "../../core/errors.ts";
import { SESSION_TTL_DAYS } from "../../contract/limits.ts";
import { sessionCookieName, sessionId, setSessionCookie } from "../session_token.ts";

const HALF_LIFE_MS = (SESSION_TTL_DAYS / 2) * 24 * 60 * 60 * 1000;

/**
 * Sessions seen in the last few seconds, so a burst of requests from one browser costs
 * one lookup. Logout here drops the entry at once; a session revoked elsewhere (another
 * API instance, psql) is honoured within SESSION_CACHE_MS.
 */
export const SESSION_CACHE_MS = 5_000;
const SESSION_CACHE_MAX = 10_000;
type CachedSession = { user: SessionUser; expiresAt: number; seenAt: number };
const sessionCache = new Map<string, CachedSession>();

export function forgetSession(id: string) {
  sessionCache.delete(id);
}

async function lookupSession(sql: Sql, id: string): Promise<CachedSession | undefined> {
  const now = Date.now();
  const cached = sessionCache.get(id);
  if (cached && now - cached.seenAt < SESSION_CACHE_MS && cached.expiresAt > now) return cached;
  const [row] = await sql<(SessionUser & { expiresAt: string })[]>`select * from app_public.session_user(${id})`;
  if (!row) {
    sessionCache.delete(id);
    return undefined;
  }
  if (sessionCache.size >= SESSION_CACHE_MAX) sessionCache.clear();
  const fresh = { user: { id: row.id, email: row.email, isAdmin: row.isAdmin }, expiresAt: Date.parse(row.expiresAt), seenAt: now };
  sessionCache.set(id, fresh);
  return fresh;
}

export function loadSession(sql: Sql, secureCookies: boolean): MiddlewareHandler {
  const cookieName = sessionCookieName(secureCookies);
  return async (c, next) => {
    const token = getCookie(c, cookieName);
    if (token && /^[a-z2-7]{32}$/.test(token)) {
      const id = sessionId(token);
      const session = await lookupSession(sql, id);
      if (session) {
        c.set("user", session.user);
        c.set("sessionId", id);
        // Sliding expiry: when less than half of the 30 days is left, 30 days again, for
        // the browser's cookie too. Most requests only read.
        if (session.expiresAt < Date.now() + HALF_LIFE_MS) {
          const [extended] = await sql<{ extendSession: string | null }[]>`select app_public.extend_session(${id})`;
          if (extended?.extendSession) session.expiresAt = Date.parse(extended.extendSession);
          setSessionCookie(c, token, secureCookies);
        }
      }
    }
    await next();
  };
}

export const requireUser: MiddlewareHandler = async (c, next) => {
  if (!c.get("user")) throw new ApiError("unauthorized");
  await next();
};

/**
 * Admin calls: a signed-in non-admin is refused (403) before the request is read, so every
 * admin call answers the same way whatever its body. The SQL functions check again.
 */
export const requireAdmin: MiddlewareHandler = async (c, next) => {
  const user = c.get("user");
  if (!user) throw new ApiError("unauthorized");
  if (!user.isAdmin) throw new ApiError("forbidden");
  await next();
};
