/*
 * Two instances on one database, as docs/scaling.md "Scaling out" deploys them: each is `npm start`
 * in its own process with PRESSA_PROCESSES=api,worker, both on one PostgreSQL as the app
 * role, the bot in webhook mode behind a round-robin load balancer (so either API gets the
 * bot's updates), the local Bot API server enforcing Telegram's limits. What a user, an
 * approver and an attacker see across them: a session made on one works on the other,
 * posts scheduled through both go out once each without a 429, Telegram's updates are
 * handled by whichever instance gets them, and a limit counts both instances together.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { WEBHOOK_PATH } from "../../core/telegram/webhook.ts";
import { connect } from "../../core/db.ts";
import { startTelegramServer, type TelegramServer } from "../../sandbox/telegram/server.ts";
import { asAppRole, freshDatabase } from "../helpers/db.ts";
import { apiClient, type Instance, roundRobin, startInstance } from "../helpers/instances.ts";
import { buttonData, buttonsOf, hasButton } from "../helpers/publishing.ts";
import { codeFrom, startSmtpSink } from "../helpers/smtp.ts";
import { uniqueEmail, webhookSecret } from "../helpers/stack.ts";

/** Wrong-code checks one client address may make in 10 minutes, on each instance and in all. */
const CHECKS_PER_IP = 6;

let telegram: TelegramServer;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let proxy: ReturnType<typeof roundRobin>;
let sql: ReturnType<typeof connect>;
let a: Instance;
let b: Instance;
let callA: ReturnType<typeof apiClient>;
let callB: ReturnType<typeof apiClient>;

beforeAll(async () => {
  const ownerUrl = await freshDatabase();
  sql = connect(ownerUrl, { max: 2 });
  telegram = await startTelegramServer({ rateLimits: true });
  smtp = await startSmtpSink();
  proxy = roundRobin();
  const env = {
    PRESSA_PROCESSES: "api,worker",
    DATABASE_URL: asAppRole(ownerUrl),
    DATABASE_OWNER_URL: ownerUrl,
    PUBLIC_URL: proxy.url,
    SMTP_URL: smtp.url,
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    TELEGRAM_WEBHOOK_SECRET: webhookSecret(),
    // the load balancer is on this host: its X-Forwarded-For names the client
    TRUST_PROXY: "loopback",
    SIGN_IN_CHECKS_PER_IP: String(CHECKS_PER_IP),
  };
  // both at once, as an orchestrator starts them; B as compose.yaml's app containers, which
  // never get the owner's password (a migrate step did the migrations)
  const { DATABASE_OWNER_URL: _owner, ...appRoleOnly } = env;
  [a, b] = await Promise.all([startInstance("a", env), startInstance("b", appRoleOnly)]);
  proxy.backends.push(a.baseUrl, b.baseUrl);
  callA = apiClient(a.baseUrl);
  callB = apiClient(b.baseUrl);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await proxy?.close();
  await sql?.end({ timeout: 5 });
  await smtp?.close();
  await telegram?.close();
});

/** Signs in through one instance with the code the worker mailed; answers the cookie. */
async function signIn(call: ReturnType<typeof apiClient>, email: string) {
  const requested = await call("POST", "/api/auth/request-otp", { email });
  expect(requested.status, requested.text).toBe(200);
  const code = codeFrom(await smtp.waitForMail(email, 1, 20_000));
  const verified = await call("POST", "/api/auth/verify-otp", { email, code });
  expect(verified.status, verified.text).toBe(200);
  return verified.headers.get("set-cookie")!.split(";")[0];
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("both instances came up on one database, each with its worker and the webhook bot alive", async () => {
  for (const call of [callA, callB]) {
    const health = await call("GET", "/api/health");
    expect(health.json).toMatchObject({ database: "ok", worker: "ok", bot: "ok" });
  }
  expect(b.output()).toContain("DATABASE_URL is pressa_app and DATABASE_OWNER_URL is not set: no migrations here");
  expect(a.output()).not.toContain("no migrations here");
  // started together, they registered the webhook once: Telegram takes one setWebhook a second
  const registrations = telegram.requests.filter((r) => r.method === "setWebhook");
  expect(registrations.map((r) => r.status)).toEqual([200]);
  expect(registrations[0].params.url).toBe(proxy.url + WEBHOOK_PATH);
});

test("a session made on one instance works on the other, and signing out on one ends it on both", async () => {
  const email = uniqueEmail("roamer");
  const cookie = await signIn(callA, email);
  const onB = await callB("GET", "/api/auth/user", undefined, { cookie });
  expect(onB.status).toBe(200);
  expect(onB.json.email).toBe(email);
  // A remembers the session for a few seconds now: the sign-out on B must still end it there
  expect((await callA("GET", "/api/auth/user", undefined, { cookie })).status).toBe(200);
  const out = await callB("POST", "/api/auth/logout", undefined, { cookie });
  expect(out.status).toBe(200);
  expect((await callB("GET", "/api/auth/user", undefined, { cookie })).status).toBe(401);
  const signedOutAt = Date.now();
  await until("A refuses the revoked session", async () => (await callA("GET", "/api/auth/user", undefined, { cookie })).status === 401, 8_000);
  expect(Date.now() - signedOutAt).toBeLessThan(6_000); // README: within the 5 s a process remembers a session
  // the cookie opens nothing on either instance
  for (const call of [callA, callB]) expect((await call("GET", "/api/projects", undefined, { cookie })).status).toBe(401);
}, 30_000);

test("a per-client limit counts both instances together: a client spraying both gets its 6 checks, not 12", async () => {
  const attacker = { "x-forwarded-for": "198.51.100.23" };
  const tries = Array.from({ length: 16 }, (_, i) =>
    (i % 2 === 0 ? callA : callB)("POST", "/api/auth/verify-otp", { email: `victim${i % 4}@example.com`, code: "000000" }, attacker)
  );
  const answers = await Promise.all(tries);
  const refused = answers.filter((r) => r.status === 429);
  const checked = answers.filter((r) => r.status !== 429);
  expect(checked).toHaveLength(CHECKS_PER_IP);
  for (const r of checked) expect(r.json.code).toBe("auth.invalidCode");
  expect(refused).toHaveLength(16 - CHECKS_PER_IP);
  for (const r of refused) {
    expect(r.json.code).toBe("auth.tooManyAttempts");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
  }
  // the refusals came from both instances, and another client is not caught by them
  expect((await callA("POST", "/api/auth/verify-otp", { email: "victim0@example.com", code: "000000" }, attacker)).status).toBe(429);
  expect((await callB("POST", "/api/auth/verify-otp", { email: "victim0@example.com", code: "000000" }, attacker)).status).toBe(429);
  const other = await callB("POST", "/api/auth/verify-otp", { email: "victim0@example.com", code: "000000" }, { "x-forwarded-for": "198.51.100.99" });
  expect(other.json.code).toBe("auth.invalidCode");
});

test("posts scheduled through both instances into shared channels are each published once, with no 429", async () => {
  const CHANNELS = 4;
  const PER_INSTANCE = 5; // per channel: 10 posts, inside Telegram's 20 a minute
  const owner = await signIn(callA, uniqueEmail("burst"));
  const calls = [callA, callB];
  const deliveredBefore = proxy.answered.length;

  // Each channel's approver writes /start to the bot: Telegram pushes it through the load balancer.
  const projects = [];
  for (let i = 0; i < CHANNELS; i++) {
    const handle = `approver_${Date.now().toString(36)}_${i}`;
    const admin = telegram.addUser({ username: handle, first_name: "Approver", language_code: "en" });
    telegram.userSends(admin.id, "/start");
    await telegram.waitFor(() => telegram.messages(admin.id).find((m) => m.from?.is_bot), 15_000);
    const channel = telegram.addChannel({ username: `shared_${Date.now().toString(36)}_${i}`, title: `Shared ${i}`, owner: admin.id });
    const call = calls[i % 2];
    const project = await call("POST", "/api/projects", { name: `Shared ${i}`, adminHandle: handle, timezone: "UTC" }, { cookie: owner });
    expect(project.status, project.text).toBe(201);
    const base = `/api/projects/${project.json.id}`;
    const added = await call("POST", `${base}/channels`, { type: "telegram", link: `@${channel.username}` }, { cookie: owner });
    expect(added.status, added.text).toBe(201);
    // the approver allows it in Telegram (the question goes out from either worker)
    const question = await until("the approver's question", async () => {
      const [request] = await sql`select message_id from app_public.approver_requests where approver_user_id = ${admin.id} and message_id is not null`;
      return request && telegram.messages(admin.id).find((m) => m.message_id === Number(request.messageId));
    }, 20_000);
    const allow = buttonsOf(question).find((d) => d?.startsWith("ar:allow:"))!;
    const query = telegram.userPressesButton(admin.id, admin.id, question.message_id, allow);
    await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
    const titles = Array.from({ length: 2 * PER_INSTANCE }, (_, n) => `${n % 2 === 0 ? "via A" : "via B"} · channel ${i} · post ${n}`);
    const drafts = await call("POST", `${base}/drafts/bulk`, { titles }, { cookie: owner });
    expect(drafts.status, drafts.text).toBe(201);
    projects.push({ admin, channel, base, drafts: drafts.json as { id: number; title: string }[] });
  }
  const connected = await sql`select count(*)::int as n from app_public.channels where chat_id = any(${projects.map((p) => p.channel.id)}) and status = 'connected'`;
  expect(connected[0].n).toBe(CHANNELS);

  // The burst: every post due at one moment, half scheduled through A and half through B, all at once.
  const dueAt = new Date(Date.now() + 30_000).toISOString();
  const scheduled = await Promise.all(projects.flatMap((p) =>
    p.drafts.map(async (draft, n) => {
      const call = calls[n % 2];
      const created = await call("POST", `${p.base}/posts`, { draftId: draft.id, scheduledFor: dueAt }, { cookie: owner });
      expect(created.status, created.text).toBe(201);
      const sent = await call("POST", `${p.base}/posts/${created.json.id}/publish`, undefined, { cookie: owner });
      expect(sent.status, sent.text).toBeLessThan(300);
      return { postId: created.json.id as number, title: draft.title, project: p };
    })
  ));
  expect(scheduled).toHaveLength(CHANNELS * 2 * PER_INSTANCE);

  // Each approver approves each preview as it arrives; the presses reach A or B.
  await Promise.all(projects.map(async (p) => {
    for (const post of scheduled.filter((s) => s.project === p)) {
      const preview = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "approve", post.postId)), 60_000);
      await until("the preview recorded", async () => (await sql`select approval_preview ? 'chatId' as sent from app_public.posts where id = ${post.postId}`)[0].sent, 10_000);
      const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", post.postId));
      const answer = await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
      expect(answer.text).toMatch(/Approved|Одобрено/i);
    }
  }));

  const ids = scheduled.map((s) => s.postId);
  await until("every post published", async () => {
    const [row] = await sql`select count(*)::int as n from app_public.posts where id = any(${ids}) and status = 'published'`;
    return row.n === ids.length;
  }, 60_000);

  for (const post of scheduled) {
    const inChannel = telegram.messages(post.project.channel.id).filter((m) => m.text === post.title);
    expect(inChannel, post.title).toHaveLength(1);
    const sends = telegram.requests.filter((r) => r.method === "sendMessage" && r.status === 200 && r.params.text === post.title && String(r.params.chat_id) === String(post.project.channel.id));
    expect(sends, post.title).toHaveLength(1);
  }
  // none of the run's calls, previews and presses included, was refused for going too fast
  expect(telegram.requests.filter((r) => r.status === 429)).toEqual([]);
  // both APIs answered Telegram's pushes (the /starts, the Allows, the Approves)
  const pushes = proxy.answered.slice(deliveredBefore).filter((r) => r.path === WEBHOOK_PATH);
  expect(pushes.every((r) => r.status === 200)).toBe(true);
  expect(new Set(pushes.map((r) => r.backend))).toEqual(new Set([a.baseUrl, b.baseUrl]));
}, 240_000);
