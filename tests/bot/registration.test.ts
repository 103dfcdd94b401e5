/*
 * The real bot process (main/bot.ts: grammY runner, long polling) against the local Bot
 * API server: a user's /start records their handle → chat id and gets an answer in their
 * language.
 */
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import { asAppRole, freshDatabase } from "../helpers/db.ts";
import { startTelegramServer, type TelegramServer } from "../../sandbox/telegram/server.ts";

const root = new URL("../..", import.meta.url).pathname;
let telegram: TelegramServer;
let sql: postgres.Sql;
let bot: Deno.ChildProcess;
let botLog = "";

beforeAll(async () => {
  const databaseUrl = await freshDatabase();
  sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  telegram = await startTelegramServer();
  bot = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main/bot.ts"],
    cwd: root,
    env: { DATABASE_URL: asAppRole(databaseUrl), TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const decoder = new TextDecoder();
  bot.stderr.pipeTo(new WritableStream({ write: (chunk) => void (botLog += decoder.decode(chunk)) }));
});

afterAll(async () => {
  try {
    bot.kill("SIGTERM");
  } catch { /* already gone */ }
  await bot.status;
  await telegram.close();
  await sql.end();
});

test("a user's /start is recorded and answered in Russian or English by their language", async () => {
  const ru = telegram.addUser({ username: "Anna_Admin", first_name: "Анна", language_code: "ru" });
  telegram.userSends(ru.id, "/start");
  const reply = await telegram.waitFor(() => telegram.messages(ru.id).find((m) => m.from?.is_bot), 15_000);
  expect(reply.text).toContain("Готово");
  expect(reply.text).toContain("@Anna_Admin");
  const [row] = await sql`select chat_id from app_public.admin_chat_ids where admin_handle = 'anna_admin'`;
  expect(Number(row.chat_id)).toBe(ru.id);

  const en = telegram.addUser({ username: "bob_the_admin", first_name: "Bob", language_code: "en" });
  telegram.userSends(en.id, "hello there");
  const enReply = await telegram.waitFor(() => telegram.messages(en.id).find((m) => m.from?.is_bot), 10_000);
  expect(enReply.text).toContain("Done!");
  expect(await sql`select 1 from app_public.admin_chat_ids where admin_handle = 'bob_the_admin'`).toHaveLength(1);
});

test("a user without a username is told to set one and nothing is recorded", async () => {
  const before = (await sql`select count(*)::int as n from app_public.admin_chat_ids`)[0].n;
  const anon = telegram.addUser({ first_name: "NoName", language_code: "en" });
  telegram.userSends(anon.id, "/start");
  const reply = await telegram.waitFor(() => telegram.messages(anon.id).find((m) => m.from?.is_bot), 10_000);
  expect(reply.text).toMatch(/no username/);
  expect((await sql`select count(*)::int as n from app_public.admin_chat_ids`)[0].n).toBe(before);
});

test("the bot stops cleanly on SIGTERM", async () => {
  bot.kill("SIGTERM");
  const status = await bot.status;
  expect(status.code).toBe(0);
  expect(botLog).toContain("bot stopping");
});
