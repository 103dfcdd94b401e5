// A local stand-in for api.telegram.org that the real grammY client talks to:
//
//   const telegram = await startTelegramServer();
//   const bot = new Bot(telegram.token, { client: { apiRoot: telegram.apiRoot } });
//
// It speaks the Bot API wire format (`/bot<token>/<method>`, JSON / urlencoded /
// multipart / query parameters, `{ ok, result }` or `{ ok: false, error_code,
// description, parameters }` with the matching HTTP status) and keeps the state a test
// needs to drive and inspect a bot: users, channels and the bot's rights there,
// messages, files, updates. Test controls are plain methods on the returned handle.
//
// It is built on node:http rather than Deno.serve for one reason: `failNext(..., {
// drop: true })` must close the connection *without* an answer, and Deno.serve always
// sends the status line before a handler can abort. node:http works the same under
// Deno and Node.

import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { BotCommand, BotCommandScope, Chat, ChatInviteLink, Message, Update, User, UserFromGetMe } from "grammy/types";
import { BotApiError, defaultDescription, notFound, tooManyRequests, unauthorized } from "./errors.ts";
import { detectedEntities } from "./formatting.ts";
import { METHODS, UNIMPLEMENTED_METHODS } from "./methods.ts";
import { Args, type RawParams, readParams } from "./params.ts";
import { RateLimiter, type RateLimits } from "./rate-limit.ts";
import {
  type BotMembership,
  type CallbackAnswer,
  inlineKeyboardOf,
  type StoredFile,
  World,
} from "./world.ts";

export type { BotMembership, CallbackAnswer, RateLimits, StoredFile };
export { makePng } from "./images.ts";

export interface TelegramServerOptions {
  /** The one token the server accepts; the bot id is the part before ":". */
  token?: string;
  botUsername?: string;
  botFirstName?: string;
  /** Telegram's flood limits (30 msg/s, 20 msg/min per channel); off by default. */
  rateLimits?: boolean | RateLimits;
  /** Default 0: a random free port. */
  port?: number;
  /** Webhook mode: how long after a failed delivery an update is POSTed again (default 1000 ms). */
  webhookRetryMs?: number;
  /** Webhook mode: a delivery not answered within this long counts as failed (default 60 s; Telegram publishes none). */
  webhookTimeoutMs?: number;
}

/** One POST of an update to the webhook: its answer's status, or "failed" (no answer, timeout). */
export interface WebhookDelivery {
  updateId: number;
  url: string;
  status: number | "failed";
  /** Milliseconds from the POST to its answer (or failure). */
  ms: number;
}

/** An injected failure for the next call(s) of one method. */
export type Failure =
  /** 429 "Too Many Requests: retry after N" with parameters.retry_after = N. */
  | { code: 429; retryAfter: number }
  /** Any other error answer; `description` defaults to Telegram's text for the code. */
  | { code: 400 | 401 | 403 | 404 | 409 | 500 | 502 | 503 | 504; description?: string }
  /**
   * Close the connection without answering. With `processed: true` the call takes
   * effect first (e.g. the message is posted) and only the answer is lost.
   */
  | { drop: true; processed?: boolean }
  /**
   * Hold the call for `delayMs` before handling it, as a slow Telegram would; the call is
   * carried out even if the client has gone away meanwhile (Telegram finishes what it
   * received), unless `processed: false`, which drops it unanswered and undone.
   */
  | { delayMs: number; processed?: boolean }
  /**
   * Carry the call out at once (the message is there for everyone to see and press), but
   * answer only after `answerAfterMs`: a slow way back, during which the caller does not yet
   * know the message's id.
   */
  | { answerAfterMs: number };

export interface NewUser {
  username?: string;
  first_name?: string;
  last_name?: string;
  language_code?: string;
  startedBot?: boolean;
}

/** A message as a test inspects it: what Telegram shows, plus what the Message object does not carry. */
export interface MessageInfo {
  /** The message as it is now (edits applied): text or caption, entities, reply_markup, link_preview_options, edit_date. */
  message: Message;
  /** Sent with `disable_notification` (for a pin's service message: the pinChatMessage flag). */
  silent: boolean;
  /** Currently pinned in its chat. */
  pinned: boolean;
}

export interface RequestLogEntry {
  /** As the client spelled it. */
  method: string;
  params: RawParams;
  /** Milliseconds since the epoch (real time). */
  time: number;
  /** HTTP status answered, "dropped" or undefined while still running. */
  status?: number | "dropped";
}

export interface TelegramServer {
  /** Pass as `client.apiRoot` to grammY. */
  readonly apiRoot: string;
  readonly token: string;
  /** What getMe answers. */
  readonly me: UserFromGetMe;
  /** Every API call received, oldest first (getUpdates included). */
  readonly requests: readonly RequestLogEntry[];
  /** Every webhook delivery, oldest first (retries included). */
  readonly webhookDeliveries: readonly WebhookDelivery[];

  /** Answers pending long polls with [], then closes all connections. */
  close(): Promise<void>;

  /**
   * A Telegram user. The bot may write to them only after they opened it: call
   * `userSends(id, "/start")`, or pass `startedBot: true` (no update is produced then).
   */
  addUser(input?: NewUser): User;
  /**
   * A channel with a negative -100… id. `botRights` defaults to "administrator" with
   * the default rights (can post, edit, delete); pass an object to override some, or
   * "member" / "left" / "kicked". Adding the bot emits a `my_chat_member` update.
   */
  addChannel(input?: {
    username?: string;
    title?: string;
    description?: string;
    /** The creator (a user id from addUser); by default a new user. */
    owner?: number;
    memberCount?: number;
    botRights?: BotMembership;
  }): Chat.ChannelChat;
  /**
   * A person's standing in a channel: `"administrator"` (default rights), an object of
   * rights, `"member"`, `"left"` or `"kicked"`. What getChatMember then answers for them.
   */
  setMemberRights(channel: number | string, userId: number, rights: BotMembership): void;
  /** Changes the bot's rights in a channel; emits `my_chat_member` when they change. */
  setBotRights(channel: number | string, rights: BotMembership): void;
  /** The user blocks / unblocks the bot (emits `my_chat_member`). */
  /** What getChatMemberCount answers from now on (moved by later joins and leaves). */
  setMemberCount(channel: number | string, count: number): void;
  /** A person subscribes, through one of the bot's invite links or not (`chat_member`); `lateUpdate` allows a revoked link. */
  userJoins(channel: number | string, userId: number, options?: { inviteLink?: string; lateUpdate?: boolean }): Update | undefined;
  /** A person leaves the channel (`chat_member` from member to left). */
  userLeaves(channel: number | string, userId: number): Update | undefined;
  /** The message's reactions become `counts` (`message_reaction_count` with the whole list). */
  setReactions(channel: number | string, messageId: number, counts: Record<string, number>): Update | undefined;
  /** Hands out an update once more (Telegram redelivers one not confirmed). */
  repeatUpdate(update: Update): void;
  /** The channel's invite links made by the bot, revoked ones too. */
  inviteLinks(channel: number | string): ChatInviteLink[];
  blockBot(userId: number): void;
  unblockBot(userId: number): void;
  /** The user writes to the bot in private; `/commands` get a bot_command entity. */
  userSends(userId: number, text: string): Message;
  /**
   * The user presses an inline button with this callback_data on a message the bot
   * sent; returns the callback query id. Throws if there is no such button, unless
   * `forged`: a modified client can send any callback_data for a bot message it sees, and
   * Telegram delivers it.
   */
  userPressesButton(userId: number, chat: number | string, messageId: number, callbackData: string, options?: { forged?: boolean }): string;
  /** The channel's owner posts into the channel (a `channel_post` update if the bot is admin). */
  channelPost(channel: number | string, text: string): Message;
  /** Current messages of a chat (deleted ones are gone, edits applied), oldest first. */
  messages(chat: number | string): Message[];
  /** One message of a chat with its silent and pinned state; undefined once deleted (or never sent). */
  messageInfo(chat: number | string, messageId: number): MessageInfo | undefined;
  /** Ids of the chat's pinned messages, ascending (the last one is what getChat answers as pinned_message). */
  pinnedMessageIds(chat: number | string): number[];
  /** How the bot answered a callback query, if it did. */
  callbackAnswer(queryId: string): CallbackAnswer | undefined;
  /** A stored file (upload or downloaded URL) with its bytes, by any file_id Telegram returned. */
  file(fileId: string): StoredFile | undefined;
  /** Content for an HTTP URL passed to sendPhoto (otherwise the server really fetches it). */
  serveUrl(url: string, bytes: Uint8Array, contentType?: string): void;
  /** Commands set with setMyCommands for a scope / language. */
  commands(scope?: BotCommandScope, languageCode?: string): BotCommand[];
  /** Updates not yet confirmed by a getUpdates offset. */
  pendingUpdates(): Update[];
  /** Makes the next `times` calls of `method` fail (case-insensitive name). */
  failNext(method: string, failure: Failure, times?: number): void;
  /** Resolves with the predicate's first truthy value; re-checked on every state change. */
  waitFor<T>(predicate: () => T, timeoutMs?: number): Promise<NonNullable<T>>;
  /** Moves the server's clock (message dates, 48 h delete window, callback expiry). */
  advanceClock(seconds: number): void;
}

export async function startTelegramServer(options: TelegramServerOptions = {}): Promise<TelegramServer> {
  const server = new FakeTelegram(options);
  await server.listen(options.port ?? 0);
  return server;
}

class FakeTelegram implements TelegramServer {
  readonly requests: RequestLogEntry[] = [];
  readonly webhookDeliveries: WebhookDelivery[] = [];
  /** Updates being POSTed now, and those waiting to be retried until the given time. */
  private readonly delivering = new Set<number>();
  private readonly retryAt = new Map<number, number>();
  private readonly deliveryAbort = new AbortController();
  private readonly webhookRetryMs: number;
  private readonly webhookTimeoutMs: number;
  private readonly world: World;
  private readonly limiter?: RateLimiter;
  private readonly failures = new Map<string, Failure[]>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly http: Server;
  private port = 0;

  constructor(options: TelegramServerOptions) {
    this.world = new World({
      token: options.token ?? "7000000001:AAFakeTokenForTheTelegramTestDouble_x",
      botUsername: options.botUsername ?? "pressa_test_bot",
      botFirstName: options.botFirstName ?? "Pressa Test Bot",
    });
    this.webhookRetryMs = options.webhookRetryMs ?? 1000;
    this.webhookTimeoutMs = options.webhookTimeoutMs ?? 60_000;
    this.world.subscribe(() => this.deliverToWebhook());
    if (options.rateLimits) {
      this.limiter = new RateLimiter(options.rateLimits === true ? {} : options.rateLimits);
    }
    this.http = createServer((request, response) => {
      const handling = this.handle(request, response).catch((error) => {
        console.error("telegram double: unexpected failure", error);
        if (!response.headersSent) {
          respond(response, 500, { ok: false, error_code: 500, description: "Internal Server Error" });
        }
      });
      this.inFlight.add(handling);
      void handling.finally(() => this.inFlight.delete(handling));
    });
  }

  get apiRoot() {
    return `http://127.0.0.1:${this.port}`;
  }

  get token() {
    return this.world.token;
  }

  get me() {
    return structuredClone(this.world.me);
  }

  async listen(port: number) {
    await new Promise<void>((resolve, reject) => {
      this.http.once("error", reject);
      this.http.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (this.http.address() as AddressInfo).port;
  }

  async close() {
    if (this.world.closed) return;
    this.world.closed = true;
    this.world.touch(); // wakes waiting long polls, which answer []
    this.deliveryAbort.abort();
    await Promise.allSettled([...this.inFlight]);
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  // ------------------------------------------------------------------ HTTP

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", this.apiRoot);
    const body = await readBody(request);

    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download) return this.serveFile(response, download[1], decodeURIComponent(download[2]));

    const route = /^\/bot([^/]*)\/([^/]+)$/.exec(url.pathname);
    if (!route) return respondError(response, notFound());
    const [, token, method] = route;
    if (token !== this.world.token) return respondError(response, unauthorized());
    const name = method.toLowerCase();
    const handler = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
    if (!handler) {
      if (UNIMPLEMENTED_METHODS.has(name)) {
        return respondError(
          response,
          new BotApiError(501, `Not Implemented: the Telegram test double has no ${method}`),
        );
      }
      return respondError(response, notFound());
    }

    let params: RawParams;
    try {
      params = await readParams(url, request.headers["content-type"], body);
    } catch (error) {
      if (error instanceof BotApiError) return respondError(response, error);
      throw error;
    }
    const entry: RequestLogEntry = { method, params, time: Date.now() };
    this.requests.push(entry);
    this.world.touch();

    const failure = this.takeFailure(name);
    if (failure && "delayMs" in failure) {
      await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
      if (failure.processed === false) return this.drop(request, entry);
    }
    if (failure && "drop" in failure && !failure.processed) return this.drop(request, entry);
    if (failure && "code" in failure) {
      const error = failure.code === 429
        ? tooManyRequests(failure.retryAfter)
        : new BotApiError(failure.code, failure.description ?? defaultDescription(failure.code));
      return this.answer(response, entry, error);
    }

    // A client that goes away (e.g. a runner being stopped) ends its long poll.
    const abort = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) abort.abort();
    });
    let outcome: unknown;
    try {
      outcome = await handler({
        args: new Args(params),
        world: this.world,
        signal: abort.signal,
        limiter: this.limiter,
      });
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
      outcome = error;
    }
    if (failure && "drop" in failure) return this.drop(request, entry); // { drop: true, processed: true }
    if (failure && "answerAfterMs" in failure) await new Promise((resolve) => setTimeout(resolve, failure.answerAfterMs));
    this.answer(response, entry, outcome);
  }

  private answer(response: ServerResponse, entry: RequestLogEntry, outcome: unknown) {
    if (outcome instanceof BotApiError) {
      entry.status = outcome.code;
      respondError(response, outcome);
    } else {
      entry.status = 200;
      respond(response, 200, { ok: true, result: outcome });
    }
    this.world.touch();
  }

  private drop(request: IncomingMessage, entry: RequestLogEntry) {
    entry.status = "dropped";
    request.socket.destroy();
    this.world.touch();
  }

  private serveFile(response: ServerResponse, token: string, path: string) {
    if (token !== this.world.token) return respondError(response, unauthorized());
    const file = this.world.fileByPath(path);
    if (!file) return respondError(response, notFound());
    response.writeHead(200, { "content-type": file.contentType, "content-length": file.bytes.length });
    response.end(file.bytes);
  }

  private takeFailure(method: string): Failure | undefined {
    const queue = this.failures.get(method);
    const failure = queue?.shift();
    if (queue && queue.length === 0) this.failures.delete(method);
    return failure;
  }

  // ------------------------------------------------------------------ webhook

  /**
   * While a webhook is set, POSTs every deliverable update to it (at most max_connections
   * at once) with the secret in X-Telegram-Bot-Api-Secret-Token, as Telegram does. A 2xx
   * answer confirms the update; anything else (another status, no answer within
   * webhookTimeoutMs) is recorded as getWebhookInfo's last error and the update is POSTed
   * again after webhookRetryMs, however many times it takes.
   */
  private deliverToWebhook() {
    const hook = this.world.webhook;
    if (!hook || this.world.closed) return;
    const now = Date.now();
    for (const update of this.world.deliverableUpdates(100)) {
      if (this.delivering.size >= hook.maxConnections) return;
      if (this.delivering.has(update.update_id) || (this.retryAt.get(update.update_id) ?? 0) > now) continue;
      this.delivering.add(update.update_id);
      const delivery = this.deliver(hook, update).finally(() => {
        this.delivering.delete(update.update_id);
        this.world.touch();
      });
      this.inFlight.add(delivery);
      void delivery.finally(() => this.inFlight.delete(delivery));
    }
  }

  private async deliver(hook: NonNullable<World["webhook"]>, update: Update) {
    const started = Date.now();
    let status: number | "failed";
    try {
      const response = await fetch(hook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(hook.secretToken === undefined ? {} : { "X-Telegram-Bot-Api-Secret-Token": hook.secretToken }),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.any([this.deliveryAbort.signal, AbortSignal.timeout(this.webhookTimeoutMs)]),
      });
      await response.body?.cancel();
      status = response.status;
    } catch {
      status = "failed";
    }
    this.webhookDeliveries.push({ updateId: update.update_id, url: hook.url, status, ms: Date.now() - started });
    if (typeof status === "number" && status >= 200 && status < 300) {
      this.retryAt.delete(update.update_id);
      this.world.updates = this.world.updates.filter((pending) => pending.update_id !== update.update_id);
      return;
    }
    this.world.lastWebhookError = {
      date: this.world.nowSeconds(),
      message: status === "failed" ? "Connection timed out" : `Wrong response from the webhook: ${status}`,
    };
    this.retryAt.set(update.update_id, Date.now() + this.webhookRetryMs);
    if (!this.world.closed) setTimeout(() => this.deliverToWebhook(), this.webhookRetryMs);
  }

  // ------------------------------------------------------------------ test controls

  addUser(input: NewUser = {}) {
    return this.world.addUser(input);
  }

  addChannel(input: Parameters<TelegramServer["addChannel"]>[0] = {}) {
    return this.world.addChannel(input ?? {});
  }

  setBotRights(channel: number | string, rights: BotMembership) {
    this.world.setBotMembership(this.world.chatFor(channel).chat.id, rights);
  }

  setMemberRights(channel: number | string, userId: number, rights: BotMembership) {
    this.world.setMemberStanding(this.world.chatFor(channel).chat.id, userId, rights);
  }

  /** What getChatMemberCount answers from now on (moved by later joins and leaves). */
  setMemberCount(channel: number | string, count: number) {
    this.world.chatFor(channel).memberCount = count;
    this.world.touch();
  }

  /**
   * `userId` subscribes to the channel, through one of the bot's invite links (its URL) or
   * not: a `chat_member` update carrying the link. Telegram refuses a revoked link; with
   * `lateUpdate` the join happened before the revoke and its update arrives now (the link
   * then shows `is_revoked: true`). Answers the update (undefined when the bot gets none).
   */
  userJoins(channel: number | string, userId: number, options: { inviteLink?: string; lateUpdate?: boolean } = {}): Update | undefined {
    const record = this.world.chatFor(channel);
    let link;
    if (options.inviteLink !== undefined) {
      link = record.inviteLinks?.get(options.inviteLink);
      if (!link) throw new Error(`telegram double: ${options.inviteLink} is no invite link of ${channel}`);
      if (link.is_revoked && !options.lateUpdate) throw new Error(`telegram double: ${options.inviteLink} is revoked; Telegram refuses it`);
    }
    return this.world.changeMembership(record.chat.id, userId, "member", link);
  }

  /** `userId` leaves the channel: a `chat_member` update from `member` to `left`. */
  userLeaves(channel: number | string, userId: number): Update | undefined {
    return this.world.changeMembership(this.world.chatFor(channel).chat.id, userId, "left");
  }

  /** The message's reactions become `counts` (emoji → count): a `message_reaction_count` update with the whole list. */
  setReactions(channel: number | string, messageId: number, counts: Record<string, number>): Update | undefined {
    return this.world.setReactions(this.world.chatFor(channel).chat.id, messageId, counts);
  }

  /** Queues an update handed out before once more, as Telegram does when its delivery was not confirmed. */
  repeatUpdate(update: Update) {
    this.world.repeatUpdate(update);
  }

  /** The channel's invite links made by the bot, revoked ones too. */
  inviteLinks(channel: number | string): ChatInviteLink[] {
    return structuredClone([...(this.world.chatFor(channel).inviteLinks?.values() ?? [])]);
  }

  blockBot(userId: number) {
    this.world.setBlocked(userId, true);
  }

  unblockBot(userId: number) {
    this.world.setBlocked(userId, false);
  }

  userSends(userId: number, text: string): Message {
    const record = this.world.user(userId);
    // Writing to a bot one had blocked means restarting it.
    if (record.blockedBot) this.world.setBlocked(userId, false);
    record.startedBot = true;
    const entities = detectedEntities(text);
    const message = this.world.storeMessage(this.world.chatFor(userId), record.user, {
      text,
      ...(entities.length > 0 ? { entities } : {}),
    });
    this.world.pushUpdate({ message: structuredClone(message) } as Omit<Update, "update_id">);
    return structuredClone(message);
  }

  userPressesButton(userId: number, chat: number | string, messageId: number, callbackData: string, options: { forged?: boolean } = {}): string {
    const user = this.world.user(userId).user;
    const record = this.world.chatFor(chat);
    if (record.chat.type === "private" && record.chat.id !== userId) {
      throw new Error(`telegram double: user ${userId} cannot see the private chat ${record.chat.id}`);
    }
    const message = this.world.findMessage(record, messageId);
    if (!message || !this.world.isFromBot(message)) {
      throw new Error(`telegram double: no message ${messageId} from the bot in chat ${record.chat.id}`);
    }
    const buttons = inlineKeyboardOf(message)?.inline_keyboard.flat() ?? [];
    if (!options.forged && !buttons.some((button) => "callback_data" in button && button.callback_data === callbackData)) {
      throw new Error(
        `telegram double: message ${messageId} has no button with callback_data "${callbackData}"`,
      );
    }
    return this.world.createCallbackQuery(user, message, callbackData).id;
  }

  channelPost(channel: number | string, text: string): Message {
    const record = this.world.chatFor(channel);
    if (record.chat.type !== "channel") throw new Error(`telegram double: ${channel} is not a channel`);
    const entities = detectedEntities(text);
    const message = this.world.storeMessage(record, "channel", {
      text,
      ...(entities.length > 0 ? { entities } : {}),
    });
    // Bots only receive channel posts where they are administrators.
    if (typeof record.bot === "object") {
      this.world.pushUpdate({ channel_post: structuredClone(message) } as Omit<Update, "update_id">);
    }
    return structuredClone(message);
  }

  messages(chat: number | string): Message[] {
    return structuredClone(this.world.chatFor(chat).messages);
  }

  messageInfo(chat: number | string, messageId: number): MessageInfo | undefined {
    const record = this.world.chatFor(chat);
    const message = this.world.findMessage(record, messageId);
    if (!message) return undefined;
    return {
      message: structuredClone(message),
      silent: this.world.isSilent(message),
      pinned: record.pinned.has(messageId),
    };
  }

  pinnedMessageIds(chat: number | string): number[] {
    return [...this.world.chatFor(chat).pinned].sort((a, b) => a - b);
  }

  callbackAnswer(queryId: string): CallbackAnswer | undefined {
    return structuredClone(this.world.callbackQuery(queryId)?.answer);
  }

  file(fileId: string): StoredFile | undefined {
    return this.world.files.get(fileId);
  }

  serveUrl(url: string, bytes: Uint8Array, contentType = "image/jpeg") {
    this.world.remoteFiles.set(url, { bytes, contentType });
  }

  commands(scope?: BotCommandScope, languageCode?: string): BotCommand[] {
    return structuredClone(this.world.commands.get(World.commandsKey(scope, languageCode)) ?? []);
  }

  pendingUpdates(): Update[] {
    return structuredClone(this.world.updates);
  }

  failNext(method: string, failure: Failure, times = 1) {
    const name = method.toLowerCase();
    const queue = this.failures.get(name) ?? [];
    for (let i = 0; i < times; i++) queue.push(failure);
    this.failures.set(name, queue);
  }

  waitFor<T>(predicate: () => T, timeoutMs = 2_000): Promise<NonNullable<T>> {
    return new Promise((resolve, reject) => {
      let lastError: unknown;
      const check = () => {
        try {
          const value = predicate();
          if (value) {
            done();
            resolve(value as NonNullable<T>);
          }
        } catch (error) {
          lastError = error; // e.g. the chat does not exist yet; keep waiting
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`waitFor: condition not met within ${timeoutMs} ms`, { cause: lastError }));
      }, timeoutMs);
      const unsubscribe = this.world.subscribe(check);
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
      };
      check();
    });
  }

  advanceClock(seconds: number) {
    this.world.advanceClock(seconds);
  }
}

function readBody(request: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    request.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    request.on("error", reject);
  });
}

function respond(response: ServerResponse, status: number, body: unknown) {
  if (response.destroyed || response.writableEnded) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

function respondError(response: ServerResponse, error: BotApiError) {
  respond(response, error.code, error.toJSON());
}
