/*
 * Sessions after Lucia's session guide: a random token lives only in the browser's
 * HttpOnly cookie; the database keeps its SHA-256. Reading a session (app_public.session_user)
 * never writes; the session middleware extends it (app_public.extend_session) once less than
 * half of its 30 days is left, to 30 days from that use but never past 90 days from sign-in.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { SESSION_TTL_DAYS } from "../contract/limits.ts";

export const SESSION_COOKIE = "pressa_session";

/**
 * The cookie's name. Under https it is `__Host-pressa_session`: browsers keep such a cookie
 * only when it is Secure, has Path=/ and no Domain, so a sibling subdomain or a plain-http
 * page cannot plant or overwrite it. Under http (local use) browsers refuse that prefix, so
 * the plain name. Setting and reading both go through here.
 */
export function sessionCookieName(secure: boolean) {
  return secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

export function newSessionToken() {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

export function sessionId(token: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export function setSessionCookie(c: Context, token: string, secure: boolean) {
  setCookie(c, sessionCookieName(secure), token, {
    httpOnly: true,
    sameSite: "Lax",
    secure,
    path: "/",
    maxAge: SESSION_TTL_DAYS * 24 * 60 * 60,
  });
}

export function clearSessionCookie(c: Context, secure: boolean) {
  deleteCookie(c, sessionCookieName(secure), { path: "/", secure, httpOnly: true, sameSite: "Lax" });
}
