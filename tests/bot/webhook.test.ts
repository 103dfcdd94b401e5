/*
 * Webhook mode (TELEGRAM_WEBHOOK_SECRET): the local Bot API server POSTs the bot's updates
 * to PUBLIC_URL + /api/telegram/webhook, here a round-robin proxy in front of two API
 * instances on one database (as a load balancer would be), each handling whatever it gets
 * with the bot's own features. Plus the attacker who finds the route, a slow handler, and
 * what the polling bot does about webhook mode. Home of api/routes/telegram_webhook.ts
 * (docs/testing.md).
 */
import { Api } from "grammy";
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readConfig } from "../../core/config.ts";
import { startupProblems } from "../../core/startup_checks.ts";
import { BOT_ALLOWED_UPDATES, WEBHOOK_PATH, WEBHOOK_SECRET_HEADER } from "../../core/telegram/webhook.ts";
import { startTelegramServer } from "../../sandbox/telegram/server.ts";
import { freshDatabase } from "../helpers/db.ts";
import { roundRobin } from "../helpers/instances.ts";
import { buttonData, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, webhookSecret } from "../helpers/stack.ts";

type Instance = Awaited<ReturnType<Stack["startApiInstance"]>>;

let proxy: ReturnType<typeof roundRobin>;
let stack: Stack;
let second: Instance;
const extra: Instance[] = [];

beforeAll(async () => {
  proxy = roundRobin();
  stack = await startStack({ webhook: true, env: { PUBLIC_URL: proxy.url } });
  second = await stack.startApiInstance();
  proxy.backends.push(stack.baseUrl, second.baseUrl);
});

afterAll(async () => {
  for (const instance of [second, ...extra]) await instance?.close();
  await stack?.close();
  await proxy?.close();
});

const telegram = () => stack.telegram!;
const setWebhookCalls = () => telegram().requests.filter((r) => r.method === "setWebhook" && r.status === 200);
const deliveriesOf = (updateId: number) => telegram().webhookDeliveries.filter((d) => d.updateId === updateId);
/** A list parameter as the Bot API server read it (grammY sends JSON). */
const listParam = (value: unknown) => (Array.isArray(value) ? value : JSON.parse(String(value)));
const lastUpdateId = () => Math.max(...telegram().webhookDeliveries.map((d) => d.updateId), ...telegram().pendingUpdates().map((u) => u.update_id));

test("two instances starting register the webhook once, with the secret and every update the bot uses", () => {
  expect(setWebhookCalls()).toHaveLength(1);
  const [call] = setWebhookCalls();
  expect(call.params.url).toBe(proxy.url + WEBHOOK_PATH);
  expect(call.params.secret_token).toBe(stack.config.telegramWebhookSecret);
  const allowed = listParam(call.params.allowed_updates);
  expect(allowed).toEqual(expect.arrayContaining(["message", "callback_query", "my_chat_member", "chat_member", "message_reaction_count"]));
  expect(allowed).toHaveLength(BOT_ALLOWED_UPDATES.length);
  // nobody polls: Telegram would answer 409 while the webhook is set
  expect(telegram().requests.filter((r) => r.method === "getUpdates")).toHaveLength(0);
});

test("an approver's Approve press, pushed by Telegram through the API, approves the post", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Webhook story"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3_600_000);
  const query = telegram().userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  const updateId = lastUpdateId();
  const answer = await telegram().waitFor(() => telegram().callbackAnswer(query), 10_000);
  expect(answer.text).toMatch(/Одобрено|Approved/i);
  const [post] = await stack.sql`select status from app_public.posts where id = ${postId}`;
  expect(post.status).toBe("approved");
  const delivered = await telegram().waitFor(() => deliveriesOf(updateId)[0]);
  expect(delivered.status).toBe(200);
});

test("whichever instance gets an update handles it", async () => {
  const users = Array.from({ length: 4 }, (_, i) => telegram().addUser({ username: `hook_user_${Date.now().toString(36)}_${i}`, first_name: "U", language_code: "en" }));
  const before = proxy.answered.length;
  for (const user of users) {
    telegram().userSends(user.id, "/start");
    await telegram().waitFor(() => telegram().messages(user.id).find((m) => m.from?.is_bot), 10_000);
  }
  const rows = await stack.sql`select admin_handle from app_public.admin_chat_ids where admin_handle = any(${users.map((u) => u.username!.toLowerCase())})`;
  expect(rows).toHaveLength(4);
  const served = proxy.answered.slice(before).filter((a) => a.path === WEBHOOK_PATH && a.status === 200);
  expect(new Set(served.map((a) => a.backend))).toEqual(new Set([stack.baseUrl, second.baseUrl]));
});

test("a forged update without the secret, or with a wrong one, is refused and changes nothing", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Forged"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3_600_000);
  const callsBefore = telegram().requests.length;
  const press = {
    update_id: 1,
    callback_query: {
      id: "1",
      from: { id: p.admin.id, is_bot: false, first_name: "Admin", username: p.admin.username },
      message: preview,
      chat_instance: "1",
      data: buttonData(preview, "approve", postId),
    },
  };
  const start = {
    update_id: 2,
    message: { message_id: 1, date: 1, chat: { id: 42, type: "private", first_name: "M" }, from: { id: 42, is_bot: false, first_name: "M", username: "mallory_admin" }, text: "/start", entities: [{ type: "bot_command", offset: 0, length: 6 }] },
  };
  for (const base of [stack.baseUrl, second.baseUrl]) {
    const forgedHeaders: Record<string, string>[] = [{}, { [WEBHOOK_SECRET_HEADER]: "wrong_secret" }, { [WEBHOOK_SECRET_HEADER]: `${stack.config.telegramWebhookSecret}x` }];
    for (const headers of forgedHeaders) {
      for (const update of [press, start]) {
        const res = await fetch(base + WEBHOOK_PATH, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(update) });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ code: "telegram.webhookSecretWrong", message: expect.any(String) });
      }
    }
  }
  const [post] = await stack.sql`select status from app_public.posts where id = ${postId}`;
  expect(post.status).toBe("scheduled");
  expect(await stack.sql`select 1 from app_public.admin_chat_ids where admin_handle = 'mallory_admin'`).toHaveLength(0);
  expect(telegram().requests.slice(callsBefore).filter((r) => r.method !== "getWebhookInfo")).toEqual([]);
});

test("the health endpoint shows the bot alive in webhook mode", async () => {
  const health = await stack.call("GET", "/api/health");
  expect(health.json.bot).toBe("ok");
});

/** A handler's reply held this long by Telegram: far longer than storing an update takes. */
const SLOW_HANDLER_MS = 4_000;

test("a slow handler: Telegram's request is answered once the update is stored, and the update is handled once", async () => {
  const user = telegram().addUser({ username: `slow_user_${Date.now().toString(36)}`, first_name: "S", language_code: "en" });
  telegram().failNext("sendMessage", { delayMs: SLOW_HANDLER_MS });
  const sentAt = Date.now();
  telegram().userSends(user.id, "/start");
  const updateId = lastUpdateId();
  const delivery = await telegram().waitFor(() => deliveriesOf(updateId)[0], SLOW_HANDLER_MS);
  expect(delivery.status).toBe(200);
  expect(delivery.ms).toBeLessThan(SLOW_HANDLER_MS / 2);
  // answered because it was kept: the update is in the database before Telegram heard back
  expect(await stack.sql`select 1 from app_private.telegram_updates where update_id = ${updateId}`).toHaveLength(1);
  const reply = await telegram().waitFor(() => telegram().messages(user.id).find((m) => m.from?.is_bot), 15_000);
  expect(reply.text).toContain("Done!");
  expect(Date.now() - sentAt).toBeGreaterThan(SLOW_HANDLER_MS); // the handler outlived Telegram's request
  expect(deliveriesOf(updateId)).toHaveLength(1);
  expect(telegram().messages(user.id).filter((m) => m.from?.is_bot)).toHaveLength(1);
}, 30_000);

test("a new secret is registered at the next start, and the old one no longer opens the route", async () => {
  const secret = webhookSecret();
  const renewed = await stack.startApiInstance({ TELEGRAM_WEBHOOK_SECRET: secret });
  extra.push(renewed);
  expect(setWebhookCalls()).toHaveLength(2);
  expect(setWebhookCalls()[1].params.secret_token).toBe(secret);
  const old = await fetch(renewed.baseUrl + WEBHOOK_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", [WEBHOOK_SECRET_HEADER]: stack.config.telegramWebhookSecret! },
    body: JSON.stringify({ update_id: 3 }),
  });
  expect(old.status).toBe(401);
  await old.body?.cancel();
  // a restart with the same secret leaves Telegram alone
  extra.push(await stack.startApiInstance({ TELEGRAM_WEBHOOK_SECRET: secret }));
  expect(setWebhookCalls()).toHaveLength(2);
});

test("a malformed secret or an http public address is refused at start, with the reason", () => {
  expect(() => readConfig({ TELEGRAM_WEBHOOK_SECRET: "has spaces and ü" })).toThrow(/TELEGRAM_WEBHOOK_SECRET has a character Telegram refuses: .*A-Z, a-z, 0-9, _ and -/);
  expect(() => readConfig({ TELEGRAM_WEBHOOK_SECRET: "a".repeat(257) })).toThrow(/is 257 characters long/);
  expect(readConfig({ TELEGRAM_WEBHOOK_SECRET: "a".repeat(256) }).telegramWebhookSecret).toHaveLength(256);
  const settings = { SMTP_URL: "smtp://mail", TELEGRAM_BOT_TOKEN: "1:x", TELEGRAM_WEBHOOK_SECRET: "s3cret" };
  expect(startupProblems(readConfig({ ...settings, PUBLIC_URL: "http://pressa.example.com" }))).toEqual([
    expect.stringMatching(/TELEGRAM_WEBHOOK_SECRET is set but PUBLIC_URL \(http:\/\/pressa\.example\.com\) is not https:/),
  ]);
  expect(startupProblems(readConfig({ ...settings, PUBLIC_URL: "https://pressa.example.com" }))).toEqual([]);
  // only a local Bot API server can reach a loopback address, over http too
  expect(startupProblems(readConfig({ ...settings, PUBLIC_URL: "http://127.0.0.1:8000" }))).toEqual([]);
  expect(startupProblems(readConfig({ SMTP_URL: "smtp://mail", TELEGRAM_WEBHOOK_SECRET: "s3cret", PUBLIC_URL: "https://p.example.com" }))).toEqual([
    expect.stringMatching(/TELEGRAM_BOT_TOKEN is not/),
  ]);
});

test("the polling bot refuses to run in webhook mode, and without it deletes a leftover webhook and polls", async () => {
  const root = new URL("../..", import.meta.url).pathname;
  const own = await startTelegramServer();
  const databaseUrl = await freshDatabase();
  const env = { DATABASE_URL: databaseUrl, TELEGRAM_BOT_TOKEN: own.token, TELEGRAM_API_ROOT: own.apiRoot };
  const refused = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main/bot.ts"],
    cwd: root,
    env: { ...env, TELEGRAM_WEBHOOK_SECRET: "s3cret" },
    stdin: "null",
  }).output();
  expect(refused.code).toBe(2);
  expect(new TextDecoder().decode(refused.stderr)).toContain("TELEGRAM_WEBHOOK_SECRET is set");

  // an earlier webhook-mode run left its webhook: Telegram refuses getUpdates meanwhile
  const api = new Api(own.token, { apiRoot: own.apiRoot });
  await api.setWebhook("http://127.0.0.1:9/api/telegram/webhook", { secret_token: "s3cret" });
  await expect(api.getUpdates()).rejects.toThrow(/409|webhook is active/);
  const bot = new Deno.Command(Deno.execPath(), { args: ["run", "-A", "main/bot.ts"], cwd: root, env, stdin: "null", stdout: "null", stderr: "null" }).spawn();
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const user = own.addUser({ username: "polled_admin", first_name: "P", language_code: "en" });
    own.userSends(user.id, "/start");
    await own.waitFor(() => own.messages(user.id).find((m) => m.from?.is_bot), 20_000);
    expect((await api.getWebhookInfo()).url).toBe("");
    expect(await sql`select 1 from app_public.admin_chat_ids where admin_handle = 'polled_admin'`).toHaveLength(1);
    const polled = own.requests.filter((r) => r.method === "getUpdates" && r.status === 200);
    expect(listParam(polled[0].params.allowed_updates)).toEqual([...BOT_ALLOWED_UPDATES]);
  } finally {
    bot.kill("SIGTERM");
    await bot.status;
    await sql.end();
    await own.close();
  }
}, 40_000);
