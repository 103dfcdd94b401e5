/*
 * Telegram's limits hold across processes: two Apis with nothing in common but the
 * database (each its own connections and in-process state, like two worker processes)
 * send to one channel and to many private chats at once, against the local Bot API server
 * enforcing Telegram's limits. bench:publish does the same with two real worker processes.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { connect, type Sql } from "../core/db.ts";
import { createTelegramApi } from "../core/telegram/client.ts";
import { BOT_GAP_MS, CHANNEL_MESSAGES_PER_MINUTE, databaseBudget } from "../core/telegram/send_budget.ts";
import { startTelegramServer, type TelegramServer } from "../sandbox/telegram/server.ts";
import { asAppRole, freshDatabase } from "./helpers/db.ts";

let sqlA: Sql;
let sqlB: Sql;
const queriesA: string[] = [];
const servers: TelegramServer[] = [];
beforeAll(async () => {
  // two pools, as two processes would have, as the app role they run as
  const url = asAppRole(await freshDatabase());
  sqlA = connect(url, { max: 2, onQuery: (text) => queriesA.push(text) });
  sqlB = connect(url, { max: 2 });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await sqlA.end({ timeout: 5 });
  await sqlB.end({ timeout: 5 });
});

/** A local Bot API server enforcing Telegram's limits, for a bot of its own (its own budget rows). */
async function limitedTelegram(botId: number) {
  const telegram = await startTelegramServer({
    rateLimits: true,
    token: `${botId}:AAFakeTokenForTheBudgetTest_${botId}`,
  });
  servers.push(telegram);
  return telegram;
}

const sendsOf = (telegram: TelegramServer) => telegram.requests.filter((r) => r.method === "sendMessage");

test("two Apis sharing the database budget keep the bot-wide and the channel limits together", async () => {
  const telegram = await limitedTelegram(7100000001);
  const channel = telegram.addChannel({ username: "shared_news", title: "Shared news" });
  const users = Array.from(
    { length: 60 },
    (_, i) => telegram.addUser({ username: `reader_${i}`, first_name: `R${i}`, startedBot: true }),
  );
  const budgetA = databaseBudget(sqlA, telegram.token);
  const budgetB = databaseBudget(sqlB, telegram.token);
  // no retry: a 429 would stay a 429 (and fail the call)
  const apiA = createTelegramApi(telegram.token, telegram.apiRoot, { budget: budgetA, maxRetryWaitMs: 0 })!;
  const apiB = createTelegramApi(telegram.token, telegram.apiRoot, { budget: budgetB, maxRetryWaitMs: 0 })!;

  // as a worker process does when it starts: the first call pays for a cold HTTP client
  await Promise.all([apiA.getMe(), apiB.getMe()]);

  // 19 into the channel (the most a minute allows us) and 60 private messages, all at once
  const channelSends = CHANNEL_MESSAGES_PER_MINUTE - 1;
  const calls = [
    ...Array.from(
      { length: channelSends },
      (_, i) => (i % 2 ? apiB : apiA).sendMessage(channel.id, `channel ${i}`),
    ),
    ...users.map((user, i) => (i % 2 ? apiB : apiA).sendMessage(user.id, `private ${i}`)),
  ];
  const queriesBefore = queriesA.length;
  const started = Date.now();
  const outcomes = await Promise.allSettled(calls);
  const took = Date.now() - started;

  const sends = sendsOf(telegram);
  expect(sends.filter((r) => r.status === 429)).toEqual([]);
  expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
  expect(telegram.messages(channel.id)).toHaveLength(channelSends);
  // spread evenly at the bot-wide pace, not in bursts: 79 messages take 78 gaps, any 10 of
  // them 9 (less a send's jitter)
  const times = sends.map((r) => r.time).sort((a, b) => a - b);
  expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(78 * BOT_GAP_MS - 100);
  for (let i = 9; i < times.length; i++) {
    expect(times[i] - times[i - 9]).toBeGreaterThanOrEqual(9 * BOT_GAP_MS - 100);
  }
  expect(took).toBeLessThan(79 * BOT_GAP_MS + 2_000); // and at that pace, not slower
  for (let i = 30; i < times.length; i++) expect(times[i] - times[i - 30]).toBeGreaterThan(1000);
  // one database round trip per message (besides the type lookup postgres.js makes once per
  // connection, and one more for a message whose moment passed before it could go)
  const statements = queriesA.slice(queriesBefore).filter((q) => !q.includes("pg_catalog.pg_type"));
  expect(budgetA.counts.taken).toBe(40);
  expect(budgetA.counts.late).toBeLessThanOrEqual(4);
  expect(statements).toHaveLength(40 + budgetA.counts.late);
  expect(statements.every((q) => q.includes("app_private.reserve_telegram_send"))).toBe(true);

  // the channel's minute is full, whoever asks; an edit in it counts bot-wide only
  expect(await budgetB.reserve(String(channel.id))).toBeGreaterThan(55_000);
  const first = outcomes[0].status === "fulfilled" ? outcomes[0].value.message_id : 0;
  const editStarted = Date.now();
  await apiB.editMessageText(channel.id, first, "channel 0, edited");
  expect(Date.now() - editStarted).toBeLessThan(1_000);
  // a private chat: one message a second between the two
  const one = await budgetA.reserve("4242");
  const two = await budgetB.reserve("4242");
  expect(two - one).toBeGreaterThan(1_000);
});

test("without the shared budget, two Apis together go over the bot-wide limit (the server answers 429)", async () => {
  const telegram = await limitedTelegram(7100000002);
  const users = Array.from(
    { length: 60 },
    (_, i) => telegram.addUser({ username: `reader_${i}`, first_name: `R${i}`, startedBot: true }),
  );
  const apiA = createTelegramApi(telegram.token, telegram.apiRoot, { maxRetryWaitMs: 0 })!;
  const apiB = createTelegramApi(telegram.token, telegram.apiRoot, { maxRetryWaitMs: 0 })!;
  await Promise.allSettled(
    users.map((user, i) => (i % 2 ? apiB : apiA).sendMessage(user.id, `private ${i}`)),
  );
  expect(sendsOf(telegram).filter((r) => r.status === 429).length).toBeGreaterThan(0);
});

test("when the database cannot answer, messages take from the process's own budget and still go out", async () => {
  const telegram = await limitedTelegram(7100000003);
  const user = telegram.addUser({ username: "reader", first_name: "R", startedBot: true });
  const gone = connect("postgres://127.0.0.1:1/none", { max: 1 });
  await gone.end();
  const warnings: string[] = [];
  const api = createTelegramApi(telegram.token, telegram.apiRoot, {
    budget: databaseBudget(gone, telegram.token, (m) => warnings.push(m)),
  })!;
  await api.sendMessage(user.id, "one");
  await api.sendMessage(user.id, "two");
  const [a, b] = sendsOf(telegram);
  expect([a.status, b.status]).toEqual([200, 200]);
  expect(b.time - a.time).toBeGreaterThanOrEqual(1000); // the private chat's pace, kept in-process
  expect(warnings).toEqual([
    "the shared Telegram send budget is unavailable; this process counts its own messages",
  ]);
});
