/*
 * Telegram sends chat_member and message_reaction_count only to a bot that asks for them:
 * the real bot process (main/bot.ts, long polling) and webhook mode (the API registers the
 * webhook with the allowed updates) both ask, and both record what arrives.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ChannelStats } from "../../contract/stats.ts";
import { BOT_ALLOWED_UPDATES } from "../../core/telegram/webhook.ts";
import { asAppRole } from "../helpers/db.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import { until } from "../helpers/until.ts";

/** A join and a reaction on a published post reach the owner's statistics. */
async function joinAndReact(stack: Stack, p: Awaited<ReturnType<typeof projectWithChannel>>) {
  const telegram = stack.telegram!;
  const stats = async () => (await stack.call("GET", `${p.base}/stats`, undefined, p.cookie)).json as ChannelStats;
  const before = await until(stats, (s) => s.subscribers.current !== null, 20_000);
  const message = telegram.channelPost(p.channel.id, "published");
  const at = new Date(Date.now() - 60_000).toISOString();
  await stack.sql`insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, channel_chat_id, channel_message_ids)
    values (${p.project.id}, 'Post', 'text', 'published', ${at}, ${at}, ${p.channel.id}, ${stack.sql.json([message.message_id])})`;
  telegram.userJoins(p.channel.id, telegram.addUser({ first_name: "Reader" }).id);
  telegram.setReactions(p.channel.id, message.message_id, { "🔥": 3 });
  const after = await until(stats, (s) => s.subscribers.current === before.subscribers.current! + 1 && s.posts[0]?.reactions.total === 3, 20_000);
  expect(after.days.reduce((sum, d) => sum + d.joins, 0)).toBe(1);
  expect(after.posts[0].reactions.byEmoji).toEqual({ "🔥": 3 });
}

describe("the bot process (main/bot.ts, long polling)", () => {
  let stack: Stack;
  let bot: Deno.ChildProcess | undefined;
  beforeAll(async () => {
    stack = await startStack({ telegram: true });
  });
  afterAll(async () => {
    try {
      bot?.kill("SIGTERM");
    } catch { /* gone */ }
    await bot?.status;
    await stack?.close();
  });

  test("asks for chat_member and message_reaction_count and records them", async () => {
    // connected first (the helper answers the approver's press itself when no bot runs)
    const p = await projectWithChannel(stack);
    bot = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main/bot.ts"],
      cwd: new URL("../..", import.meta.url).pathname,
      env: { DATABASE_URL: asAppRole(stack.databaseUrl), TELEGRAM_BOT_TOKEN: stack.telegram!.token, TELEGRAM_API_ROOT: stack.telegram!.apiRoot },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const poll = await stack.telegram!.waitFor(() => stack.telegram!.requests.find((r) => r.method === "getUpdates"), 30_000);
    expect(poll.params.allowed_updates).toEqual([...BOT_ALLOWED_UPDATES]);
    expect(BOT_ALLOWED_UPDATES).toEqual(expect.arrayContaining(["chat_member", "message_reaction_count"]));
    await joinAndReact(stack, p);
  });
});

describe("webhook mode", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ webhook: true });
  });
  afterAll(async () => {
    await stack?.close();
  });

  test("the webhook is registered with the allowed updates, and what Telegram pushes is recorded", async () => {
    const p = await projectWithChannel(stack);
    const setWebhook = stack.telegram!.requests.find((r) => r.method === "setWebhook")!;
    const allowed = setWebhook.params.allowed_updates;
    expect(typeof allowed === "string" ? JSON.parse(allowed) : allowed).toEqual([...BOT_ALLOWED_UPDATES]);
    await joinAndReact(stack, p);
    expect(stack.telegram!.webhookDeliveries.filter((d) => d.status === 200).length).toBeGreaterThanOrEqual(2);
  });
});
