/*
 * Sessions after Lucia's session guide: a random token lives only in the browser's
 * HttpOnly cookie; the database keeps its SHA-256. The expiry slides in SQL
 * (app_public.session_user), 30 days from the last use.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { SESSION_TTL_DAYS } from "./contract/limits.ts";

export const SESSION_COOKIE = "pressa_session";

export function newSessionToken() {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

export function sessionId(token: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export function setSessionCookie(c: Context, token: string, secure: boolean) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure,
    path: "/",
    maxAge: SESSION_TTL_DAYS * 24 * 60 * 60,
  });
}

export function clearSessionCookie(c: Context, secure: boolean) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure, httpOnly: true, sameSite: "Lax" });
}
