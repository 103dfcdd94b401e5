import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SESSION_CACHE_MS } from "../../api/middleware/session.ts";
import { codeFrom } from "../helpers/smtp.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { ADMIN_EMAILS: "boss@example.com, Chief@Example.com" } });
});
afterAll(() => stack.close());

/** Kills the live code of an address with five wrong tries (none of them the right code). */
async function burnCode(email: string, rightCode: string) {
  const wrong = rightCode === "000000" ? "111111" : "000000";
  for (let i = 0; i < 5; i++) {
    const res = await stack.call("POST", "/api/auth/verify-otp", { email, code: wrong });
    expect(res.status).toBe(400);
  }
}

describe("sign-in by e-mail code", () => {
  test("the mailed code signs in, creates the user and opens a session cookie", async () => {
    const email = uniqueEmail("first");
    const requested = await stack.call("POST", "/api/auth/request-otp", { email });
    expect(requested.status).toBe(200);
    expect(requested.json).toEqual({ codeAlreadySent: false });

    const mail = await stack.smtp.waitForMail(email);
    const code = codeFrom(mail);
    expect(code).toMatch(/^\d{6}$/);
    // the code is stored only as a hash
    const stored = await stack.sql`select code_hash from app_private.sign_in_codes where email = ${email}`;
    expect(stored).toHaveLength(1);
    expect(stored[0].codeHash).not.toContain(code);

    const verified = await stack.call("POST", "/api/auth/verify-otp", { email, code });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ email, isAdmin: false });
    const setCookie = verified.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^pressa_session=[a-z2-7]{32};/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=2592000/);
    expect(setCookie).not.toMatch(/Secure/);

    const cookie = setCookie.split(";")[0];
    const me = await stack.call("GET", "/api/auth/user", undefined, cookie);
    expect(me.status).toBe(200);
    expect(me.json).toEqual({ id: verified.json.id, email, isAdmin: false });

    // only the SHA-256 of the token is stored
    const token = cookie.split("=")[1];
    const sessions = await stack.sql`select id from app_private.sessions where user_id = ${verified.json.id}`;
    expect(sessions).toHaveLength(1);
    expect(sessions[0].id).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0].id).not.toContain(token);
  });

  test("a code works once", async () => {
    const email = uniqueEmail("once");
    await stack.call("POST", "/api/auth/request-otp", { email });
    const code = codeFrom(await stack.smtp.waitForMail(email));
    expect((await stack.call("POST", "/api/auth/verify-otp", { email, code })).status).toBe(200);
    const again = await stack.call("POST", "/api/auth/verify-otp", { email, code });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ message: "Invalid or expired code", code: "auth.invalidCode" });
  });

  test("e-mail addresses are compared without case or surrounding spaces", async () => {
    const email = uniqueEmail("case");
    await stack.call("POST", "/api/auth/request-otp", { email: `  ${email.toUpperCase()} ` });
    const code = codeFrom(await stack.smtp.waitForMail(email));
    const verified = await stack.call("POST", "/api/auth/verify-otp", { email, code });
    expect(verified.status).toBe(200);
    expect(verified.json.email).toBe(email);
  });

  test("while a code is live, another request answers codeAlreadySent and mails nothing", async () => {
    const email = uniqueEmail("again");
    await stack.call("POST", "/api/auth/request-otp", { email });
    await stack.smtp.waitForMail(email);
    const second = await stack.call("POST", "/api/auth/request-otp", { email });
    expect(second.status).toBe(200);
    expect(second.json).toEqual({ codeAlreadySent: true });
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.smtp.mailsTo(email)).toHaveLength(1);
  });

  test("after 5 wrong tries the code is dead: the right code is then refused", async () => {
    const email = uniqueEmail("brute");
    await stack.call("POST", "/api/auth/request-otp", { email });
    const code = codeFrom(await stack.smtp.waitForMail(email));
    await burnCode(email, code);
    const right = await stack.call("POST", "/api/auth/verify-otp", { email, code });
    expect(right.status).toBe(400);
    expect(right.json.code).toBe("auth.invalidCode");
    expect(right.headers.get("set-cookie")).toBeNull();
  });

  test("a 4th code within 10 minutes answers 429 with a clear message and sends no mail", async () => {
    const email = uniqueEmail("flood");
    for (let n = 1; n <= 3; n++) {
      const res = await stack.call("POST", "/api/auth/request-otp", { email });
      expect(res.json).toEqual({ codeAlreadySent: false });
      await burnCode(email, codeFrom(await stack.smtp.waitForMail(email, n)));
    }
    const fourth = await stack.call("POST", "/api/auth/request-otp", { email });
    expect(fourth.status).toBe(429);
    expect(fourth.json.code).toBe("auth.tooManyCodes");
    expect(fourth.json.message).toMatch(/too many codes/i);
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.smtp.mailsTo(email)).toHaveLength(3);
  });

  test("an expired code is refused", async () => {
    const email = uniqueEmail("expired");
    await stack.call("POST", "/api/auth/request-otp", { email });
    const code = codeFrom(await stack.smtp.waitForMail(email));
    await stack.sql`update app_private.sign_in_codes set expires_at = now() - interval '1 second' where email = ${email}`;
    expect((await stack.call("POST", "/api/auth/verify-otp", { email, code })).status).toBe(400);
    // and a new one may then be requested
    expect((await stack.call("POST", "/api/auth/request-otp", { email })).json).toEqual({ codeAlreadySent: false });
  });

  test("known and unknown addresses get the same answer", async () => {
    const known = uniqueEmail("known");
    await stack.signIn(known);
    const unknown = uniqueEmail("unknown");
    const a = await stack.call("POST", "/api/auth/request-otp", { email: known });
    const b = await stack.call("POST", "/api/auth/request-otp", { email: unknown });
    expect(a.status).toBe(b.status);
    expect(a.json).toEqual(b.json);
    await stack.smtp.waitForMail(unknown);
    // no user row exists before a successful sign-in
    expect(await stack.sql`select 1 from app_public.users where email = ${unknown}`).toHaveLength(0);
  });

  test("validation messages are the spec's", async () => {
    const bad = await stack.call("POST", "/api/auth/request-otp", { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ message: "Invalid email", code: "auth.invalidEmail" });
    const short = await stack.call("POST", "/api/auth/verify-otp", { email: uniqueEmail(), code: "123" });
    expect(short.status).toBe(400);
    expect(short.json.message).toBe("String must contain exactly 6 character(s)");
    const missing = await stack.call("POST", "/api/auth/request-otp", {});
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe("Invalid email");
  });

  test("malformed JSON is a 400 JSON answer, never a 500", async () => {
    const res = await stack.call("POST", "/api/auth/request-otp", "{not json");
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "request.malformedJson" });
    expect(typeof res.json.message).toBe("string");
  });

  test("GET /api/auth/user answers 401 JSON when signed out or with a forged cookie", async () => {
    const none = await stack.call("GET", "/api/auth/user");
    expect(none.status).toBe(401);
    expect(none.json.code).toBe("auth.notSignedIn");
    const forged = await stack.call("GET", "/api/auth/user", undefined, `pressa_session=${"a".repeat(32)}`);
    expect(forged.status).toBe(401);
  });

  test("logout revokes the session on the server", async () => {
    const { cookie } = await stack.signIn(uniqueEmail("logout"));
    const out = await stack.call("POST", "/api/auth/logout", undefined, cookie);
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/pressa_session=;/);
    // the old cookie no longer works even if the browser kept it
    expect((await stack.call("GET", "/api/auth/user", undefined, cookie)).status).toBe(401);
  });

  test("the session slides: a session used with less than 15 days left gets 30 days again", async () => {
    const { cookie, user } = await stack.signIn(uniqueEmail("slide"));
    await stack.sql`update app_private.sessions set expires_at = now() + interval '3 days' where user_id = ${user.id}`;
    const me = await stack.call("GET", "/api/auth/user", undefined, cookie);
    expect(me.status).toBe(200);
    expect(me.headers.get("set-cookie")).toMatch(/Max-Age=2592000/);
    const [row] = await stack.sql`select expires_at > now() + interval '29 days' as renewed from app_private.sessions where user_id = ${user.id}`;
    expect(row.renewed).toBe(true);
    // a session that ended in the database is refused once the API's short cache lapses
    await stack.sql`update app_private.sessions set expires_at = now() - interval '1 second' where user_id = ${user.id}`;
    await new Promise((r) => setTimeout(r, SESSION_CACHE_MS + 100));
    expect((await stack.call("GET", "/api/auth/user", undefined, cookie)).status).toBe(401);
  });

  test("ADMIN_EMAILS grants isAdmin at sign-in", async () => {
    const { user } = await stack.signIn("chief@example.com");
    expect(user.isAdmin).toBe(true);
    const { user: plain } = await stack.signIn(uniqueEmail("plain"));
    expect(plain.isAdmin).toBe(false);
  });

  test("a cross-site mutation is refused", async () => {
    const res = await stack.app.request("/api/auth/request-otp", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ email: uniqueEmail() }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Cross-site requests are not allowed", code: "crossSite" });
  });
});

describe("the session cookie's name follows PUBLIC_URL", () => {
  test("under http it is the plain pressa_session (browsers refuse __Host- without Secure); a __Host- one is not read", async () => {
    const { cookie } = await stack.signIn(uniqueEmail("plainname"));
    expect(cookie).toMatch(/^pressa_session=[a-z2-7]{32}$/);
    const token = cookie.split("=")[1];
    expect((await stack.call("GET", "/api/auth/user", undefined, `__Host-pressa_session=${token}`)).status).toBe(401);
  });

  test("under https it is __Host-pressa_session: Secure, Path=/, no Domain; set, read, slid and cleared by that name", async () => {
    const secure = await startStack({ env: { PUBLIC_URL: "https://pressa.example.com" } });
    try {
      const email = uniqueEmail("hostprefix");
      await secure.call("POST", "/api/auth/request-otp", { email });
      const code = codeFrom(await secure.smtp.waitForMail(email));
      const verified = await secure.call("POST", "/api/auth/verify-otp", { email, code });
      expect(verified.status).toBe(200);
      const setCookie = verified.headers.get("set-cookie")!;
      expect(setCookie).toMatch(/^__Host-pressa_session=[a-z2-7]{32};/);
      expect(setCookie).toMatch(/; Secure(;|$)/);
      expect(setCookie).toMatch(/; Path=\/(;|$)/);
      expect(setCookie).not.toMatch(/Domain=/i);
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Lax/);

      const cookie = setCookie.split(";")[0];
      const token = cookie.split("=")[1];
      expect((await secure.call("GET", "/api/auth/user", undefined, cookie)).json).toMatchObject({ email });
      // the plain name is not read under https (a cookie any subdomain or http page could plant)
      expect((await secure.call("GET", "/api/auth/user", undefined, `pressa_session=${token}`)).status).toBe(401);

      // the sliding refresh sets the same name
      await secure.sql`update app_private.sessions set expires_at = now() + interval '3 days' where user_id = ${verified.json.id}`;
      await new Promise((r) => setTimeout(r, SESSION_CACHE_MS + 100));
      const slid = await secure.call("GET", "/api/auth/user", undefined, cookie);
      expect(slid.status).toBe(200);
      expect(slid.headers.get("set-cookie")).toMatch(/^__Host-pressa_session=[a-z2-7]{32};.*Secure/);

      const out = await secure.call("POST", "/api/auth/logout", undefined, cookie);
      expect(out.status).toBe(200);
      expect(out.headers.get("set-cookie")).toMatch(/^__Host-pressa_session=;.*Max-Age=0.*Path=\/.*Secure/);
      expect((await secure.call("GET", "/api/auth/user", undefined, cookie)).status).toBe(401);
    } finally {
      await secure.close();
    }
  });
});
