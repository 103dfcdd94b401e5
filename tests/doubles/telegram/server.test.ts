// The Telegram double checked against the Bot API's documented behaviour, through the
// real grammY client (and @grammyjs/runner) talking HTTP to it.

import { run } from "@grammyjs/runner";
import { Api, Bot, GrammyError, HttpError, InlineKeyboard, InputFile } from "grammy";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { makePng, startTelegramServer, type TelegramServer } from "./server.ts";

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
