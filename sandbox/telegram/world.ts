// The state behind the fake Bot API: the bot, users, private chats, channels with the
// bot's membership, per-chat message history, uploaded files, pending updates, callback
// queries and commands. Both the HTTP methods and the test controls act on it; every
// change calls `touch()` so long polls and `waitFor` wake up instead of polling.

import type {
  BotCommand,
  CallbackQuery,
  Chat,
  ChatAdministratorRights,
  ChatInviteLink,
  ChatMember,
  InlineKeyboardMarkup,
  Message,
  PhotoSize,
  Update,
  User,
  UserFromGetMe,
} from "grammy/types";
import { badRequest, CHAT_NOT_FOUND, forbidden } from "./errors.ts";

/** Administrator rights that make sense in a channel. */
export type ChannelAdminRights = Omit<
  ChatAdministratorRights,
  "can_pin_messages" | "can_manage_topics" | "can_manage_tags"
>;

/** The bot's standing in a channel; an object means "administrator with these rights". */
export type BotMembership = "left" | "member" | "kicked" | "administrator" | Partial<ChannelAdminRights>;
type NormalisedMembership = "left" | "member" | "kicked" | ChannelAdminRights;

/** What you get when a bot is made a channel admin from the Telegram app with default switches. */
export const DEFAULT_ADMIN_RIGHTS: ChannelAdminRights = {
  is_anonymous: false,
  can_manage_chat: true,
  can_change_info: true,
  can_post_messages: true,
  can_edit_messages: true,
  can_delete_messages: true,
  can_invite_users: true,
  can_restrict_members: true,
  can_promote_members: false,
  can_manage_video_chats: true,
  can_post_stories: true,
  can_edit_stories: true,
  can_delete_stories: true,
  can_send_welcome_messages: false,
};

export interface UserRecord {
  user: User;
  /** The user has opened the bot (sent it something); only then may the bot write to them. */
  startedBot: boolean;
  blockedBot: boolean;
}

export interface ChatRecord {
  chat: Chat.PrivateChat | Chat.ChannelChat;
  messages: Message[];
  nextMessageId: number;
  /** Ids of the chat's pinned messages (Telegram allows several). */
  pinned: Set<number>;
  // Channels only:
  description?: string;
  /** What getChatMemberCount answers (subscribers); default: owner + bot. */
  memberCount?: number;
  owner?: User;
  bot?: NormalisedMembership;
  /** People other than the owner and the bot: subscribers and administrators, by user id. */
  members?: Map<number, NormalisedMembership>;
  /** Links made with createChatInviteLink, by URL (revoked ones stay, `is_revoked: true`). */
  inviteLinks?: Map<string, ChatInviteLink>;
}

export interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_size: number;
  file_path: string;
  bytes: Uint8Array;
  contentType: string;
  filename?: string;
  /** Where the bytes came from when sent as an HTTP URL. */
  url?: string;
}

export interface CallbackAnswer {
  text?: string;
  show_alert?: boolean;
  url?: string;
  cache_time?: number;
}

interface CallbackRecord {
  query: CallbackQuery;
  createdAt: number;
  answer?: CallbackAnswer;
}

/** Update types delivered when `allowed_updates` was never set (or set to []). */
const DEFAULT_EXCLUDED_UPDATES = ["chat_member", "message_reaction", "message_reaction_count"];

export interface WebhookSetting {
  url: string;
  secretToken: string | undefined;
  maxConnections: number;
}

export interface WorldOptions {
  token: string;
  botUsername: string;
  botFirstName: string;
}

export class World {
  readonly token: string;
  readonly me: UserFromGetMe;
  readonly users = new Map<number, UserRecord>();
  readonly chats = new Map<number, ChatRecord>();
  readonly files = new Map<string, StoredFile>();
  /** Photo sizes by the file_id of any of its sizes, so a photo can be re-sent by file_id. */
  readonly photos = new Map<string, PhotoSize[]>();
  /** Bytes served for HTTP URLs passed to sendPhoto (registered by tests). */
  readonly remoteFiles = new Map<string, { bytes: Uint8Array; contentType: string }>();
  readonly callbackQueries = new Map<string, CallbackRecord>();
  readonly commands = new Map<string, BotCommand[]>();
  updates: Update[] = [];
  allowedUpdates: string[] | undefined;
  /** Set by setWebhook: updates are then POSTed there and getUpdates answers 409. */
  webhook: WebhookSetting | undefined;
  /** When setWebhook was last called (Telegram allows one a second), in real ms. */
  lastSetWebhookAt = 0;
  /** The last failed webhook delivery, as getWebhookInfo reports it. */
  lastWebhookError: { date: number; message: string } | undefined;
  closed = false;
  /**
   * Ends the getUpdates call currently waiting, if any (only one may run at a time), with
   * 409 and the reason given (default: a newer getUpdates).
   */
  terminatePendingPoll: ((reason?: string) => void) | undefined;

  private clockOffsetMs = 0;
  private nextUpdateId = 100_000_001;
  private nextUserId = 700_000_001;
  private nextChannelId = 1_002_000_000_001;
  private nextFileNumber = 1;
  private nextQueryId = 4_100_000_000_000_000_001n;
  private nextMediaGroupId = 13_852_000_000_000_000_001n;
  private listeners = new Set<() => void>();
  /** Messages the bot sent, as "chatId:messageId" (channel posts carry no `from`). */
  private botMessages = new Set<string>();
  /** Messages sent with `disable_notification` (Message has no field for it), as "chatId:messageId". */
  private silentMessages = new Set<string>();

  constructor(options: WorldOptions) {
    this.token = options.token;
    const idFromToken = Number(options.token.split(":")[0]);
    this.me = {
      id: Number.isSafeInteger(idFromToken) && idFromToken > 0 ? idFromToken : 7_000_000_001,
      is_bot: true,
      first_name: options.botFirstName,
      username: options.botUsername,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    };
  }

  /** The bot as it appears in `from` fields. */
  get botUser(): User {
    return { id: this.me.id, is_bot: true, first_name: this.me.first_name, username: this.me.username };
  }

  // ------------------------------------------------------------------ change feed

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  touch() {
    for (const listener of [...this.listeners]) listener();
  }

  // ------------------------------------------------------------------ clock

  nowMs(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** Unix time in seconds, as in every `date` field. */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  advanceClock(seconds: number) {
    this.clockOffsetMs += seconds * 1000;
    this.touch();
  }

  // ------------------------------------------------------------------ users & chats

  addUser(
    input: {
      username?: string;
      first_name?: string;
      last_name?: string;
      language_code?: string;
      startedBot?: boolean;
    } = {},
  ): User {
    const id = this.nextUserId++;
    const user: User = {
      id,
      is_bot: false,
      first_name: input.first_name ?? `User ${id}`,
      ...(input.last_name ? { last_name: input.last_name } : {}),
      ...(input.username ? { username: stripAt(input.username) } : {}),
      ...(input.language_code ? { language_code: input.language_code } : {}),
    };
    this.users.set(id, { user, startedBot: input.startedBot ?? false, blockedBot: false });
    this.chats.set(id, {
      chat: {
        id,
        type: "private",
        first_name: user.first_name,
        ...(user.last_name ? { last_name: user.last_name } : {}),
        ...(user.username ? { username: user.username } : {}),
      },
      messages: [],
      nextMessageId: 1,
      pinned: new Set(),
    });
    this.touch();
    return structuredClone(user);
  }

  user(userId: number): UserRecord {
    const record = this.users.get(userId);
    if (!record) throw new Error(`telegram double: no user ${userId}`);
    return record;
  }

  addChannel(input: {
    username?: string;
    title?: string;
    description?: string;
    owner?: number;
    memberCount?: number;
    botRights?: BotMembership;
  }) {
    const id = -this.nextChannelId++;
    const owner = input.owner !== undefined
      ? this.user(input.owner).user
      : this.addUser({ first_name: `Owner of ${input.title ?? id}` });
    const username = input.username ? stripAt(input.username) : undefined;
    if (username && this.findChannelByUsername(username)) {
      throw new Error(`telegram double: channel @${username} exists already`);
    }
    this.chats.set(id, {
      chat: {
        id,
        title: input.title ?? `Channel ${-id}`,
        ...(username ? { username } : {}),
        type: "channel",
      },
      messages: [],
      nextMessageId: 1,
      pinned: new Set(),
      description: input.description,
      memberCount: input.memberCount,
      owner,
      bot: "left",
      members: new Map(),
      inviteLinks: new Map(),
    });
    this.setBotMembership(id, input.botRights ?? "administrator");
    return structuredClone(this.chats.get(id)!.chat as Chat.ChannelChat);
  }

  /** Changes the bot's membership and, like Telegram, emits a `my_chat_member` update. */
  setBotMembership(channelId: number, membership: BotMembership) {
    const record = this.chats.get(channelId);
    if (!record || record.chat.type !== "channel") {
      throw new Error(`telegram double: no channel ${channelId}`);
    }
    const before = record.bot!;
    const after = normaliseMembership(membership);
    record.bot = after;
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      this.pushUpdate({
        my_chat_member: {
          chat: structuredClone(record.chat),
          from: structuredClone(record.owner!),
          date: this.nowSeconds(),
          old_chat_member: this.botAsMember(before),
          new_chat_member: this.botAsMember(after),
        },
      });
    }
    this.touch();
  }

  /**
   * A person's standing in a channel (made an administrator with some rights, demoted to
   * subscriber, removed). Telegram would send `chat_member` updates only to bots that asked
   * for them; none is produced here.
   */
  setMemberStanding(channelId: number, userId: number, membership: BotMembership) {
    const record = this.chats.get(channelId);
    if (!record || record.chat.type !== "channel") {
      throw new Error(`telegram double: no channel ${channelId}`);
    }
    this.user(userId);
    record.members!.set(userId, normaliseMembership(membership));
    this.touch();
  }

  /** How getChatMember describes a person (not the bot) in a channel. */
  memberOf(record: ChatRecord, userId: number): ChatMember {
    const user = structuredClone(this.user(userId).user);
    if (userId === record.owner!.id) return { status: "creator", user, is_anonymous: false };
    const membership = record.members?.get(userId) ?? "left";
    if (membership === "left") return { status: "left", user };
    if (membership === "member") return { status: "member", user };
    if (membership === "kicked") return { status: "kicked", user, until_date: 0 };
    return { status: "administrator", user, can_be_edited: false, ...membership };
  }

  /** Subscribers now: a count set by the test, else the creator, the bot and the members. */
  memberCountOf(record: ChatRecord): number {
    if (record.memberCount !== undefined) return record.memberCount;
    const members = [...record.members!.values()].filter((m) => m !== "left" && m !== "kicked").length;
    return 1 + (record.bot === "left" || record.bot === "kicked" ? 0 : 1) + members;
  }

  /**
   * A person joins (`member`) or leaves (`left`) a channel. Like Telegram, a `chat_member`
   * update goes to the bot (only when it is an administrator, and getUpdates/the webhook hand
   * it out only if `allowed_updates` names it); a join through a link carries that link.
   * A set memberCount moves by one. Joining as a member again, or leaving when gone, emits nothing.
   */
  changeMembership(channelId: number, userId: number, to: "member" | "left", inviteLink?: ChatInviteLink): Update | undefined {
    const record = this.chats.get(channelId);
    if (!record || record.chat.type !== "channel") throw new Error(`telegram double: no channel ${channelId}`);
    const before = this.memberOf(record, userId);
    const wasMember = before.status !== "left" && before.status !== "kicked";
    if (wasMember === (to === "member")) return undefined;
    record.members!.set(userId, to);
    if (record.memberCount !== undefined) record.memberCount = Math.max(record.memberCount + (to === "member" ? 1 : -1), 0);
    const after = this.memberOf(record, userId);
    this.touch();
    if (typeof record.bot !== "object") return undefined;
    return this.pushUpdate({
      chat_member: {
        chat: structuredClone(record.chat),
        from: structuredClone(this.user(userId).user),
        date: this.nowSeconds(),
        old_chat_member: before,
        new_chat_member: after,
        ...(inviteLink ? { invite_link: structuredClone(inviteLink) } : {}),
      },
    } as Omit<Update, "update_id">);
  }

  /**
   * A message's reactions now (emoji → count; `custom:<id>` for a custom emoji, `paid` for
   * Star reactions): a `message_reaction_count` update with the whole list, as Telegram
   * sends for channels whose administrator the bot is (anonymous, grouped).
   */
  setReactions(channelId: number, messageId: number, counts: Record<string, number>): Update | undefined {
    const record = this.chats.get(channelId);
    if (!record || record.chat.type !== "channel") throw new Error(`telegram double: no channel ${channelId}`);
    if (!this.findMessage(record, messageId)) throw new Error(`telegram double: no message ${messageId} in ${channelId}`);
    if (typeof record.bot !== "object") return undefined;
    const reactions = Object.entries(counts).filter(([, n]) => n > 0).map(([key, total_count]) => ({
      type: key === "paid"
        ? { type: "paid" }
        : key.startsWith("custom:")
        ? { type: "custom_emoji", custom_emoji_id: key.slice("custom:".length) }
        : { type: "emoji", emoji: key },
      total_count,
    }));
    return this.pushUpdate({
      message_reaction_count: { chat: structuredClone(record.chat), message_id: messageId, date: this.nowSeconds(), reactions },
    } as unknown as Omit<Update, "update_id">);
  }

  /** Hands out the same update again (Telegram redelivers one whose delivery was not confirmed). */
  repeatUpdate(update: Update) {
    this.updates.push(structuredClone(update));
    this.touch();
  }

  /** A user blocking/unblocking the bot also produces `my_chat_member` (kicked/member). */
  setBlocked(userId: number, blocked: boolean) {
    const record = this.user(userId);
    if (record.blockedBot === blocked) return;
    record.blockedBot = blocked;
    const member = (status: "member" | "kicked"): ChatMember =>
      status === "member" ? { status, user: this.botUser } : { status, user: this.botUser, until_date: 0 };
    this.pushUpdate({
      my_chat_member: {
        chat: structuredClone(this.chats.get(userId)!.chat),
        from: structuredClone(record.user),
        date: this.nowSeconds(),
        old_chat_member: member(blocked ? "member" : "kicked"),
        new_chat_member: member(blocked ? "kicked" : "member"),
      },
    });
  }

  botAsMember(membership: NormalisedMembership): ChatMember {
    const user = this.botUser;
    if (membership === "left") return { status: "left", user };
    if (membership === "member") return { status: "member", user };
    if (membership === "kicked") return { status: "kicked", user, until_date: 0 };
    return { status: "administrator", user, can_be_edited: false, ...membership };
  }

  findChannelByUsername(username: string): ChatRecord | undefined {
    const wanted = stripAt(username).toLowerCase();
    for (const record of this.chats.values()) {
      if (record.chat.type === "channel" && record.chat.username?.toLowerCase() === wanted) return record;
    }
    return undefined;
  }

  /** For test controls: any chat by id or @username, regardless of what the bot may see. */
  chatFor(chat: number | string): ChatRecord {
    const record = typeof chat === "number" ? this.chats.get(chat) : this.findChannelByUsername(chat);
    if (!record) throw new Error(`telegram double: no chat ${chat}`);
    return record;
  }

  /**
   * A chat as the bot can see it (every method taking chat_id): private chats of users
   * it knows, public channels, and private channels it belongs to. Whether it may write
   * there is `assertCanPost`'s business.
   */
  visibleChat(chatId: number | string): ChatRecord {
    const record = typeof chatId === "number"
      ? this.chats.get(chatId)
      : chatId.startsWith("@")
      ? this.findChannelByUsername(chatId)
      : undefined;
    if (!record) throw badRequest(CHAT_NOT_FOUND);
    if (record.chat.type === "private") return record;
    if (record.bot === "kicked") throw forbidden("bot was kicked from the channel chat");
    if (record.bot === "left" && !record.chat.username) throw badRequest(CHAT_NOT_FOUND);
    return record;
  }

  /**
   * Whether the bot can reach the chat's messages by id (Telegram's "have message access"):
   * always in private chats, in channels only as a member or administrator.
   */
  hasMessageAccess(record: ChatRecord): boolean {
    return record.chat.type === "private" || record.bot === "member" || typeof record.bot === "object";
  }

  /**
   * Pinning and unpinning: free in private chats; in channels the bot needs the
   * can_edit_messages right (can_pin_messages exists only in groups).
   */
  assertCanManagePins(record: ChatRecord) {
    if (record.chat.type === "private") return;
    if (typeof record.bot !== "object" || !record.bot.can_edit_messages) {
      throw badRequest("not enough rights to manage pinned messages in the chat");
    }
  }

  /** Throws Telegram's error when the bot may not post into the chat. */
  assertCanPost(record: ChatRecord) {
    if (record.chat.type === "private") {
      const user = this.users.get(record.chat.id)!;
      if (!user.startedBot) throw forbidden("bot can't initiate conversation with a user");
      if (user.blockedBot) throw forbidden("bot was blocked by the user");
      return;
    }
    const rights = this.assertChannelAdmin(record);
    if (!rights.can_post_messages) throw badRequest("need administrator rights in the channel chat");
  }

  /** The bot's admin rights in a channel, or Telegram's error when it has none. */
  assertChannelAdmin(record: ChatRecord): ChannelAdminRights {
    const membership = record.bot!;
    if (membership === "kicked") throw forbidden("bot was kicked from the channel chat");
    if (membership === "left") throw forbidden("bot is not a member of the channel chat");
    if (membership === "member") throw badRequest("need administrator rights in the channel chat");
    return membership;
  }

  // ------------------------------------------------------------------ messages

  /**
   * Appends a message with the chat's next message_id. The bot writes as itself in
   * private chats and as the channel (`sender_chat`, no `from`) in channels. `silent`
   * records `disable_notification`, which the Message object does not carry.
   */
  storeMessage(
    record: ChatRecord,
    author: "bot" | "channel" | User,
    content: Record<string, unknown>,
    options: { silent?: boolean } = {},
  ): Message {
    const asChannel = record.chat.type === "channel" && (author === "bot" || author === "channel");
    const sender = asChannel
      ? { sender_chat: structuredClone(record.chat) }
      : { from: author === "bot" ? this.botUser : structuredClone(author as User) };
    const message = {
      message_id: record.nextMessageId++,
      ...sender,
      chat: structuredClone(record.chat),
      date: this.nowSeconds(),
      ...content,
    } as unknown as Message;
    record.messages.push(message);
    if (author === "bot") this.botMessages.add(messageKey(message));
    if (options.silent) this.silentMessages.add(messageKey(message));
    this.touch();
    return message;
  }

  findMessage(record: ChatRecord, messageId: number | undefined): Message | undefined {
    return record.messages.find((message) => message.message_id === messageId);
  }

  removeMessage(record: ChatRecord, message: Message) {
    record.messages = record.messages.filter((candidate) => candidate !== message);
    record.pinned.delete(message.message_id); // a deleted message is no longer pinned
    this.touch();
  }

  isFromBot(message: Message): boolean {
    return this.botMessages.has(messageKey(message));
  }

  isSilent(message: Message): boolean {
    return this.silentMessages.has(messageKey(message));
  }

  /** A new `media_group_id`, shared by the messages of one album (a decimal int64, like Telegram's). */
  newInviteHash(): string {
    return randomToken(16);
  }

  newMediaGroupId(): string {
    return String(this.nextMediaGroupId++);
  }

  // ------------------------------------------------------------------ pinned messages

  /**
   * Pins a message. Like Telegram, the bot's pin posts a service message (`pinned_message`,
   * without its reply) in private chats and channels. Pinning a pinned message again
   * changes nothing.
   */
  pinMessage(record: ChatRecord, message: Message, silent: boolean) {
    if (record.pinned.has(message.message_id)) return;
    record.pinned.add(message.message_id);
    this.storeMessage(record, "bot", { pinned_message: withoutReply(message) }, { silent });
  }

  unpinMessage(record: ChatRecord, messageId: number) {
    record.pinned.delete(messageId);
    this.touch();
  }

  unpinAllMessages(record: ChatRecord) {
    record.pinned.clear();
    this.touch();
  }

  /** "The most recent pinned message (by sending date)": the pinned message with the highest id. */
  latestPinnedMessage(record: ChatRecord): Message | undefined {
    const ids = [...record.pinned];
    return ids.length > 0 ? this.findMessage(record, Math.max(...ids)) : undefined;
  }

  // ------------------------------------------------------------------ updates

  pushUpdate(update: Omit<Update, "update_id">): Update {
    const full = { update_id: this.nextUpdateId++, ...update } as Update;
    this.updates.push(full);
    this.touch();
    return full;
  }

  /** getUpdates' `offset`: confirms (forgets) earlier updates; negative keeps the last -offset. */
  confirmUpdates(offset: number | undefined) {
    if (offset === undefined || offset === 0) return;
    const before = this.updates.length;
    this.updates = offset > 0
      ? this.updates.filter((update) => update.update_id >= offset)
      : this.updates.slice(offset);
    // a test waiting for an update to be taken (pendingUpdates) wakes now, not at the poll's end
    if (this.updates.length !== before) this.touch();
  }

  /** The next updates to hand out; updates of types not allowed are dropped for good. */
  deliverableUpdates(limit: number): Update[] {
    this.updates = this.updates.filter((update) => this.isAllowed(update));
    return structuredClone(this.updates.slice(0, limit));
  }

  private isAllowed(update: Update): boolean {
    const type = Object.keys(update).find((key) => key !== "update_id")!;
    if (this.allowedUpdates === undefined || this.allowedUpdates.length === 0) {
      return !DEFAULT_EXCLUDED_UPDATES.includes(type);
    }
    return this.allowedUpdates.includes(type);
  }

  // ------------------------------------------------------------------ callback queries

  createCallbackQuery(from: User, message: Message, data: string): CallbackQuery {
    const query: CallbackQuery = {
      id: String(this.nextQueryId++),
      from: structuredClone(from),
      message: structuredClone(message),
      // Stable per chat, opaque to bots, like Telegram's.
      chat_instance: String(BigInt(message.chat.id) * 7_919n + 1_000_003n),
      data,
    };
    this.callbackQueries.set(query.id, { query, createdAt: this.nowMs() });
    this.pushUpdate({ callback_query: structuredClone(query) });
    return query;
  }

  callbackQuery(id: string): CallbackRecord | undefined {
    return this.callbackQueries.get(id);
  }

  // ------------------------------------------------------------------ files

  storeFile(
    input: {
      bytes: Uint8Array;
      contentType: string;
      filename?: string;
      url?: string;
      folder: string;
      extension: string;
      size?: number;
    },
  ): StoredFile {
    const n = this.nextFileNumber++;
    const file: StoredFile = {
      file_id: `AgACAgIAAxkBAAI${n.toString(36).toUpperCase().padStart(6, "A")}${randomToken(40)}`,
      file_unique_id: `AQAD${n.toString(36).toUpperCase().padStart(4, "A")}${randomToken(8)}`,
      file_size: input.size ?? input.bytes.length,
      file_path: `${input.folder}/file_${n}.${input.extension}`,
      bytes: input.bytes,
      contentType: input.contentType,
      ...(input.filename ? { filename: input.filename } : {}),
      ...(input.url ? { url: input.url } : {}),
    };
    this.files.set(file.file_id, file);
    this.touch();
    return file;
  }

  fileByPath(path: string): StoredFile | undefined {
    for (const file of this.files.values()) if (file.file_path === path) return file;
    return undefined;
  }

  // ------------------------------------------------------------------ commands

  static commandsKey(scope: unknown, languageCode: string | undefined): string {
    return `${JSON.stringify(scope ?? { type: "default" })}|${languageCode ?? ""}`;
  }
}

const messageKey = (message: Message) => `${message.chat.id}:${message.message_id}`;

/** A copy of a message as Telegram embeds it in another one: replies are not nested further. */
export function withoutReply(message: Message): Message {
  const { reply_to_message: _, ...rest } = structuredClone(message) as Message & {
    reply_to_message?: unknown;
  };
  return rest as Message;
}

export function inlineKeyboardOf(message: Message): InlineKeyboardMarkup | undefined {
  return (message as { reply_markup?: InlineKeyboardMarkup }).reply_markup;
}

function normaliseMembership(membership: BotMembership): NormalisedMembership {
  if (membership === "administrator") return { ...DEFAULT_ADMIN_RIGHTS };
  if (typeof membership === "string") return membership;
  return { ...DEFAULT_ADMIN_RIGHTS, ...membership };
}

function stripAt(username: string): string {
  return username.startsWith("@") ? username.slice(1) : username;
}

function randomToken(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}
