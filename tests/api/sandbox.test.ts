/*
 * /api/sandbox (api/routes/sandbox.ts): the Telegram sandbox of `npm run demo` as the SPA
 * reads and drives it. It exists only while the sandbox runs: on an ordinary start every
 * path under it is the API's JSON 404. With the sandbox: signed in only; the admin's chat and
 * the channel as Telegram holds them; /start written as the admin; a press delivered to the
 * bot as a callback_query, answering the bot's toast; the channel's photos served.
 */
import { Api, InlineKeyboard, InputFile } from "grammy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SandboxView } from "../../contract/sandbox.ts";
import { makePng } from "../../sandbox/telegram/server.ts";
import { SANDBOX_ADMIN, SANDBOX_CHANNEL } from "../../sandbox/sandbox.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

describe("without the sandbox", () => {
  let stack: Stack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startStack({ telegram: true });
    cookie = (await stack.signIn(uniqueEmail("nosandbox"))).cookie;
  });
  afterAll(() => stack.close());

  test("every /api/sandbox path is a JSON 404, signed in or not", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/sandbox", undefined],
      ["POST", "/api/sandbox/start", undefined],
      ["POST", "/api/sandbox/press", { messageId: 1, data: "allow:1" }],
      ["GET", "/api/sandbox/files/abc", undefined],
    ] as const) {
      for (const who of [cookie, undefined]) {
        const answer = await stack.call(method, path, body, who);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.json).toMatchObject({ code: "notFound" });
      }
    }
  });
});

describe("with the sandbox", () => {
  let stack: Stack;
  let cookie: string;
  let api: Api;
  const view = async () => (await stack.call("GET", "/api/sandbox", undefined, cookie)).json as SandboxView;
  beforeAll(async () => {
    stack = await startStack({ sandbox: true });
    cookie = (await stack.signIn(uniqueEmail("sandbox"))).cookie;
    // the product's bot, as the worker and the bot process call Telegram
    api = new Api(stack.telegram!.token, { apiRoot: stack.telegram!.apiRoot });
  });
  afterAll(() => stack.close());

  test("only for someone signed in", async () => {
    expect((await stack.call("GET", "/api/sandbox")).status).toBe(401);
    expect((await stack.call("POST", "/api/sandbox/start")).status).toBe(401);
  });

  test("the simulated admin and channel; /start written as the admin reaches the bot", async () => {
    const before = await view();
    expect(before).toMatchObject({
      bot: { username: stack.telegram!.me.username },
      admin: { username: SANDBOX_ADMIN.username, startedBot: false },
      channel: { username: SANDBOX_CHANNEL.username, title: SANDBOX_CHANNEL.title },
      chat: [],
      feed: [],
    });
    const started = await stack.call("POST", "/api/sandbox/start", undefined, cookie);
    expect(started.status).toBe(200);
    expect((started.json as SandboxView).admin.startedBot).toBe(true);
    expect((started.json as SandboxView).chat.map((m) => [m.text, m.outgoing])).toEqual([["/start", true]]);
    // Telegram hands the bot a message update from the admin
    const update = stack.telegram!.pendingUpdates().find((u) => u.message?.text === "/start");
    expect(update?.message?.from?.username).toBe(SANDBOX_ADMIN.username);
  });

  test("the bot's message with buttons, a press answered with the bot's toast, a button that is not there", async () => {
    const adminId = stack.telegram!.pendingUpdates().find((u) => u.message?.text === "/start")!.message!.from!.id;
    const sent = await api.sendMessage(adminId, "Connect *Pressa sandbox*?", {
      parse_mode: "Markdown",
      reply_markup: new InlineKeyboard().text("✅ Allow", "allow:7").text("Decline", "decline:7").row().url("Open", "https://t.me/sandbox_channel"),
    });
    const shown = (await view()).chat.at(-1)!;
    expect(shown).toMatchObject({
      id: sent.message_id,
      outgoing: false,
      text: "Connect Pressa sandbox?",
      entities: [{ type: "bold", offset: 8, length: 14 }],
      buttons: [[{ text: "✅ Allow", data: "allow:7" }, { text: "Decline", data: "decline:7" }], [{ text: "Open", url: "https://t.me/sandbox_channel" }]],
    });

    // the bot answers the callback query as soon as it sees it
    const answering = stack.telegram!.waitFor(() => stack.telegram!.pendingUpdates().find((u) => u.callback_query?.data === "allow:7"), 5_000)
      .then((u) => api.answerCallbackQuery(u.callback_query!.id, { text: "Allowed" }));
    const pressed = await stack.call("POST", "/api/sandbox/press", { messageId: sent.message_id, data: "allow:7" }, cookie);
    await answering;
    expect(pressed.status).toBe(200);
    expect(pressed.json).toEqual({ answer: "Allowed" });
    expect(stack.telegram!.pendingUpdates().find((u) => u.callback_query?.data === "allow:7")?.callback_query?.from.id).toBe(adminId);

    const missing = await stack.call("POST", "/api/sandbox/press", { messageId: sent.message_id, data: "delete:7" }, cookie);
    expect(missing.status).toBe(404);
    const bad = await stack.call("POST", "/api/sandbox/press", { messageId: "one", data: "" }, cookie);
    expect(bad.status).toBe(400);
    expect(stack.telegram!.pendingUpdates().filter((u) => u.callback_query).length).toBe(1);
  });

  test("the channel's album, its pin, and the photos served", async () => {
    const channel = `@${SANDBOX_CHANNEL.username}`;
    const album = await api.sendMediaGroup(channel, [
      { type: "photo", media: new InputFile(makePng(40, 30), "a.png"), caption: "Two photos" },
      { type: "photo", media: new InputFile(makePng(30, 40), "b.png") },
    ]);
    await api.pinChatMessage(channel, album[0].message_id);
    const { feed } = await view();
    expect(feed.map((m) => [m.text, m.albumId !== undefined, m.pinned, m.pinnedMessageId])).toEqual([
      ["Two photos", true, true, undefined],
      ["", true, false, undefined],
      ["", false, false, album[0].message_id],
    ]);
    const photo = await stack.app.request(`/api/sandbox/files/${feed[0].photo}`, { headers: { cookie } });
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(makePng(40, 30));
    expect((await stack.call("GET", "/api/sandbox/files/nope", undefined, cookie)).status).toBe(404);
  });
});
