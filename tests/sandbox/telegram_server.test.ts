// The Telegram double checked against the Bot API's documented behaviour, through the
// real grammY client (and @grammyjs/runner) talking HTTP to it.

import { run } from "@grammyjs/runner";
import { Api, Bot, GrammyError, HttpError, InlineKeyboard, InputFile, InputMediaBuilder } from "grammy";
import type { Message, MessageEntity } from "grammy/types";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { makePng, startTelegramServer, type TelegramServer } from "../../sandbox/telegram/server.ts";

let telegram: TelegramServer;
let bot: Bot;

beforeEach(async () => {
  telegram = await startTelegramServer({ token: "123456789:TEST-token", botUsername: "pressa_bot" });
  bot = new Bot(telegram.token, { client: { apiRoot: telegram.apiRoot } });
});

afterEach(async () => {
  await telegram.close();
});

/** The error a rejected call failed with (fails the test if it did not reject). */
async function rejection<T extends Error>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => T,
): Promise<T> {
  const error = await promise.then(() => undefined, (error: unknown) => error);
  expect(error).toBeInstanceOf(type);
  return error as T;
}

const apiError = (promise: Promise<unknown>) => rejection(promise, GrammyError);

/** A user who has opened the bot, so the bot may write to them. */
function startedUser(name = "alice") {
  const user = telegram.addUser({ username: name, first_name: name, language_code: "en" });
  telegram.userSends(user.id, "/start");
  return user;
}

describe("wire format", () => {
  test("getMe answers the configured bot", async () => {
    const me = await bot.api.getMe();
    expect(me).toMatchObject({
      id: 123456789,
      is_bot: true,
      username: "pressa_bot",
      first_name: "Pressa Test Bot",
    });
  });

  test("a wrong token is 401 Unauthorized", async () => {
    const stranger = new Bot("123456789:other-token", { client: { apiRoot: telegram.apiRoot } });
    const error = await apiError(stranger.api.getMe());
    expect([error.error_code, error.description]).toEqual([401, "Unauthorized"]);
  });

  test("an unknown method is 404 Not Found, a real but unsupported one 501", async () => {
    const raw = bot.api.raw as unknown as Record<string, (payload: object) => Promise<unknown>>;
    const unknown = await apiError(raw.sendTelepathy({ chat_id: 1 }));
    expect([unknown.error_code, unknown.description]).toEqual([404, "Not Found"]);
    const unsupported = await apiError(raw.sendVideo({ chat_id: 1, video: "x" }));
    expect(unsupported.error_code).toBe(501);
  });

  test("parameters also come as query string and urlencoded form; method names ignore case", async () => {
    const user = startedUser();
    const base = `${telegram.apiRoot}/bot${telegram.token}`;
    const viaQuery = await fetch(`${base}/GETME?unused=1`).then((response) => response.json());
    expect(viaQuery.result.username).toBe("pressa_bot");

    const form = new URLSearchParams({
      chat_id: String(user.id),
      text: "from a form",
      reply_markup: JSON.stringify({ inline_keyboard: [[{ text: "Go", callback_data: "go" }]] }),
      protect_content: "true",
    });
    const response = await fetch(`${base}/sendMessage`, { method: "POST", body: form });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.result).toMatchObject({
      text: "from a form",
      has_protected_content: true,
      reply_markup: { inline_keyboard: [[{ text: "Go", callback_data: "go" }]] },
    });
  });

  test("errors carry the HTTP status of their error_code", async () => {
    const response = await fetch(`${telegram.apiRoot}/bot${telegram.token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: 42, text: "hi" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      ok: false,
      error_code: 400,
      description: "Bad Request: chat not found",
    });
  });

  test("requests are logged with their parameters", async () => {
    const user = startedUser();
    await bot.api.sendMessage(user.id, "logged");
    const entry = telegram.requests.find((request) => request.method === "sendMessage");
    expect(entry).toMatchObject({ params: { chat_id: user.id, text: "logged" }, status: 200 });
    expect(entry!.time).toBeGreaterThan(Date.now() - 5_000);
  });
});

describe("long polling", () => {
  test("a waiting poll returns an update sent meanwhile; the next poll with offset does not repeat it", async () => {
    const user = telegram.addUser({ first_name: "Bob" });
    const started = Date.now();
    const poll = bot.api.getUpdates({ timeout: 10 });
    await telegram.waitFor(() => telegram.requests.some((request) => request.method === "getUpdates"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    telegram.userSends(user.id, "hello bot");

    const updates = await poll;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(updates).toHaveLength(1);
    expect(updates[0].message).toMatchObject({
      text: "hello bot",
      from: { id: user.id },
      chat: { type: "private" },
    });

    const again = await bot.api.getUpdates({ offset: updates[0].update_id + 1, timeout: 0 });
    expect(again).toEqual([]);
    expect(telegram.pendingUpdates()).toEqual([]);
  });

  test("without offset the same updates come again (not confirmed yet)", async () => {
    const user = telegram.addUser();
    telegram.userSends(user.id, "one");
    const first = await bot.api.getUpdates();
    const second = await bot.api.getUpdates();
    expect(second.map((update) => update.update_id)).toEqual(first.map((update) => update.update_id));
    expect(first).toHaveLength(1);
  });

  test("an empty poll with timeout=1 waits about a second, then returns []", async () => {
    const started = Date.now();
    const updates = await bot.api.getUpdates({ timeout: 1 });
    const elapsed = Date.now() - started;
    expect(updates).toEqual([]);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1_800);
  });

  test("limit and allowed_updates are honoured; disallowed updates are dropped", async () => {
    const user = telegram.addUser();
    for (const text of ["a", "b", "c"]) telegram.userSends(user.id, text);
    const firstTwo = await bot.api.getUpdates({ limit: 2 });
    expect(firstTwo.map((update) => update.message?.text)).toEqual(["a", "b"]);

    const onlyCallbacks = await bot.api.getUpdates({ allowed_updates: ["callback_query"] });
    expect(onlyCallbacks).toEqual([]);
    expect(telegram.pendingUpdates()).toEqual([]);
  });

  test("closing the server ends a pending poll", async () => {
    const poll = bot.api.getUpdates({ timeout: 30 });
    await telegram.waitFor(() => telegram.requests.length > 0);
    const started = Date.now();
    await telegram.close();
    expect(await poll).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test("a second getUpdates ends the waiting one with 409 Conflict", async () => {
    const first = apiError(bot.api.getUpdates({ timeout: 10 }));
    await telegram.waitFor(() => telegram.requests.length === 1);
    await bot.api.getUpdates({ timeout: 0 });
    const error = await first;
    expect(error.error_code).toBe(409);
    expect(error.description).toBe(
      "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    );
  });

  test("deleteWebhook with drop_pending_updates forgets pending updates", async () => {
    telegram.userSends(telegram.addUser().id, "old");
    expect(await bot.api.deleteWebhook({ drop_pending_updates: true })).toBe(true);
    expect(await bot.api.getUpdates()).toEqual([]);
  });
});

describe("webhook", () => {
  /** An HTTP receiver answering the given statuses in turn (then 200), keeping what arrived. */
  function receiver(statuses: number[] = []) {
    const received: { secret: string | null; update: { update_id: number; message?: Message } }[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
      received.push({ secret: request.headers.get("x-telegram-bot-api-secret-token"), update: await request.json() });
      return new Response(null, { status: statuses.shift() ?? 200 });
    });
    return { url: `http://127.0.0.1:${server.addr.port}/hook`, received, close: () => server.shutdown() };
  }

  test("updates are POSTed with the secret; one answered without a 2xx is sent again and reported", async () => {
    await telegram.close();
    telegram = await startTelegramServer({ token: "123456789:TEST-token", webhookRetryMs: 100 });
    const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
    const hook = receiver([500]);
    try {
      expect(await api.setWebhook(hook.url, { secret_token: "s3cret_-X", allowed_updates: ["message"] })).toBe(true);
      const user = telegram.addUser({ username: "alice", first_name: "Alice" });
      telegram.userSends(user.id, "hello");
      await telegram.waitFor(() => telegram.webhookDeliveries.some((d) => d.status === 200), 5_000);
      expect(hook.received.map((r) => [r.secret, r.update.message?.text])).toEqual([["s3cret_-X", "hello"], ["s3cret_-X", "hello"]]);
      expect(telegram.webhookDeliveries.map((d) => d.status)).toEqual([500, 200]);
      expect(telegram.pendingUpdates()).toEqual([]);
      const info = await api.getWebhookInfo();
      expect(info).toMatchObject({ url: hook.url, pending_update_count: 0, allowed_updates: ["message"], max_connections: 40 });
      expect(info.last_error_message).toMatch(/500/);
    } finally {
      await telegram.close();
      await hook.close();
    }
  });

  test("getUpdates answers 409 while a webhook is set, and works again after deleteWebhook", async () => {
    await bot.api.setWebhook("https://example.com/hook");
    const error = await apiError(bot.api.getUpdates());
    expect([error.error_code, error.description]).toEqual([
      409,
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    ]);
    await bot.api.deleteWebhook();
    expect((await bot.api.getWebhookInfo()).url).toBe("");
    expect(await bot.api.getUpdates()).toEqual([]);
  });

  test("setWebhook takes https (http only to a loopback address), Telegram's secret characters, one call a second", async () => {
    const refused = await apiError(bot.api.setWebhook("http://example.com/hook"));
    expect(refused.description).toBe("Bad Request: bad webhook: An HTTPS URL must be provided for webhook");
    const badSecret = await apiError(bot.api.setWebhook("https://example.com/hook", { secret_token: "no spaces" }));
    expect(badSecret.error_code).toBe(400);
    expect(await bot.api.setWebhook("http://127.0.0.1:9/hook")).toBe(true);
    const tooSoon = await apiError(bot.api.setWebhook("https://example.com/hook"));
    expect([tooSoon.error_code, tooSoon.parameters.retry_after]).toEqual([429, 1]);
  });
});

describe("channels", () => {
  test("sendMessage to a channel where the bot may post, by id and by @username", async () => {
    const channel = telegram.addChannel({ username: "news", title: "News" });
    const byId = await bot.api.sendMessage(channel.id, "first post");
    const byName = await bot.api.sendMessage("@news", "second post");

    expect(channel.id).toBeLessThan(-1_000_000_000_000);
    expect(byId).toMatchObject({
      chat: { id: channel.id, type: "channel", title: "News", username: "news" },
    });
    expect(byId.sender_chat?.id).toBe(channel.id);
    expect(byId.from).toBeUndefined(); // channel posts have no sender user
    expect(telegram.messages("@news").map((message) => message.text)).toEqual(["first post", "second post"]);
    expect(byName.message_id).toBe(byId.message_id + 1);
  });

  test("without can_post_messages, as a plain member, not a member, or unknown: Telegram's errors", async () => {
    const noRights = telegram.addChannel({ username: "quiet", botRights: { can_post_messages: false } });
    const member = telegram.addChannel({ username: "member", botRights: "member" });
    const left = telegram.addChannel({ username: "public_left", botRights: "left" });
    const hidden = telegram.addChannel({ title: "Private, bot not in it", botRights: "left" });
    const kicked = telegram.addChannel({ username: "kicked", botRights: "kicked" });

    const cases = [
      [noRights.id, 400, "Bad Request: need administrator rights in the channel chat"],
      [member.id, 400, "Bad Request: need administrator rights in the channel chat"],
      [left.id, 403, "Forbidden: bot is not a member of the channel chat"],
      [hidden.id, 400, "Bad Request: chat not found"],
      [kicked.id, 403, "Forbidden: bot was kicked from the channel chat"],
      ["@nobody_here", 400, "Bad Request: chat not found"],
    ] as const;
    for (const [chat, code, description] of cases) {
      const error = await apiError(bot.api.sendMessage(chat, "hello"));
      expect([chat, error.error_code, error.description]).toEqual([chat, code, description]);
    }
    expect(telegram.messages(noRights.id)).toEqual([]);
  });

  test("granting rights later lets the bot post, and emits my_chat_member", async () => {
    const channel = telegram.addChannel({ username: "later", botRights: "left" });
    telegram.setBotRights(channel.id, { can_post_messages: true });
    await bot.api.sendMessage(channel.id, "now I can");
    const changes = telegram.pendingUpdates().map((update) => update.my_chat_member);
    expect(changes.at(-1)).toMatchObject({
      chat: { id: channel.id },
      old_chat_member: { status: "left" },
      new_chat_member: { status: "administrator", can_post_messages: true },
    });
  });

  test("getChat by id or @username; unknown chats are not found", async () => {
    const channel = telegram.addChannel({ username: "Info", title: "Info", description: "About things" });
    const chat = await bot.api.getChat("@info");
    expect(chat).toMatchObject({
      id: channel.id,
      type: "channel",
      title: "Info",
      description: "About things",
    });
    expect((await bot.api.getChat(channel.id)).id).toBe(channel.id);
    expect((await apiError(bot.api.getChat(-1009999999999))).description).toBe("Bad Request: chat not found");
  });

  test("getChatMember reports the bot's own status and rights", async () => {
    const admin = telegram.addChannel({
      username: "adm",
      botRights: { can_post_messages: true, can_edit_messages: false },
    });
    const member = telegram.addChannel({ username: "mem", botRights: "member" });
    const left = telegram.addChannel({ username: "gone", botRights: "left" });
    const me = telegram.me.id;

    expect(await bot.api.getChatMember(admin.id, me)).toMatchObject({
      status: "administrator",
      user: { id: me, is_bot: true },
      can_post_messages: true,
      can_edit_messages: false,
    });
    expect((await bot.api.getChatMember(member.id, me)).status).toBe("member");
    expect((await bot.api.getChatMember(left.id, me)).status).toBe("left");
  });

  test("getChatAdministrators lists the owner and the bot; non-admins may not see it", async () => {
    const channel = telegram.addChannel({ username: "admins" });
    const admins = await bot.api.getChatAdministrators(channel.id);
    expect(admins.map((admin) => admin.status)).toEqual(["creator", "administrator"]);
    expect(admins[1].user.id).toBe(telegram.me.id);

    telegram.setBotRights(channel.id, "member");
    const error = await apiError(bot.api.getChatAdministrators(channel.id));
    expect(error.description).toBe("Bad Request: member list is inaccessible");
  });
});

describe("messages", () => {
  test("message_id increases per chat and date is in seconds", async () => {
    const a = telegram.addChannel({ username: "chan_a" });
    const b = telegram.addChannel({ username: "chan_b" });
    const ids = [
      (await bot.api.sendMessage(a.id, "a1")).message_id,
      (await bot.api.sendMessage(a.id, "a2")).message_id,
      (await bot.api.sendMessage(b.id, "b1")).message_id,
    ];
    expect(ids).toEqual([1, 2, 1]);

    const user = startedUser(); // the user's /start is message 1 of the private chat
    const reply = await bot.api.sendMessage(user.id, "welcome");
    expect(reply.message_id).toBe(2);
    const nowSeconds = Date.now() / 1000;
    expect(Math.abs(reply.date - nowSeconds)).toBeLessThan(5);
    expect(Number.isInteger(reply.date)).toBe(true);
  });

  test("text limits: empty and over 4096 characters are refused", async () => {
    const user = startedUser();
    expect((await apiError(bot.api.sendMessage(user.id, ""))).description).toBe(
      "Bad Request: message text is empty",
    );
    expect((await apiError(bot.api.sendMessage(user.id, "  \n "))).description).toBe(
      "Bad Request: message text is empty",
    );
    expect((await apiError(bot.api.sendMessage(user.id, "x".repeat(4097)))).description).toBe(
      "Bad Request: message is too long",
    );
    const longest = await bot.api.sendMessage(user.id, "x".repeat(4096));
    expect(longest.text).toHaveLength(4096);
  });

  test("parse_mode HTML becomes plain text with entities; the limit applies after parsing", async () => {
    const user = startedUser();
    const sent = await bot.api.sendMessage(
      user.id,
      '<b>Big</b> &amp; <a href="https://pressa.example">link</a>',
      {
        parse_mode: "HTML",
      },
    );
    expect(sent.text).toBe("Big & link");
    expect(sent.entities).toEqual([
      { type: "bold", offset: 0, length: 3 },
      { type: "text_link", offset: 6, length: 4, url: "https://pressa.example/" },
    ]);
    const markup = `<b>${"x".repeat(4096)}</b>`;
    expect((await bot.api.sendMessage(user.id, markup, { parse_mode: "HTML" })).text).toHaveLength(4096);

    const broken = await apiError(bot.api.sendMessage(user.id, "<blink>hi</blink>", { parse_mode: "HTML" }));
    expect(broken.description).toBe(
      'Bad Request: can\'t parse entities: Unsupported start tag "blink" at byte offset 0',
    );
  });

  test("private chats: the bot cannot start a conversation, nor write to a user who blocked it", async () => {
    const stranger = telegram.addUser({ first_name: "Stranger" });
    const error = await apiError(bot.api.sendMessage(stranger.id, "hi"));
    expect([error.error_code, error.description]).toEqual([
      403,
      "Forbidden: bot can't initiate conversation with a user",
    ]);

    const user = startedUser();
    telegram.blockBot(user.id);
    const blocked = await apiError(bot.api.sendMessage(user.id, "hi"));
    expect([blocked.error_code, blocked.description]).toEqual([
      403,
      "Forbidden: bot was blocked by the user",
    ]);
  });

  test("editMessageText edits, and refuses an edit that changes nothing", async () => {
    const channel = telegram.addChannel({ username: "edits" });
    const sent = await bot.api.sendMessage(channel.id, "draft", {
      reply_markup: new InlineKeyboard().text("Like", "like"),
    });
    const keyboard = { inline_keyboard: [[{ text: "Like", callback_data: "like" }]] };

    const edited = await bot.api.editMessageText(channel.id, sent.message_id, "final", {
      reply_markup: keyboard,
    });
    expect(edited).toMatchObject({ message_id: sent.message_id, text: "final", reply_markup: keyboard });
    expect(typeof (edited as { edit_date?: number }).edit_date).toBe("number");
    expect(telegram.messages(channel.id)[0].text).toBe("final");

    const same = await apiError(
      bot.api.editMessageText(channel.id, sent.message_id, "final", { reply_markup: keyboard }),
    );
    expect(same.description).toBe(
      "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );

    // Like on Telegram, an edit without reply_markup removes the keyboard.
    await bot.api.editMessageText(channel.id, sent.message_id, "final");
    expect(telegram.messages(channel.id)[0].reply_markup).toBeUndefined();

    const missing = await apiError(bot.api.editMessageText(channel.id, 999, "x"));
    expect(missing.description).toBe("Bad Request: message to edit not found");
  });

  test("editMessageReplyMarkup and editMessageCaption follow the same rules", async () => {
    const channel = telegram.addChannel({ username: "markup" });
    const photo = await bot.api.sendPhoto(channel.id, new InputFile(makePng(20, 20)), { caption: "old" });
    const keyboard = new InlineKeyboard().text("Vote", "vote");
    await bot.api.editMessageReplyMarkup(channel.id, photo.message_id, { reply_markup: keyboard });
    const unchanged = await apiError(
      bot.api.editMessageReplyMarkup(channel.id, photo.message_id, { reply_markup: keyboard }),
    );
    expect(unchanged.description).toMatch(/^Bad Request: message is not modified/);

    const captioned = await bot.api.editMessageCaption(channel.id, photo.message_id, {
      caption: "new",
      reply_markup: keyboard,
    });
    expect(captioned).toMatchObject({ caption: "new" });
    const text = await bot.api.sendMessage(channel.id, "plain");
    const noCaption = await apiError(
      bot.api.editMessageCaption(channel.id, text.message_id, { caption: "x" }),
    );
    expect(noCaption.description).toBe("Bad Request: there is no caption in the message to edit");
  });

  test("deleteMessage removes a message once; 48 hours later it cannot", async () => {
    const channel = telegram.addChannel({ username: "deletes" });
    const first = await bot.api.sendMessage(channel.id, "to delete");
    const second = await bot.api.sendMessage(channel.id, "to keep");
    expect(await bot.api.deleteMessage(channel.id, first.message_id)).toBe(true);
    expect(telegram.messages(channel.id).map((message) => message.message_id)).toEqual([second.message_id]);

    const again = await apiError(bot.api.deleteMessage(channel.id, first.message_id));
    expect(again.description).toBe("Bad Request: message to delete not found");

    telegram.advanceClock(48 * 60 * 60);
    const tooOld = await apiError(bot.api.deleteMessage(channel.id, second.message_id));
    expect(tooOld.description).toBe("Bad Request: message can't be deleted");
  });

  test("replies reference the replied-to message; a missing one is refused", async () => {
    const channel = telegram.addChannel({ username: "replies" });
    const original = await bot.api.sendMessage(channel.id, "original");
    const reply = await bot.api.sendMessage(channel.id, "reply", {
      reply_parameters: { message_id: original.message_id },
    });
    expect(reply.reply_to_message?.text).toBe("original");
    const error = await apiError(
      bot.api.sendMessage(channel.id, "x", { reply_parameters: { message_id: 77 } }),
    );
    expect(error.description).toBe("Bad Request: message to be replied not found");
  });
});

describe("photos", () => {
  test("sendPhoto uploads bytes (multipart) with a caption and keyboard; sizes and bytes are kept", async () => {
    const channel = telegram.addChannel({ username: "pics" });
    const png = makePng(1000, 500);
    const sent = await bot.api.sendPhoto(channel.id, new InputFile(png, "cover.png"), {
      caption: "<i>Cover</i> story",
      parse_mode: "HTML",
      reply_markup: new InlineKeyboard().url("Read", "https://pressa.example/post"),
    });

    expect(sent.caption).toBe("Cover story");
    expect(sent.caption_entities).toEqual([{ type: "italic", offset: 0, length: 5 }]);
    expect(sent.reply_markup?.inline_keyboard[0][0]).toEqual({
      text: "Read",
      url: "https://pressa.example/post",
    });
    const sizes = sent.photo.map(({ width, height }) => [width, height]);
    expect(sizes).toEqual([[90, 45], [320, 160], [800, 400], [1000, 500]]);
    const largest = sent.photo.at(-1)!;
    expect(largest.file_size).toBe(png.length);
    expect(largest.file_id).not.toBe(largest.file_unique_id);
    expect(telegram.file(largest.file_id)?.bytes).toEqual(png);
    expect(telegram.file(largest.file_id)?.filename).toBe("cover.png");
  });

  test("a caption of 1025 characters is refused, 1024 is fine", async () => {
    const channel = telegram.addChannel({ username: "captions" });
    const error = await apiError(
      bot.api.sendPhoto(channel.id, new InputFile(makePng(10, 10)), { caption: "c".repeat(1025) }),
    );
    expect([error.error_code, error.description]).toEqual([400, "Bad Request: message caption is too long"]);
    expect(telegram.messages(channel.id)).toEqual([]);
    const ok = await bot.api.sendPhoto(channel.id, new InputFile(makePng(10, 10)), {
      caption: "c".repeat(1024),
    });
    expect(ok.caption).toHaveLength(1024);
  });

  test("a photo can be sent again by file_id, or by URL; bytes that are no image are refused", async () => {
    const channel = telegram.addChannel({ username: "reuse" });
    const first = await bot.api.sendPhoto(channel.id, new InputFile(makePng(64, 48)));
    const again = await bot.api.sendPhoto(channel.id, first.photo.at(-1)!.file_id);
    expect(again.photo.at(-1)!.file_unique_id).toBe(first.photo.at(-1)!.file_unique_id);

    const url = "https://cdn.pressa.example/image.png";
    telegram.serveUrl(url, makePng(400, 300), "image/png");
    const byUrl = await bot.api.sendPhoto(channel.id, url);
    expect(byUrl.photo.at(-1)).toMatchObject({ width: 400, height: 300 });

    const notImage = await apiError(
      bot.api.sendPhoto(channel.id, new InputFile(new TextEncoder().encode("hello"))),
    );
    expect(notImage.description).toBe("Bad Request: IMAGE_PROCESS_FAILED");
    const unknownId = await apiError(bot.api.sendPhoto(channel.id, "no-such-file-id"));
    expect(unknownId.description).toBe("Bad Request: wrong file identifier/HTTP URL specified");
  });

  test("getFile gives a path under which the bytes can be downloaded", async () => {
    const channel = telegram.addChannel({ username: "files" });
    const png = makePng(30, 30);
    const sent = await bot.api.sendPhoto(channel.id, new InputFile(png));
    const file = await bot.api.getFile(sent.photo.at(-1)!.file_id);
    const response = await fetch(`${telegram.apiRoot}/file/bot${telegram.token}/${file.file_path}`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png);
  });
});

describe("callback queries", () => {
  test("a button press arrives as an update; answerCallbackQuery works once", async () => {
    const user = startedUser();
    const sent = await bot.api.sendMessage(user.id, "Publish?", {
      reply_markup: new InlineKeyboard().text("Yes", "publish:1").text("No", "cancel:1"),
    });
    await bot.api.getUpdates({ offset: -1 }).then((updates) =>
      bot.api.getUpdates({ offset: updates[0].update_id + 1 })
    );

    const queryId = telegram.userPressesButton(user.id, user.id, sent.message_id, "publish:1");
    const [update] = await bot.api.getUpdates({ timeout: 1 });
    expect(update.callback_query).toMatchObject({
      id: queryId,
      from: { id: user.id },
      data: "publish:1",
      message: { message_id: sent.message_id, text: "Publish?" },
    });

    expect(await bot.api.answerCallbackQuery(queryId, { text: "Published" })).toBe(true);
    expect(telegram.callbackAnswer(queryId)).toEqual({ text: "Published" });
    const twice = await apiError(bot.api.answerCallbackQuery(queryId));
    expect(twice.description).toBe(
      "Bad Request: query is too old and response timeout expired or query ID is invalid",
    );
  });

  test("a late answer or an unknown id is refused; pressing a button that does not exist throws", async () => {
    const user = startedUser();
    const sent = await bot.api.sendMessage(user.id, "Pick", {
      reply_markup: new InlineKeyboard().text("A", "a"),
    });
    const queryId = telegram.userPressesButton(user.id, user.id, sent.message_id, "a");
    telegram.advanceClock(60);
    expect((await apiError(bot.api.answerCallbackQuery(queryId))).error_code).toBe(400);
    expect((await apiError(bot.api.answerCallbackQuery("12345"))).description).toMatch(/query is too old/);
    expect(() => telegram.userPressesButton(user.id, user.id, sent.message_id, "b")).toThrow(/no button/);
  });
});

describe("failure injection", () => {
  test("failNext 429 surfaces as GrammyError with retry_after, once", async () => {
    const channel = telegram.addChannel({ username: "flood" });
    telegram.failNext("sendMessage", { code: 429, retryAfter: 3 });
    const error = await apiError(bot.api.sendMessage(channel.id, "too fast"));
    expect(error.error_code).toBe(429);
    expect(error.description).toBe("Too Many Requests: retry after 3");
    expect(error.parameters.retry_after).toBe(3);
    expect(telegram.messages(channel.id)).toEqual([]);

    await bot.api.sendMessage(channel.id, "later");
    expect(telegram.messages(channel.id)).toHaveLength(1);
  });

  test("failNext with a count and a custom error", async () => {
    telegram.failNext("getMe", { code: 502, description: "Bad Gateway" }, 2);
    expect((await apiError(bot.api.getMe())).error_code).toBe(502);
    expect((await apiError(bot.api.getMe())).description).toBe("Bad Gateway");
    expect((await bot.api.getMe()).is_bot).toBe(true);
  });

  test("a dropped connection surfaces as HttpError; with processed the message exists anyway", async () => {
    const channel = telegram.addChannel({ username: "flaky" });
    telegram.failNext("sendMessage", { drop: true });
    await rejection(bot.api.sendMessage(channel.id, "lost"), HttpError);
    expect(telegram.messages(channel.id)).toEqual([]);

    telegram.failNext("sendMessage", { drop: true, processed: true });
    await rejection(bot.api.sendMessage(channel.id, "posted, answer lost"), HttpError);
    expect(telegram.messages(channel.id).map((message) => message.text)).toEqual(["posted, answer lost"]);
    expect(telegram.requests.filter((request) => request.status === "dropped")).toHaveLength(2);

    // The server keeps working after dropping connections.
    expect((await bot.api.sendMessage(channel.id, "fine")).text).toBe("fine");
  });
});

describe("rate limits", () => {
  test("off by default", async () => {
    const channel = telegram.addChannel({ username: "unlimited" });
    for (let i = 0; i < 25; i++) await bot.api.sendMessage(channel.id, `post ${i}`);
    expect(telegram.messages(channel.id)).toHaveLength(25);
  });

  test("with rateLimits, the 21st message in a minute to one channel gets 429", async () => {
    const limited = await startTelegramServer({ rateLimits: true });
    try {
      const limitedBot = new Bot(limited.token, { client: { apiRoot: limited.apiRoot } });
      const channel = limited.addChannel({ username: "busy" });
      const other = limited.addChannel({ username: "calm" });
      for (let i = 0; i < 20; i++) await limitedBot.api.sendMessage(channel.id, `post ${i}`);
      const error = await apiError(limitedBot.api.sendMessage(channel.id, "one too many"));
      expect(error.error_code).toBe(429);
      expect(error.parameters.retry_after).toBeGreaterThanOrEqual(55);
      expect(error.description).toBe(`Too Many Requests: retry after ${error.parameters.retry_after}`);
      await limitedBot.api.sendMessage(other.id, "another channel is fine");
      limited.advanceClock(61);
      await limitedBot.api.sendMessage(channel.id, "a minute later");
    } finally {
      await limited.close();
    }
  });

  test("the overall per-second limit", async () => {
    const limited = await startTelegramServer({ rateLimits: { perSecond: 5 } });
    try {
      const limitedBot = new Bot(limited.token, { client: { apiRoot: limited.apiRoot } });
      const channels = Array.from({ length: 6 }, (_, i) => limited.addChannel({ username: `c${i}_chan` }));
      for (const channel of channels.slice(0, 5)) await limitedBot.api.sendMessage(channel.id, "x");
      const error = await apiError(limitedBot.api.sendMessage(channels[5].id, "x"));
      expect([error.error_code, error.parameters.retry_after]).toEqual([429, 1]);
    } finally {
      await limited.close();
    }
  });
});

describe("commands", () => {
  test("setMyCommands / getMyCommands per scope and language; invalid commands refused", async () => {
    await bot.api.setMyCommands([{ command: "start", description: "Start" }]);
    await bot.api.setMyCommands([{ command: "start", description: "Начать" }], { language_code: "ru" });
    expect(await bot.api.getMyCommands()).toEqual([{ command: "start", description: "Start" }]);
    expect(await bot.api.getMyCommands({ language_code: "ru" })).toEqual([{
      command: "start",
      description: "Начать",
    }]);
    expect(await bot.api.getMyCommands({ scope: { type: "all_private_chats" } })).toEqual([]);
    expect(telegram.commands()).toHaveLength(1);

    const error = await apiError(bot.api.setMyCommands([{ command: "Bad Command", description: "x" }]));
    expect(error.description).toBe("Bad Request: BOT_COMMAND_INVALID");
  });
});

describe("with grammY's runner", () => {
  test("a /start handler replies; the reply is readable with messages(); the runner stops cleanly", async () => {
    bot.command("start", (ctx) => ctx.reply(`Welcome, ${ctx.from?.first_name}!`));
    const runner = run(bot);
    try {
      const user = telegram.addUser({ first_name: "Carol", username: "carol" });
      const start = telegram.userSends(user.id, "/start");
      expect(start.entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);

      const reply = await telegram.waitFor(
        () => telegram.messages(user.id).find((message) => message.from?.id === telegram.me.id),
        3_000,
      );
      expect(reply.text).toBe("Welcome, Carol!");
      expect(reply.message_id).toBe(start.message_id + 1);
    } finally {
      await runner.stop();
    }
    expect(runner.isRunning()).toBe(false);
    // Stopping aborts the runner's 30 s long poll; the server notices and ends it at once.
    const polls = telegram.requests.filter((request) => request.method === "getUpdates");
    await telegram.waitFor(() => polls.every((poll) => poll.status !== undefined), 1_000);
    expect(polls.length).toBeGreaterThan(0);
  });
});

describe("with grammY's built-in polling", () => {
  test("bot.start() handles a message; bot.stop() confirms it so it is not delivered again", async () => {
    const user = telegram.addUser({ startedBot: true });
    bot.on("message:text", (ctx) => ctx.reply(ctx.message.text.toUpperCase()));
    const polling = bot.start({ drop_pending_updates: true });
    await telegram.waitFor(() => bot.isRunning() && telegram.requests.some((r) => r.method === "getUpdates"));
    telegram.userSends(user.id, "shout");
    await telegram.waitFor(() => telegram.messages(user.id).some((message) => message.text === "SHOUT"));
    await bot.stop();
    await polling;
    expect(telegram.pendingUpdates()).toEqual([]);
  });
});

describe("waitFor", () => {
  test("rejects when the condition does not come true in time", async () => {
    await expect(telegram.waitFor(() => telegram.messages("@nowhere").length > 0, 50)).rejects.toThrow(
      /within 50 ms/,
    );
  });
});

describe("held calls", () => {
  test("a held sendMessage is carried out after the delay even when the client has gone", async () => {
    const telegram = await startTelegramServer();
    try {
      const user = telegram.addUser({ username: "held_user", startedBot: true });
      telegram.failNext("sendMessage", { delayMs: 300 });
      const controller = new AbortController();
      const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
      const call = api.sendMessage(user.id, "slow", undefined, controller.signal).catch((e) => e);
      await telegram.waitFor(() => telegram.requests.find((r) => r.method === "sendMessage"), 2000);
      controller.abort();
      expect(await call).toBeInstanceOf(Error);
      expect(telegram.messages(user.id)).toHaveLength(0);
      await telegram.waitFor(() => telegram.messages(user.id).find((m) => m.text === "slow"), 2000);
    } finally {
      await telegram.close();
    }
  });

  test("with processed: false the held call is dropped and nothing happens", async () => {
    const telegram = await startTelegramServer();
    try {
      const user = telegram.addUser({ username: "held_user2", startedBot: true });
      telegram.failNext("sendMessage", { delayMs: 100, processed: false }, 2);
      const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
      await expect(api.sendMessage(user.id, "never")).rejects.toThrow();
      expect(telegram.messages(user.id)).toHaveLength(0);
    } finally {
      await telegram.close();
    }
  });
});

/** A raw call with a urlencoded form, as a client that serialises fields itself would make. */
async function rawCall(method: string, fields: Record<string, string>) {
  const response = await fetch(`${telegram.apiRoot}/bot${telegram.token}/${method}`, {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return { status: response.status, body: await response.json() };
}

/** sendMediaGroup's answer, typed as the photo messages these tests send. */
const photos = async (album: Promise<unknown[]>) => (await album) as Message.PhotoMessage[];

describe("albums (sendMediaGroup)", () => {
  test("uploaded photos become one album: a shared media_group_id, the caption and its entities on the first", async () => {
    const channel = telegram.addChannel({ username: "albums" });
    // Non-BMP text: 🎉 and 👋🏽 take 2 and 4 UTF-16 units; entity offsets count them so.
    const caption = "🎉 Big news 👋🏽 read on";
    const entities: MessageEntity[] = [
      { type: "bold", offset: 3, length: 3 },
      { type: "text_link", offset: 17, length: 4, url: "https://pressa.example/read" },
    ];
    const album = await photos(bot.api.sendMediaGroup(channel.id, [
      InputMediaBuilder.photo(new InputFile(makePng(800, 600), "one.png"), {
        caption,
        caption_entities: entities,
      }),
      InputMediaBuilder.photo(new InputFile(makePng(600, 800), "two.png")),
      InputMediaBuilder.photo(new InputFile(makePng(100, 100), "three.png"), { has_spoiler: true }),
    ], { disable_notification: true, protect_content: true }));

    expect(album.map((message) => message.message_id)).toEqual([1, 2, 3]);
    const groupId = album[0].media_group_id;
    expect(groupId).toMatch(/^\d+$/);
    expect(album.every((message) => message.media_group_id === groupId)).toBe(true);
    expect(album[0]).toMatchObject({ caption, caption_entities: entities, has_protected_content: true });
    expect(caption.slice(17, 21)).toBe("read");
    expect(album[1].caption).toBeUndefined();
    expect(album[2]).toMatchObject({ has_media_spoiler: true });
    expect(album[0].sender_chat?.id).toBe(channel.id);
    expect(album[1].photo.at(-1)).toMatchObject({ width: 600, height: 800 });
    expect(telegram.file(album[0].photo.at(-1)!.file_id)?.filename).toBe("one.png");

    expect(telegram.messages(channel.id)).toEqual(album);
    expect(telegram.messageInfo(channel.id, 2)).toMatchObject({ silent: true, pinned: false });
  });

  test("photos by file_id and by URL, an HTML caption with emoji, replies on every item", async () => {
    const channel = telegram.addChannel({ username: "mixed" });
    const first = await bot.api.sendPhoto(channel.id, new InputFile(makePng(64, 48)));
    const url = "https://cdn.pressa.example/album.png";
    telegram.serveUrl(url, makePng(320, 200), "image/png");
    const album = await photos(bot.api.sendMediaGroup(channel.id, [
      InputMediaBuilder.photo(first.photo.at(-1)!.file_id),
      InputMediaBuilder.photo(url, { caption: "<b>Привет 👋🏽</b> мир 🌍", parse_mode: "HTML" }),
    ], { reply_parameters: { message_id: first.message_id } }));

    expect(album[0].photo.at(-1)!.file_unique_id).toBe(first.photo.at(-1)!.file_unique_id);
    expect(album[1].photo.at(-1)).toMatchObject({ width: 320, height: 200 });
    expect(album[1].caption).toBe("Привет 👋🏽 мир 🌍");
    expect(album[1].caption_entities).toEqual([{ type: "bold", offset: 0, length: 11 }]);
    expect(album.map((message) => message.reply_to_message?.message_id)).toEqual([1, 1]);
    expect(telegram.messageInfo(channel.id, album[0].message_id)?.silent).toBe(false);
  });

  test("one item is an ordinary photo (no media_group_id); none or eleven are refused", async () => {
    const channel = telegram.addChannel({ username: "counts" });
    const photo = (await bot.api.sendPhoto(channel.id, new InputFile(makePng(10, 10)))).photo.at(-1)!.file_id;
    const [single] = await photos(bot.api.sendMediaGroup(channel.id, [InputMediaBuilder.photo(photo)]));
    expect(single.media_group_id).toBeUndefined();
    expect(single.photo.at(-1)!.file_id).toBe(photo);

    const none = await apiError(bot.api.sendMediaGroup(channel.id, []));
    expect([none.error_code, none.description]).toEqual([400, "Bad Request: there are no messages to send"]);
    const eleven = Array.from({ length: 11 }, () => InputMediaBuilder.photo(photo));
    const tooMany = await apiError(bot.api.sendMediaGroup(channel.id, eleven));
    expect(tooMany.description).toBe("Bad Request: too many messages to send as an album");
    const ten = await photos(bot.api.sendMediaGroup(channel.id, eleven.slice(1)));
    expect(ten).toHaveLength(10);
    expect(telegram.messages(channel.id)).toHaveLength(12);
  });

  test("a caption over 1024 after formatting, an image that cannot be processed: nothing is sent", async () => {
    const channel = telegram.addChannel({ username: "atomic" });
    const photo = (await bot.api.sendPhoto(channel.id, new InputFile(makePng(10, 10)))).photo.at(-1)!.file_id;
    const long = await apiError(bot.api.sendMediaGroup(channel.id, [
      InputMediaBuilder.photo(photo, { caption: "fine" }),
      InputMediaBuilder.photo(photo, { caption: `<b>${"c".repeat(1025)}</b>`, parse_mode: "HTML" }),
    ]));
    expect(long.description).toBe("Bad Request: message caption is too long");
    const longest = await photos(bot.api.sendMediaGroup(channel.id, [
      InputMediaBuilder.photo(photo, { caption: `<b>${"c".repeat(1024)}</b>`, parse_mode: "HTML" }),
      InputMediaBuilder.photo(photo),
    ]));
    expect(longest[0].caption).toHaveLength(1024);

    const broken = await apiError(bot.api.sendMediaGroup(channel.id, [
      InputMediaBuilder.photo(new InputFile(makePng(10, 10))),
      InputMediaBuilder.photo(new InputFile(new TextEncoder().encode("not an image"))),
    ]));
    expect(broken.description).toBe(
      'Bad Request: failed to send message #2 with the error message "IMAGE_PROCESS_FAILED"',
    );
    const unknown = await apiError(
      bot.api.sendMediaGroup(channel.id, [
        InputMediaBuilder.photo(photo),
        InputMediaBuilder.photo("no-such-id"),
      ]),
    );
    expect(unknown.description).toBe("Bad Request: wrong file identifier/HTTP URL specified");
    expect(telegram.messages(channel.id).map((message) => message.message_id)).toEqual([1, 2, 3]);
  });

  test("malformed media: Telegram's parsing errors; other media types are refused plainly", async () => {
    const channel = telegram.addChannel({ username: "malformed" });
    const photo = (await bot.api.sendPhoto(channel.id, new InputFile(makePng(10, 10)))).photo.at(-1)!.file_id;
    const item = (extra: object) =>
      JSON.stringify([{ type: "photo", media: photo }, { type: "photo", media: photo, ...extra }]);
    const inputMedia = (why: string) => `Bad Request: can't parse InputMedia: ${why}`;
    const cases: [Record<string, string>, string][] = [
      [{}, 'Bad Request: parameter "media" is required'],
      [{ media: "[{" }, "Bad Request: can't parse media JSON object"],
      [{ media: '{"type":"photo"}' }, "Bad Request: expected an Array of InputMedia"],
      [{ media: '["photo"]' }, inputMedia("expected an Object")],
      [{ media: item({ media: "attach://missing" }) }, inputMedia("media not found")],
      [{ media: item({ type: undefined }) }, inputMedia('Can\'t find field "type"')],
      [{ media: item({ caption: 5 }) }, inputMedia('Field "caption" must be of type String')],
      [
        { media: item({ caption: "<b>x", parse_mode: "HTML" }) },
        inputMedia("Can't parse entities: Can't find end tag corresponding to start tag \"b\""),
      ],
      [
        { media: item({ type: "animation" }) },
        inputMedia('type "animation" can\'t be used in sendMediaGroup'),
      ],
      [{ media: item({ type: "sticker" }) }, inputMedia('type "sticker" is unsupported')],
      [
        { media: item({ show_caption_above_media: true }) },
        "Bad Request: parameter show_caption_above_media must be the same for all messages",
      ],
      [
        { media: item({ type: "video" }) },
        "Not Implemented: the Telegram test double has no InputMediaVideo in sendMediaGroup",
      ],
    ];
    for (const [fields, description] of cases) {
      const { status, body } = await rawCall("sendMediaGroup", { chat_id: String(channel.id), ...fields });
      expect([status, body.description]).toEqual([
        description.startsWith("Not Implemented") ? 501 : 400,
        description,
      ]);
    }
    expect(telegram.messages(channel.id)).toHaveLength(1);
  });

  test("the right to post, chat checks and the rate limit count every message of the album", async () => {
    const readOnly = telegram.addChannel({ username: "readonly", botRights: { can_post_messages: false } });
    const upload = () => InputMediaBuilder.photo(new InputFile(makePng(10, 10)));
    const noRights = await apiError(bot.api.sendMediaGroup(readOnly.id, [upload(), upload()]));
    expect(noRights.description).toBe("Bad Request: need administrator rights in the channel chat");
    const unknown = await apiError(bot.api.sendMediaGroup(-100123, [upload(), upload()]));
    expect(unknown.description).toBe("Bad Request: chat not found");

    const limited = await startTelegramServer({ rateLimits: { perChannelPerMinute: 4 } });
    try {
      const limitedBot = new Bot(limited.token, { client: { apiRoot: limited.apiRoot } });
      const channel = limited.addChannel({ username: "limited_albums" });
      await limitedBot.api.sendMediaGroup(channel.id, [upload(), upload(), upload()]);
      const flood = await apiError(limitedBot.api.sendMediaGroup(channel.id, [upload(), upload()]));
      expect(flood.error_code).toBe(429);
      expect(limited.messages(channel.id)).toHaveLength(3);
      await limitedBot.api.sendMessage(channel.id, "the fourth message still fits");
    } finally {
      await limited.close();
    }
  });
});

describe("silent messages", () => {
  test("disable_notification is recorded for sendMessage, sendPhoto and albums, readable with messageInfo", async () => {
    const channel = telegram.addChannel({ username: "quiet" });
    const loud = await bot.api.sendMessage(channel.id, "loud");
    const quiet = await bot.api.sendMessage(channel.id, "quiet", { disable_notification: true });
    const photo = await bot.api.sendPhoto(channel.id, new InputFile(makePng(10, 10)), {
      disable_notification: true,
    });
    expect(telegram.messageInfo(channel.id, loud.message_id)).toEqual({
      message: loud,
      silent: false,
      pinned: false,
    });
    expect(telegram.messageInfo(channel.id, quiet.message_id)?.silent).toBe(true);
    expect(telegram.messageInfo(channel.id, photo.message_id)?.silent).toBe(true);
    expect("disable_notification" in quiet).toBe(false); // not a Message field
    await bot.api.deleteMessage(channel.id, quiet.message_id);
    expect(telegram.messageInfo(channel.id, quiet.message_id)).toBeUndefined();
  });
});

describe("link previews", () => {
  test("link_preview_options are stored as Telegram does", async () => {
    const channel = telegram.addChannel({ username: "previews" });
    const send = (text: string, link_preview_options: object) =>
      bot.api.sendMessage(channel.id, text, { link_preview_options });

    expect((await send("see https://pressa.example", { is_disabled: true })).link_preview_options).toEqual({
      is_disabled: true,
    });
    // Nothing to preview: the flag is not kept.
    expect((await send("no links here", { is_disabled: true })).link_preview_options).toBeUndefined();
    expect((await send("see https://pressa.example", {})).link_preview_options).toBeUndefined();
    expect((await send("see https://pressa.example", { show_above_text: true })).link_preview_options)
      .toEqual({
        show_above_text: true,
      });
    const chosen = await send("two: https://a.example https://b.example", {
      url: "https://b.example",
      prefer_large_media: true,
      show_above_text: true,
    });
    expect(chosen.link_preview_options).toEqual({
      url: "https://b.example",
      prefer_large_media: true,
      show_above_text: true,
    });
    // Size preferences need an explicit url.
    expect((await send("see https://pressa.example", { prefer_small_media: true })).link_preview_options)
      .toBeUndefined();
    const linked = await bot.api.sendMessage(channel.id, '<a href="https://pressa.example">read</a>', {
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true, url: "https://ignored.example" },
    });
    expect(linked.link_preview_options).toEqual({ is_disabled: true });
    const legacy = await bot.api.raw.sendMessage(
      {
        chat_id: channel.id,
        text: "https://pressa.example",
        disable_web_page_preview: true,
      } as Parameters<typeof bot.api.raw.sendMessage>[0],
    );
    expect(legacy.link_preview_options).toEqual({ is_disabled: true });
  });

  test("malformed link_preview_options are refused with the Bot API's texts", async () => {
    const user = startedUser();
    const cases: [string, string][] = [
      ["{", "Bad Request: can't parse link preview options JSON object"],
      ["[]", "Bad Request: object expected as link preview options"],
      ['{"is_disabled":"yes"}', 'Bad Request: field "is_disabled" must be of type Boolean'],
      ['{"url":5}', 'Bad Request: field "url" must be of type String'],
    ];
    for (const [options, description] of cases) {
      const { status, body } = await rawCall("sendMessage", {
        chat_id: String(user.id),
        text: "https://pressa.example",
        link_preview_options: options,
      });
      expect([status, body.description]).toEqual([400, description]);
    }
  });
});

describe("pinned messages", () => {
  test("pin and unpin in a channel: a service message, getChat's pinned_message, messageInfo", async () => {
    const channel = telegram.addChannel({ username: "pins" });
    const first = await bot.api.sendMessage(channel.id, "first", {
      reply_markup: new InlineKeyboard().url("Open", "https://pressa.example"),
    });
    const second = await bot.api.sendMessage(channel.id, "second", {
      reply_parameters: { message_id: first.message_id },
    });

    expect(await bot.api.pinChatMessage(channel.id, second.message_id, { disable_notification: true })).toBe(
      true,
    );
    const service = telegram.messages(channel.id).at(-1)!;
    expect(service).toMatchObject({
      message_id: 3,
      sender_chat: { id: channel.id },
      pinned_message: { message_id: second.message_id, text: "second" },
    });
    expect("reply_to_message" in (service.pinned_message as object)).toBe(false);
    expect(telegram.messageInfo(channel.id, service.message_id)?.silent).toBe(true);
    expect(telegram.messageInfo(channel.id, second.message_id)?.pinned).toBe(true);
    expect(telegram.pendingUpdates().some((update) => update.channel_post)).toBe(false); // the bot's own post

    await bot.api.pinChatMessage(channel.id, first.message_id);
    await bot.api.pinChatMessage(channel.id, first.message_id); // again: nothing changes
    expect(telegram.pinnedMessageIds(channel.id)).toEqual([1, 2]);
    expect(telegram.messages(channel.id)).toHaveLength(4);
    // "The most recent pinned message (by sending date)", not the last one pinned.
    const chat = await bot.api.getChat(channel.id);
    expect(chat.pinned_message).toMatchObject({ message_id: second.message_id, text: "second" });
    expect(chat.pinned_message && "reply_to_message" in chat.pinned_message).toBe(false);

    expect(await bot.api.unpinChatMessage(channel.id)).toBe(true); // the most recent one
    expect(telegram.pinnedMessageIds(channel.id)).toEqual([1]);
    expect((await bot.api.getChat(channel.id)).pinned_message).toMatchObject({ message_id: 1 });
    expect(await bot.api.unpinChatMessage(channel.id, second.message_id)).toBe(true); // not pinned: fine
    await bot.api.unpinChatMessage(channel.id, first.message_id);
    expect(telegram.pinnedMessageIds(channel.id)).toEqual([]);
    expect((await bot.api.getChat(channel.id)).pinned_message).toBeUndefined();
    const none = await apiError(bot.api.unpinChatMessage(channel.id));
    expect(none.description).toBe("Bad Request: message to unpin not found");

    await bot.api.pinChatMessage(channel.id, first.message_id);
    await bot.api.pinChatMessage(channel.id, second.message_id);
    expect(await bot.api.unpinAllChatMessages(channel.id)).toBe(true);
    expect(telegram.pinnedMessageIds(channel.id)).toEqual([]);
  });

  test("errors: missing messages, missing rights, a channel the bot is not in", async () => {
    const channel = telegram.addChannel({ username: "pinless" });
    const post = await bot.api.sendMessage(channel.id, "post");
    const missing = await apiError(bot.api.pinChatMessage(channel.id, 999));
    expect([missing.error_code, missing.description]).toEqual([400, "Bad Request: message to pin not found"]);
    expect((await apiError(bot.api.unpinChatMessage(channel.id, 999))).description).toBe(
      "Bad Request: message to unpin not found",
    );

    telegram.setBotRights(channel.id, { can_edit_messages: false });
    const rights = "Bad Request: not enough rights to manage pinned messages in the chat";
    expect((await apiError(bot.api.pinChatMessage(channel.id, post.message_id))).description).toBe(rights);
    expect((await apiError(bot.api.unpinChatMessage(channel.id, post.message_id))).description).toBe(rights);
    expect((await apiError(bot.api.unpinAllChatMessages(channel.id))).description).toBe(rights);
    telegram.setBotRights(channel.id, "member");
    expect((await apiError(bot.api.pinChatMessage(channel.id, post.message_id))).description).toBe(rights);
    telegram.setBotRights(channel.id, "left"); // a public channel stays visible, its messages do not
    expect((await apiError(bot.api.pinChatMessage("@pinless", post.message_id))).description).toBe(
      "Bad Request: message to pin not found",
    );
    expect(telegram.pinnedMessageIds(channel.id)).toEqual([]);
  });

  test("a deleted message is no longer pinned; private chats can pin too", async () => {
    const channel = telegram.addChannel({ username: "pindelete" });
    const post = await bot.api.sendMessage(channel.id, "soon gone");
    await bot.api.pinChatMessage(channel.id, post.message_id);
    await bot.api.deleteMessage(channel.id, post.message_id);
    expect(telegram.pinnedMessageIds(channel.id)).toEqual([]);

    const user = startedUser();
    const note = await bot.api.sendMessage(user.id, "remember this");
    await bot.api.pinChatMessage(user.id, note.message_id);
    expect((await bot.api.getChat(user.id)).pinned_message).toMatchObject({ message_id: note.message_id });
    expect(telegram.messages(user.id).at(-1)).toMatchObject({
      from: { id: telegram.me.id },
      pinned_message: { message_id: note.message_id },
    });
  });
});

/** An edit's answer: the message (it is `true` only for inline messages). */
const edited = async (result: Promise<true | Message>) => (await result) as Message;

describe("editing published posts", () => {
  test("editMessageText with entities, a link preview and URL buttons; edit_date; not modified", async () => {
    const channel = telegram.addChannel({ username: "published" });
    const post = await bot.api.sendMessage(channel.id, "Draft 🙂", { disable_notification: true });
    await bot.api.pinChatMessage(channel.id, post.message_id);
    telegram.advanceClock(60);

    const text = "Final 🚀 text with a link";
    const entities: MessageEntity[] = [
      { type: "bold", offset: 0, length: 8 },
      { type: "text_link", offset: 21, length: 4, url: "https://pressa.example/post" },
    ];
    const keyboard = new InlineKeyboard().url("Read", "https://pressa.example").url(
      "Chat",
      "tg://resolve?domain=x",
    );
    const result = await edited(bot.api.editMessageText(channel.id, post.message_id, text, {
      entities,
      link_preview_options: { is_disabled: true },
      reply_markup: keyboard,
    }));
    expect(result).toMatchObject({ text, entities, link_preview_options: { is_disabled: true } });
    expect(text.slice(21, 25)).toBe("link");
    expect(result.edit_date).toBeGreaterThanOrEqual(post.date + 60);

    const info = telegram.messageInfo(channel.id, post.message_id)!;
    expect(info).toMatchObject({ silent: true, pinned: true });
    expect(info.message).toMatchObject({
      text,
      entities,
      reply_markup: { inline_keyboard: keyboard.inline_keyboard },
      edit_date: result.edit_date,
    });

    // The same content with keys in another order is still "not modified".
    const same = await apiError(bot.api.editMessageText(channel.id, post.message_id, text, {
      entities: entities.map((entity) =>
        Object.fromEntries(Object.entries(entity).reverse()) as MessageEntity
      ),
      link_preview_options: { is_disabled: true },
      reply_markup: keyboard,
    }));
    expect(same.description).toBe(
      "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
    // Only the link preview changes: that is an edit.
    const previewOn = await edited(bot.api.editMessageText(channel.id, post.message_id, text, {
      entities,
      reply_markup: keyboard,
    }));
    expect(previewOn.link_preview_options).toBeUndefined();

    const badUrl = await apiError(bot.api.editMessageText(channel.id, post.message_id, "x", {
      reply_markup: new InlineKeyboard().url("Bad", "javascript:alert(1)"),
    }));
    expect(badUrl.description).toBe("Bad Request: BUTTON_URL_INVALID");
  });

  test("editMessageCaption with caption_entities on an album photo, editMessageReplyMarkup with URL buttons", async () => {
    const channel = telegram.addChannel({ username: "captions_edit" });
    const album = await photos(bot.api.sendMediaGroup(channel.id, [
      InputMediaBuilder.photo(new InputFile(makePng(10, 10)), { caption: "old" }),
      InputMediaBuilder.photo(new InputFile(makePng(10, 10))),
    ]));
    const caption = "New 🖼️ caption";
    const caption_entities: MessageEntity[] = [{ type: "italic", offset: 4, length: 3 }];
    const result = await bot.api.editMessageCaption(channel.id, album[0].message_id, {
      caption,
      caption_entities,
    });
    expect(result).toMatchObject({ caption, caption_entities, media_group_id: album[0].media_group_id });
    expect(caption.slice(4, 7)).toBe("🖼️");
    const again = await apiError(
      bot.api.editMessageCaption(channel.id, album[0].message_id, { caption, caption_entities }),
    );
    expect(again.description).toMatch(/^Bad Request: message is not modified/);
    const tooLong = await apiError(
      bot.api.editMessageCaption(channel.id, album[0].message_id, { caption: "🙂".repeat(1025) }),
    );
    expect(tooLong.description).toBe("Bad Request: message caption is too long");

    const buttons = new InlineKeyboard().url("One", "https://a.example").row().url(
      "Two",
      "https://b.example",
    );
    const withButtons = await edited(bot.api.editMessageReplyMarkup(channel.id, album[0].message_id, {
      reply_markup: buttons,
    }));
    expect(withButtons.reply_markup).toEqual({ inline_keyboard: buttons.inline_keyboard });
    expect(telegram.messageInfo(channel.id, album[0].message_id)?.message).toMatchObject({
      caption,
      caption_entities,
      reply_markup: { inline_keyboard: buttons.inline_keyboard },
    });
  });
});

describe("channel statistics: members, reactions, invite links", () => {
  test("chat_member and message_reaction_count come only to a bot that asked for them", async () => {
    const channel = telegram.addChannel({ username: "stats_news" });
    const reader = telegram.addUser({ first_name: "Reader" });
    const post = telegram.channelPost(channel.id, "hello");
    await bot.api.getUpdates({ offset: -1, timeout: 0 }); // nothing asked: Telegram's default list
    telegram.userJoins(channel.id, reader.id);
    telegram.setReactions(channel.id, post.message_id, { "👍": 2 });
    const unasked = await bot.api.getUpdates({ timeout: 0 });
    expect(unasked.some((u) => u.chat_member || u.message_reaction_count)).toBe(false);

    telegram.userLeaves(channel.id, reader.id);
    telegram.setReactions(channel.id, post.message_id, { "👍": 3, "🔥": 1, paid: 4, "custom:777": 1 });
    const asked = await bot.api.getUpdates({ timeout: 0, allowed_updates: ["chat_member", "message_reaction_count"] });
    const member = asked.find((u) => u.chat_member)!.chat_member!;
    expect(member).toMatchObject({
      chat: { id: channel.id, type: "channel" },
      from: { id: reader.id },
      old_chat_member: { status: "member", user: { id: reader.id } },
      new_chat_member: { status: "left", user: { id: reader.id } },
    });
    expect(member.date).toBeLessThan(10_000_000_000); // seconds
    expect(asked.find((u) => u.message_reaction_count)!.message_reaction_count).toMatchObject({
      chat: { id: channel.id },
      message_id: post.message_id,
      reactions: [
        { type: { type: "emoji", emoji: "👍" }, total_count: 3 },
        { type: { type: "emoji", emoji: "🔥" }, total_count: 1 },
        { type: { type: "paid" }, total_count: 4 },
        { type: { type: "custom_emoji", custom_emoji_id: "777" }, total_count: 1 },
      ],
    });
  });

  test("getChatMemberCount counts joins and leaves, or moves a set count", async () => {
    const channel = telegram.addChannel({ username: "count_news" });
    expect(await bot.api.getChatMemberCount(channel.id)).toBe(2); // the creator and the bot
    const reader = telegram.addUser({ first_name: "Reader" });
    telegram.userJoins(channel.id, reader.id);
    expect(await bot.api.getChatMemberCount(channel.id)).toBe(3);
    telegram.setMemberCount(channel.id, 100_000);
    telegram.userLeaves(channel.id, reader.id);
    expect(await bot.api.getChatMemberCount(channel.id)).toBe(99_999);
    // leaving twice is nothing
    expect(telegram.userLeaves(channel.id, reader.id)).toBeUndefined();
  });

  test("invite links: made with a name, named in the join, revoked; without can_invite_users Telegram's 400", async () => {
    const channel = telegram.addChannel({ username: "links_news" });
    const link = await bot.api.createChatInviteLink(channel.id, { name: "Partner" });
    expect(link).toMatchObject({ name: "Partner", is_revoked: false, is_primary: false, creates_join_request: false, creator: { is_bot: true } });
    expect(link.invite_link).toMatch(/^https:\/\/t\.me\/\+[\w-]{16}$/);
    const reader = telegram.addUser({ first_name: "Reader" });
    const update = telegram.userJoins(channel.id, reader.id, { inviteLink: link.invite_link })!;
    expect(update.chat_member?.invite_link).toMatchObject({ invite_link: link.invite_link, name: "Partner" });

    const revoked = await bot.api.revokeChatInviteLink(channel.id, link.invite_link);
    expect(revoked).toMatchObject({ invite_link: link.invite_link, is_revoked: true });
    expect(() => telegram.userJoins(channel.id, telegram.addUser().id, { inviteLink: link.invite_link })).toThrow(/revoked/);
    const late = telegram.userJoins(channel.id, telegram.addUser().id, { inviteLink: link.invite_link, lateUpdate: true })!;
    expect(late.chat_member?.invite_link?.is_revoked).toBe(true);

    expect((await apiError(bot.api.createChatInviteLink(channel.id, { name: "x".repeat(33) }))).description).toMatch(/too long/);
    telegram.setBotRights(channel.id, { can_invite_users: false });
    const refused = await apiError(bot.api.createChatInviteLink(channel.id, { name: "No right" }));
    expect([refused.error_code, refused.description]).toEqual([400, "Bad Request: not enough rights to manage chat invite links"]);
    telegram.setBotRights(channel.id, "member");
    expect((await apiError(bot.api.createChatInviteLink(channel.id))).description).toMatch(/need administrator rights/);
  });

  test("a webhook gets chat_member only once allowed_updates names it", async () => {
    await telegram.close();
    telegram = await startTelegramServer({ token: "123456789:TEST-token", webhookRetryMs: 100 });
    const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
    const received: { chat_member?: unknown; message?: unknown }[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
      received.push(await request.json());
      return new Response(null, { status: 200 });
    });
    try {
      const channel = telegram.addChannel({ username: "hook_news" });
      await api.setWebhook(`http://127.0.0.1:${server.addr.port}/hook`, { allowed_updates: ["message"] });
      const reader = telegram.addUser({ first_name: "Reader" });
      telegram.userJoins(channel.id, reader.id);
      telegram.userSends(reader.id, "hi");
      await telegram.waitFor(() => received.some((u) => u.message), 5_000);
      expect(received.some((u) => u.chat_member)).toBe(false);
      await new Promise((r) => setTimeout(r, 1_100)); // one setWebhook a second
      await api.setWebhook(`http://127.0.0.1:${server.addr.port}/hook`, { allowed_updates: ["message", "chat_member"] });
      telegram.userLeaves(channel.id, reader.id);
      await telegram.waitFor(() => received.some((u) => u.chat_member), 5_000);
    } finally {
      await telegram.close();
      await server.shutdown();
    }
  });
});
