/*
 * E-mail sign-in with one-time codes (spec §2 /auth, §4, §7). The rules (expiry, single
 * use, 5 tries, 3 codes per 10 minutes, codeAlreadySent; requests and checks per client
 * IP) live in the SQL functions.
 */
import { Hono } from "hono";
import { LanguageUpdateSchema, RequestCodeSchema, VerifyCodeSchema } from "../../contract/auth.ts";
import type { ApiDeps } from "../deps.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { clearSessionCookie, newSessionToken, sessionId, setSessionCookie } from "../session_token.ts";
import { forgetSession } from "../middleware/session.ts";
import { body, IgnoredBody, optionalBody } from "../validate.ts";
import { clientIpBucket } from "../client_ip.ts";

/** Six digits from a secure random source, without modulo bias. */
function newSignInCode() {
  const limit = 4_294_000_000; // largest multiple of 10^6 below 2^32
  while (true) {
    const [n] = crypto.getRandomValues(new Uint32Array(1));
    if (n < limit) return String(n % 1_000_000).padStart(6, "0");
  }
}

export function authRoutes({ sql, config }: ApiDeps) {
  const secure = config.publicUrl.startsWith("https://");
  const { signInRequestsPerIp, signInChecksPerIp } = config.limits;
  return new Hono<AppEnv>()
    .post("/request-otp", body(RequestCodeSchema), async (c) => {
      const { email } = c.req.valid("json");
      // per client first: one client must not spray requests over many addresses
      await sql`select app_public.count_sign_in_attempt(${clientIpBucket(c, config.trustedProxies)}, 'request', ${signInRequestsPerIp})`;
      const [row] = await sql<{ sent: boolean }[]>`
        select app_public.request_sign_in_code(${email}, ${newSignInCode()}) as sent`;
      return c.json({ codeAlreadySent: row.sent });
    })
    .post("/verify-otp", body(VerifyCodeSchema), async (c) => {
      const { email, code } = c.req.valid("json");
      await sql`select app_public.count_sign_in_attempt(${clientIpBucket(c, config.trustedProxies)}, 'verify', ${signInChecksPerIp})`;
      const token = newSessionToken();
      const [user] = await sql<{ id: number; email: string; isAdmin: boolean }[]>`
        select * from app_public.verify_sign_in_code(
          ${email}, ${code}, ${sessionId(token)}, ${config.adminEmails.has(email)})`;
      if (!user) throw new ApiError("auth.invalidCode");
      setSessionCookie(c, token, secure);
      return c.json({ id: user.id, email: user.email, isAdmin: user.isAdmin });
    })
    .post("/logout", optionalBody(IgnoredBody), async (c) => {
      const id = c.get("sessionId");
      if (id) {
        await sql`select app_public.revoke_session(${id})`;
        forgetSession(id);
      }
      clearSessionCookie(c, secure);
      return c.json({ ok: true });
    })
    .get("/user", (c) => {
      const user = c.get("user");
      if (!user) throw new ApiError("auth.notSignedIn");
      return c.json(user);
    })
    .put("/language", body(LanguageUpdateSchema), async (c) => {
      const user = c.get("user");
      if (!user) throw new ApiError("auth.notSignedIn");
      await sql`select app_public.set_user_language(${user.id}, ${c.req.valid("json").language})`;
      return c.json({ ok: true });
    })
    // Deleting the account: its own projects go with it; it leaves shared ones, and is refused
    // while it is the last owner of one (account.ownsSharedProject). Its sessions end with it.
    .delete("/user", optionalBody(IgnoredBody), async (c) => {
      const user = c.get("user");
      if (!user) throw new ApiError("auth.notSignedIn");
      // a token, leaked or not, never gets here (SESSION_ONLY in api/middleware/api_token.ts)
      await sql`select app_public.delete_account(${user.id})`;
      const id = c.get("sessionId");
      if (id) forgetSession(id);
      clearSessionCookie(c, secure);
      return c.json({ ok: true });
    });
}
