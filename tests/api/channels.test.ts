import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { approverAnswers } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let alice: string;
let bob: string;
let adminChatId: number;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
  alice = (await stack.signIn(uniqueEmail("alice"))).cookie;
  bob = (await stack.signIn(uniqueEmail("bob"))).cookie;
  // the project admin has messaged the bot: the bot recorded their chat id
  const admin = stack.telegram!.addUser({ username: "Channel_Boss", first_name: "Boss", startedBot: true });
  adminChatId = admin.id;
  await stack.sql`select app_public.record_admin_chat('Channel_Boss', ${admin.id})`;
});
afterAll(() => stack.close());

let channelCounter = 0;
async function newProject(adminHandle = "@channel_boss", cookie = alice) {
  return (await stack.call("POST", "/api/projects", { name: "Chan", adminHandle }, cookie)).json.id as number;
}
function newChannel(botRights?: Parameters<NonNullable<Stack["telegram"]>["addChannel"]>[0] extends infer T ? T extends { botRights?: infer R } ? R : never : never) {
  channelCounter += 1;
  // the project's admin created it, so Telegram confirms them as an administrator
  return stack.telegram!.addChannel({ username: `pressa_news_${channelCounter}`, title: "News", botRights, owner: adminChatId });
}
const request = (projectId: number, link: string, cookie = alice, type = "telegram") =>
  stack.call("POST", `/api/projects/${projectId}/channels`, { type, link, status: "pending", projectId }, cookie);
/** A connect request that the approver then allows in Telegram, as they would for their own channel. */
async function add(projectId: number, link: string, cookie = alice, type = "telegram") {
  const res = await request(projectId, link, cookie, type);
  if (res.status === 201) await approverAnswers(stack, adminChatId, "allow");
  return res;
}
const list = async (projectId: number) => (await stack.call("GET", `/api/projects/${projectId}/channels`, undefined, alice)).json;

describe("connecting a channel", () => {
  test("success: stored connected with the channel's and the admin's chat ids, and the approver Telegram confirmed", async () => {
    const pid = await newProject();
    const channel = newChannel();
    const res = await request(pid, `https://t.me/${channel.username}`);
    expect(res.status).toBe(201);
    // pending until the named approver allows it in Telegram
    expect(res.json).toMatchObject({
      projectId: pid,
      type: "telegram",
      link: `@${channel.username}`,
      status: "pending",
      config: { chatId: channel.id, adminChatId },
      approver: null,
      awaiting: { handle: "channel_boss" },
    });
    expect(await list(pid)).toMatchObject([{ status: "pending", awaiting: { handle: "channel_boss" } }]);
    await approverAnswers(stack, adminChatId, "allow");
    expect(await list(pid)).toMatchObject([{
      status: "connected",
      config: { chatId: channel.id, adminChatId },
      approver: { handle: "channel_boss", name: "Boss" },
      awaiting: null,
    }]);
  });

  test.each(["@name", "name", "t.me/name", "https://t.me/name", "telegram.me/name", "http://www.t.me/name/"])(
    "accepts the link form %s",
    async (form) => {
      const pid = await newProject();
      const channel = newChannel();
      const res = await add(pid, form.replace("name", channel.username!));
      expect(res.status, res.text).toBe(201);
    },
  );

  test.each(["", "   ", "https://example.com/name", "t.me/+AbCdEf123", "t.me/joinchat/abc", "@ab", "https://t.me/c/12345/6"])(
    "refuses the link %j with a clear message and stores nothing",
    async (link) => {
      const pid = await newProject();
      const res = await add(pid, link);
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(link.trim() === "" ? /^Channel link is required$/ : /public link/);
      expect(await list(pid)).toEqual([]);
    },
  );

  test("the admin has not messaged the bot: 400 naming the handle, nothing stored, Telegram not asked", async () => {
    const pid = await newProject("@someone_else");
    const channel = newChannel();
    const before = stack.telegram!.requests.length;
    const res = await add(pid, `@${channel.username}`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("channels.adminNotRegistered");
    expect(res.json.message).toContain("@someone_else");
    expect(res.json.message).toMatch(/must message the bot first/);
    expect(stack.telegram!.requests.length).toBe(before);
    expect(await list(pid)).toEqual([]);
  });

  test("a channel Telegram does not know: 400", async () => {
    const pid = await newProject();
    const res = await add(pid, "@no_such_channel_here");
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("channels.notFound");
    expect(await list(pid)).toEqual([]);
  });

  test("the bot is not an administrator: 400 saying so", async () => {
    for (const rights of ["member", "left"] as const) {
      const pid = await newProject();
      const channel = newChannel(rights);
      const res = await add(pid, `@${channel.username}`);
      expect(res.status, rights).toBe(400);
      expect(res.json.code).toBe("channels.botNotAdmin");
      expect(res.json.message).toMatch(/not an administrator/);
      expect(await list(pid)).toEqual([]);
    }
  });

  test("the bot is an administrator without 'Post messages': 400 naming the missing permission", async () => {
    const pid = await newProject();
    const channel = newChannel({ can_post_messages: false });
    const res = await add(pid, `@${channel.username}`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("channels.missingPostPermission");
    expect(res.json.message).toContain('"Post messages"');
    expect(await list(pid)).toEqual([]);
  });

  test("Telegram failing (5xx, dropped connection): 503 and nothing stored", async () => {
    const pid = await newProject();
    const channel = newChannel();
    stack.telegram!.failNext("getChat", { code: 502 });
    const bad = await add(pid, `@${channel.username}`);
    expect(bad.status).toBe(503);
    expect(bad.json.code).toBe("telegram.unreachable");
    stack.telegram!.failNext("getChatMember", { drop: true });
    const dropped = await add(pid, `@${channel.username}`);
    expect(dropped.status).toBe(503);
    // the network error quotes the Bot API URL, which carries the bot's token: never shown
    expect(dropped.json.message).toMatch(/^Telegram is not reachable right now \(.*socket hang up.*\)/);
    expect(dropped.text).not.toContain(stack.telegram!.token);
    expect(dropped.text).not.toContain(stack.telegram!.apiRoot);
    expect(await list(pid)).toEqual([]);
    // and once Telegram is back, the same add works
    expect((await add(pid, `@${channel.username}`)).status).toBe(201);
  });

  test("a 429 with retry_after is waited out and the call succeeds", async () => {
    const pid = await newProject();
    const channel = newChannel();
    stack.telegram!.failNext("getChat", { code: 429, retryAfter: 1 });
    const started = Date.now();
    const res = await add(pid, `@${channel.username}`);
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  test("a second channel is refused with the channel-limit error", async () => {
    const pid = await newProject();
    expect((await add(pid, `@${newChannel().username}`)).status).toBe(201);
    const second = await add(pid, `@${newChannel().username}`);
    expect(second.status).toBe(409);
    expect(second.json.code).toBe("channels.limitReached");
    expect(await list(pid)).toHaveLength(1);
  });

  test("two concurrent adds: exactly one wins, the other gets the channel-limit error", async () => {
    const pid = await newProject();
    const [a, b] = await Promise.all([request(pid, `@${newChannel().username}`), request(pid, `@${newChannel().username}`)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    await approverAnswers(stack, adminChatId, "allow");
    expect([a, b].find((r) => r.status === 409)!.json.code).toBe("channels.limitReached");
    expect(await list(pid)).toHaveLength(1);
  });

  test("vk and dzen are refused as not yet available", async () => {
    const pid = await newProject();
    for (const type of ["vk", "dzen"]) {
      const res = await add(pid, "@whatever_channel", alice, type);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("channels.platformUnavailable");
      expect(res.json.message).toMatch(/not available yet/);
    }
    expect((await add(pid, "@whatever_channel", alice, "facebook")).status).toBe(400);
  });

  test("delete removes the channel; another user's channel is 404", async () => {
    const pid = await newProject();
    const made = (await add(pid, `@${newChannel().username}`)).json;
    expect((await stack.call("DELETE", `/api/projects/${pid}/channels/${made.id}`, undefined, bob)).status).toBe(404);
    expect((await stack.call("GET", `/api/projects/${pid}/channels`, undefined, bob)).status).toBe(404);
    expect((await add(pid, "@anything_at_all", bob)).status).toBe(404);
    expect(await list(pid)).toHaveLength(1);
    expect((await stack.call("DELETE", `/api/projects/${pid}/channels/${made.id}`, undefined, alice)).status).toBe(200);
    expect(await list(pid)).toEqual([]);
  });

  test("the bot's username for the instructions link", async () => {
    const res = await stack.call("GET", "/api/telegram/bot", undefined, alice);
    expect(res.json).toEqual({ username: stack.telegram!.me.username, link: `https://t.me/${stack.telegram!.me.username}` });
  });
});

describe("without a bot token", () => {
  test("adding a channel answers 503 with a clear message", async () => {
    const bare = await startStack();
    try {
      const { cookie } = await bare.signIn(uniqueEmail("bare"));
      await bare.sql`select app_public.record_admin_chat('channel_boss', 1)`;
      const pid = (await bare.call("POST", "/api/projects", { name: "X", adminHandle: "channel_boss" }, cookie)).json.id;
      const res = await bare.call("POST", `/api/projects/${pid}/channels`, { type: "telegram", link: "@some_channel" }, cookie);
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ code: "telegram.notConfigured" });
      expect(res.json.message).toMatch(/TELEGRAM_BOT_TOKEN/);
      expect((await bare.call("GET", "/api/telegram/bot", undefined, cookie)).status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});
