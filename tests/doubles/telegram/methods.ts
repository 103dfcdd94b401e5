// The Bot API methods the double implements, with Telegram's semantics and error
// descriptions. Checks run in the order the real server runs them: parameters are
// parsed first (empty text, entity markup, keyboard JSON), then the chat and the
// bot's rights, then content limits (length, caption, button data).

import type {
  BotCommand,
  ChatMember,
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  PhotoSize,
  Update,
} from "grammy/types";
import {
  BotApiError,
  badRequest,
  CHAT_NOT_FOUND,
  conflict,
  forbidden,
  NOT_MODIFIED,
  QUERY_TOO_OLD,
} from "./errors.ts";
import { type FormattedText, formatText } from "./formatting.ts";
import { sniffImage } from "./images.ts";
import { type Args, isUploadedFile, type UploadedFile } from "./params.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { type ChatRecord, World } from "./world.ts";

export interface CallContext {
  args: Args;
  world: World;
  /** Aborted when the client goes away (ends a long poll early). */
  signal: AbortSignal;
  limiter?: RateLimiter;
}

export type MethodHandler = (call: CallContext) => unknown | Promise<unknown>;

const MAX_TEXT_LENGTH = 4096;
const MAX_CAPTION_LENGTH = 1024;
const MAX_CALLBACK_DATA_BYTES = 64;
/** Bots have to answer a callback query within a short time (Telegram does not publish the exact value). */
export const CALLBACK_ANSWER_WINDOW_MS = 15_000;
/** "A message can only be deleted if it was sent less than 48 hours ago." */
const DELETE_WINDOW_SECONDS = 48 * 60 * 60;

// ------------------------------------------------------------------------ parameters

function readText(args: Args): FormattedText {
  if (!args.has("text")) throw badRequest("message text is empty");
  const text = formatText(
    args.string("text")!,
    args.string("parse_mode"),
    args.json<MessageEntity[]>("entities", "can't parse entities JSON object"),
  );
  if (text.text === "") throw badRequest("message text is empty");
  return text;
}

function readCaption(args: Args): FormattedText | undefined {
  const caption = args.string("caption");
  if (caption === undefined) return undefined;
  const formatted = formatText(
    caption,
    args.string("parse_mode"),
    args.json<MessageEntity[]>("caption_entities", "can't parse caption entities JSON object"),
  );
  return formatted.text === "" ? undefined : formatted;
}

const BUTTON_ACTIONS = [
  "url",
  "callback_data",
  "web_app",
  "login_url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "callback_game",
  "pay",
];

/**
 * `reply_markup`. Only inline keyboards are kept on the message (Message.reply_markup is
 * always an InlineKeyboardMarkup); an empty inline keyboard means "no keyboard".
 */
function readReplyMarkup(args: Args): InlineKeyboardMarkup | undefined {
  const markup = args.json<Record<string, unknown>>(
    "reply_markup",
    "can't parse reply keyboard markup JSON object",
  );
  if (markup === undefined) return undefined;
  if (typeof markup !== "object" || markup === null || Array.isArray(markup)) {
    throw badRequest("can't parse reply keyboard markup JSON object");
  }
  if (!("inline_keyboard" in markup)) return undefined;
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
    throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
  }
  for (const button of rows.flat() as Record<string, unknown>[]) {
    if (typeof button !== "object" || button === null || typeof button.text !== "string") {
      throw badRequest('can\'t parse inline keyboard button: Field "text" must be of type String');
    }
    if (!BUTTON_ACTIONS.some((action) => action in button)) {
      throw badRequest(
        "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
      );
    }
  }
  const kept = (rows as InlineKeyboardButton[][]).filter((row) => row.length > 0);
  return kept.length > 0 ? { inline_keyboard: kept } : undefined;
}

/** Checked by Telegram after the chat (it is a server-side check, not a parsing one). */
function validateButtons(markup: InlineKeyboardMarkup | undefined) {
  for (const button of markup?.inline_keyboard.flat() ?? []) {
    if ("callback_data" in button) {
      const size = new TextEncoder().encode(button.callback_data).length;
      if (size < 1 || size > MAX_CALLBACK_DATA_BYTES) throw badRequest("BUTTON_DATA_INVALID");
    }
    if ("url" in button && !/^(https?|tg):\/\/\S+$/i.test(button.url)) throw badRequest("BUTTON_URL_INVALID");
  }
}

function readReplyTarget(args: Args, world: World, record: ChatRecord): Message | undefined {
  const parameters = args.json<{ message_id?: number; allow_sending_without_reply?: boolean }>(
    "reply_parameters",
    "can't parse reply parameters JSON object",
  );
  const messageId = parameters?.message_id ?? args.integer("reply_to_message_id");
  if (!messageId) return undefined;
  const target = world.findMessage(record, messageId);
  if (target) {
    // Telegram does not nest replies further than one level.
    const { reply_to_message: _, ...withoutReply } = target as Message & { reply_to_message?: unknown };
    return structuredClone(withoutReply) as Message;
  }
  if (parameters?.allow_sending_without_reply ?? args.boolean("allow_sending_without_reply")) {
    return undefined;
  }
  throw badRequest("message to be replied not found");
}

const entitiesField = (key: "entities" | "caption_entities", entities: MessageEntity[]) =>
  entities.length > 0 ? { [key]: entities } : {};

/** Deep equality of JSON values, ignoring key order (clients serialise objects differently). */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : typeof value === "object" && value !== null
      ? Object.fromEntries(
        Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
      )
      : value;
  return JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));
}

function chargeRateLimit({ limiter, world }: CallContext, record: ChatRecord) {
  limiter?.take(record.chat.id, record.chat.type === "channel", world.nowMs());
}

// ------------------------------------------------------------------------ sending

function sendMessage(call: CallContext): Message {
  const { args, world } = call;
  const chatId = args.chatId();
  const text = readText(args);
  const markup = readReplyMarkup(args);
  const record = world.visibleChat(chatId);
  world.assertCanPost(record);
  if (text.text.length > MAX_TEXT_LENGTH) throw badRequest("message is too long");
  validateButtons(markup);
  const replyTo = readReplyTarget(args, world, record);
  chargeRateLimit(call, record);
  return world.storeMessage(record, "bot", {
    ...(replyTo ? { reply_to_message: replyTo } : {}),
    text: text.text,
    ...entitiesField("entities", text.entities),
    ...(args.boolean("protect_content") ? { has_protected_content: true } : {}),
    ...(markup ? { reply_markup: markup } : {}),
  });
}

async function sendPhoto(call: CallContext): Promise<Message> {
  const { args, world } = call;
  const chatId = args.chatId();
  const input = args.file("photo");
  if (input === undefined) throw badRequest("there is no photo in the request");
  const caption = readCaption(args);
  const markup = readReplyMarkup(args);
  const record = world.visibleChat(chatId);
  world.assertCanPost(record);
  const photo = await resolvePhoto(world, input);
  if (caption && caption.text.length > MAX_CAPTION_LENGTH) throw badRequest("message caption is too long");
  validateButtons(markup);
  const replyTo = readReplyTarget(args, world, record);
  chargeRateLimit(call, record);
  return world.storeMessage(record, "bot", {
    ...(replyTo ? { reply_to_message: replyTo } : {}),
    photo,
    ...(caption ? { caption: caption.text, ...entitiesField("caption_entities", caption.entities) } : {}),
    ...(caption && args.boolean("show_caption_above_media") ? { show_caption_above_media: true } : {}),
    ...(args.boolean("has_spoiler") ? { has_media_spoiler: true } : {}),
    ...(args.boolean("protect_content") ? { has_protected_content: true } : {}),
    ...(markup ? { reply_markup: markup } : {}),
  });
}

/** An upload, an HTTP URL Telegram downloads, or the file_id of a photo sent before. */
async function resolvePhoto(world: World, input: UploadedFile | string): Promise<PhotoSize[]> {
  if (isUploadedFile(input)) {
    return storePhoto(world, {
      bytes: input.bytes,
      contentType: input.contentType,
      filename: input.filename,
    });
  }
  if (/^https?:\/\//i.test(input)) {
    const download = await downloadUrl(world, input);
    return storePhoto(world, { ...download, url: input });
  }
  const known = world.photos.get(input);
  if (known) return structuredClone(known);
  throw badRequest("wrong file identifier/HTTP URL specified");
}

async function downloadUrl(world: World, url: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const registered = world.remoteFiles.get(url);
  if (registered) return registered;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get("content-type") ?? "application/octet-stream",
    };
  } catch {
    throw badRequest("failed to get HTTP URL content");
  }
}

/**
 * Telegram re-encodes photos and returns several sizes: thumbnails whose longer side
 * is 90, 320, 800 and 1280 px (those smaller than the original) and the photo itself,
 * at most 2560 px. The double keeps the uploaded bytes once; every size refers to them.
 */
const PHOTO_BOXES = [90, 320, 800, 1280];
const MAX_PHOTO_SIDE = 2560;

function storePhoto(
  world: World,
  input: { bytes: Uint8Array; contentType: string; filename?: string; url?: string },
): PhotoSize[] {
  const image = sniffImage(input.bytes);
  if (!image) throw badRequest(input.url ? "wrong type of the web page content" : "IMAGE_PROCESS_FAILED");
  const { width, height } = image;
  if (width + height > 10_000 || Math.max(width, height) / Math.min(width, height) > 20) {
    throw badRequest("PHOTO_INVALID_DIMENSIONS");
  }
  const longest = Math.max(width, height);
  const boxes = [...PHOTO_BOXES.filter((box) => box < longest), Math.min(longest, MAX_PHOTO_SIDE)];
  const sizes = boxes.map((box, index): PhotoSize => {
    const scale = box / longest;
    const isLargest = index === boxes.length - 1;
    const file = world.storeFile({
      ...input,
      folder: "photos",
      extension: "jpg",
      size: isLargest ? input.bytes.length : Math.max(1, Math.round(input.bytes.length * scale * scale)),
    });
    return {
      file_id: file.file_id,
      file_unique_id: file.file_unique_id,
      file_size: file.file_size,
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
    };
  });
  for (const size of sizes) world.photos.set(size.file_id, sizes);
  return structuredClone(sizes);
}

const CHAT_ACTIONS = [
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
];

function sendChatAction({ args, world }: CallContext): true {
  const chatId = args.chatId();
  const action = args.string("action") ?? "";
  if (!CHAT_ACTIONS.includes(action)) throw badRequest("wrong parameter action in request");
  world.assertCanPost(world.visibleChat(chatId));
  return true;
}

// ------------------------------------------------------------------------ editing

/** The chat and message an edit refers to, after Telegram's membership and ownership checks. */
function editTarget({ args, world }: CallContext): { record: ChatRecord; message: Message } {
  if (args.has("inline_message_id") && !args.has("chat_id")) throw badRequest("MESSAGE_ID_INVALID");
  const chatId = args.chatId();
  const messageId = args.integer("message_id");
  if (!messageId) throw badRequest("message identifier is not specified");
  const record = world.visibleChat(chatId);
  const rights = record.chat.type === "channel" ? world.assertChannelAdmin(record) : undefined;
  if (record.chat.type === "private" && world.users.get(record.chat.id)!.blockedBot) {
    throw forbidden("bot was blocked by the user");
  }
  const message = world.findMessage(record, messageId);
  if (!message) throw badRequest("message to edit not found");
  const own = world.isFromBot(message);
  const allowed = rights ? rights.can_edit_messages || (own && rights.can_post_messages) : own;
  if (!allowed) throw badRequest("message can't be edited");
  return { record, message };
}

/** Applies an edit, or fails with "message is not modified" when nothing changes. */
function applyEdit(world: World, message: Message, changes: Record<string, unknown>): Message {
  const current = message as unknown as Record<string, unknown>;
  if (Object.entries(changes).every(([key, value]) => sameJson(current[key], value))) {
    throw badRequest(NOT_MODIFIED);
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete current[key];
    else current[key] = value;
  }
  current.edit_date = world.nowSeconds();
  world.touch();
  return structuredClone(message);
}

const entitiesOrUndefined = (entities: MessageEntity[]) => (entities.length > 0 ? entities : undefined);

// Leaving out reply_markup in an edit removes the message's inline keyboard, as on Telegram.

function editMessageText(call: CallContext): Message {
  const text = readText(call.args);
  const markup = readReplyMarkup(call.args);
  const { message } = editTarget(call);
  if (!("text" in message)) throw badRequest("there is no text in the message to edit");
  if (text.text.length > MAX_TEXT_LENGTH) throw badRequest("message is too long");
  validateButtons(markup);
  return applyEdit(call.world, message, {
    text: text.text,
    entities: entitiesOrUndefined(text.entities),
    reply_markup: markup,
  });
}

function editMessageCaption(call: CallContext): Message {
  const caption = readCaption(call.args);
  const markup = readReplyMarkup(call.args);
  const { message } = editTarget(call);
  if ("text" in message) throw badRequest("there is no caption in the message to edit");
  if (caption && caption.text.length > MAX_CAPTION_LENGTH) throw badRequest("message caption is too long");
  validateButtons(markup);
  return applyEdit(call.world, message, {
    caption: caption?.text,
    caption_entities: caption ? entitiesOrUndefined(caption.entities) : undefined,
    reply_markup: markup,
  });
}

function editMessageReplyMarkup(call: CallContext): Message {
  const markup = readReplyMarkup(call.args);
  const { message } = editTarget(call);
  validateButtons(markup);
  return applyEdit(call.world, message, { reply_markup: markup });
}

// ------------------------------------------------------------------------ deleting

function deletableMessage(world: World, record: ChatRecord, messageId: number | undefined): Message {
  const rights = record.chat.type === "channel" ? world.assertChannelAdmin(record) : undefined;
  const message = world.findMessage(record, messageId);
  if (!message) throw badRequest("message to delete not found");
  const own = world.isFromBot(message);
  const allowed = rights ? rights.can_delete_messages || (own && rights.can_post_messages) : true;
  if (!allowed || world.nowSeconds() - message.date >= DELETE_WINDOW_SECONDS) {
    throw badRequest("message can't be deleted");
  }
  return message;
}

function deleteMessage({ args, world }: CallContext): true {
  const chatId = args.chatId();
  const messageId = args.integer("message_id");
  if (!messageId) throw badRequest("message identifier is not specified");
  const record = world.visibleChat(chatId);
  world.removeMessage(record, deletableMessage(world, record, messageId));
  return true;
}

/** deleteMessages skips messages that cannot be found or deleted. */
function deleteMessages({ args, world }: CallContext): true {
  const chatId = args.chatId();
  const ids = args.json<number[]>("message_ids", "can't parse message identifiers JSON object");
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100) {
    throw badRequest("message identifiers are not specified");
  }
  const record = world.visibleChat(chatId);
  if (record.chat.type === "channel") world.assertChannelAdmin(record);
  for (const id of ids) {
    try {
      world.removeMessage(record, deletableMessage(world, record, id));
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
    }
  }
  return true;
}

// ------------------------------------------------------------------------ chats

const NO_GIFTS = {
  unlimited_gifts: false,
  limited_gifts: false,
  unique_gifts: false,
  premium_subscription: false,
  gifts_from_channels: false,
};

function getChat({ args, world }: CallContext) {
  const record = world.visibleChat(args.chatId());
  // A user's chat exists for the bot only once they opened it.
  if (record.chat.type === "private" && !world.users.get(record.chat.id)!.startedBot) {
    throw badRequest(CHAT_NOT_FOUND);
  }
  const common = { accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: NO_GIFTS };
  const chat = structuredClone(record.chat);
  if (chat.type === "private") {
    return { ...chat, ...(chat.username ? { active_usernames: [chat.username] } : {}), ...common };
  }
  return {
    ...chat,
    ...(chat.username ? { active_usernames: [chat.username] } : {}),
    ...(record.description ? { description: record.description } : {}),
    ...common,
  };
}

/** Telegram shows a channel's members only to its administrators. */
function assertCanListMembers(record: ChatRecord) {
  if (typeof record.bot !== "object") throw badRequest("member list is inaccessible");
}

function getChatMember({ args, world }: CallContext): ChatMember {
  const record = world.visibleChat(args.chatId());
  const userId = args.integer("user_id");
  if (!userId) throw badRequest("invalid user_id specified");
  if (userId === world.me.id) {
    return record.chat.type === "private"
      ? { status: "member", user: world.botUser }
      : world.botAsMember(record.bot!);
  }
  const user = world.users.get(userId)?.user;
  if (!user) throw badRequest("user not found");
  if (record.chat.type === "private") {
    if (userId !== record.chat.id) throw badRequest("user not found");
    return { status: "member", user: structuredClone(user) };
  }
  assertCanListMembers(record);
  return world.memberOf(record, userId);
}

function getChatAdministrators({ args, world }: CallContext): ChatMember[] {
  const record = world.visibleChat(args.chatId());
  if (record.chat.type === "private") throw badRequest("there are no administrators in the private chat");
  assertCanListMembers(record);
  const admins = [...record.members!.keys()].map((id) => world.memberOf(record, id)).filter((m) => m.status === "administrator");
  return [
    { status: "creator", user: structuredClone(record.owner!), is_anonymous: false },
    world.botAsMember(record.bot!),
    ...admins,
  ];
}

function getChatMemberCount({ args, world }: CallContext): number {
  const record = world.visibleChat(args.chatId());
  if (record.chat.type === "private") return 2;
  return record.memberCount ?? 1 + (record.bot === "left" || record.bot === "kicked" ? 0 : 1);
}

// ------------------------------------------------------------------------ updates

/**
 * Long polling. Returns at once when updates are pending, otherwise waits (without
 * spinning) until one arrives, `timeout` seconds pass, the client disconnects or the
 * server closes. Like Telegram, a newer getUpdates ends a waiting one with 409.
 */
async function getUpdates({ args, world, signal }: CallContext): Promise<Update[]> {
  const limit = Math.min(Math.max(args.integer("limit") ?? 100, 1), 100);
  const timeoutSeconds = Math.max(args.integer("timeout") ?? 0, 0);
  const allowed = args.json<string[]>("allowed_updates", "can't parse allowed_updates JSON object");
  if (allowed !== undefined) world.allowedUpdates = allowed;
  world.confirmUpdates(args.integer("offset"));
  world.terminatePendingPoll?.();

  const ready = world.deliverableUpdates(limit);
  if (ready.length > 0 || timeoutSeconds === 0 || world.closed || signal.aborted) return ready;

  return await new Promise<Update[]>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener("abort", onAbort);
      if (world.terminatePendingPoll === terminate) world.terminatePendingPoll = undefined;
      settle();
    };
    const onAbort = () => finish(() => resolve([]));
    const terminate = () =>
      finish(() =>
        reject(
          conflict("terminated by other getUpdates request; make sure that only one bot instance is running"),
        )
      );
    const timer = setTimeout(
      () => finish(() => resolve(world.deliverableUpdates(limit))),
      timeoutSeconds * 1000,
    );
    const unsubscribe = world.subscribe(() => {
      if (world.closed) return finish(() => resolve([]));
      const updates = world.deliverableUpdates(limit);
      if (updates.length > 0) finish(() => resolve(updates));
    });
    signal.addEventListener("abort", onAbort);
    world.terminatePendingPoll = terminate;
  });
}

function deleteWebhook({ args, world }: CallContext): true {
  if (args.boolean("drop_pending_updates")) {
    world.updates = [];
    world.touch();
  }
  return true;
}

function getWebhookInfo({ world }: CallContext) {
  // The double only does long polling: there is never a webhook.
  return { url: "", has_custom_certificate: false, pending_update_count: world.updates.length };
}

// ------------------------------------------------------------------------ callbacks

function answerCallbackQuery({ args, world }: CallContext): true {
  const id = args.string("callback_query_id");
  const record = id ? world.callbackQuery(id) : undefined;
  if (!record || record.answer || world.nowMs() - record.createdAt > CALLBACK_ANSWER_WINDOW_MS) {
    throw badRequest(QUERY_TOO_OLD);
  }
  record.answer = {
    ...(args.has("text") ? { text: args.string("text") } : {}),
    ...(args.has("show_alert") ? { show_alert: args.boolean("show_alert") } : {}),
    ...(args.has("url") ? { url: args.string("url") } : {}),
    ...(args.has("cache_time") ? { cache_time: args.integer("cache_time") } : {}),
  };
  world.touch();
  return true;
}

// ------------------------------------------------------------------------ commands

function commandsKey(args: Args): string {
  return World.commandsKey(
    args.json("scope", "can't parse BotCommandScope JSON object"),
    args.string("language_code") || undefined,
  );
}

function setMyCommands({ args, world }: CallContext): true {
  const commands = args.json<BotCommand[]>("commands", "can't parse commands JSON object");
  if (!Array.isArray(commands)) throw badRequest("can't parse commands JSON object");
  if (commands.length > 100) throw badRequest("too many commands specified");
  for (const { command, description } of commands) {
    if (typeof command !== "string" || !/^[a-z0-9_]{1,32}$/.test(command)) {
      throw badRequest("BOT_COMMAND_INVALID");
    }
    if (typeof description !== "string" || description.trim() === "" || description.length > 256) {
      throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
    }
  }
  const key = commandsKey(args);
  if (commands.length === 0) world.commands.delete(key);
  else world.commands.set(key, commands.map(({ command, description }) => ({ command, description })));
  world.touch();
  return true;
}

function getMyCommands({ args, world }: CallContext): BotCommand[] {
  return structuredClone(world.commands.get(commandsKey(args)) ?? []);
}

function deleteMyCommands({ args, world }: CallContext): true {
  world.commands.delete(commandsKey(args));
  world.touch();
  return true;
}

// ------------------------------------------------------------------------ files

function getFile({ args, world }: CallContext) {
  const file = world.files.get(args.string("file_id") ?? "");
  if (!file) throw badRequest("invalid file_id");
  return {
    file_id: file.file_id,
    file_unique_id: file.file_unique_id,
    file_size: file.file_size,
    file_path: file.file_path,
  };
}

// ------------------------------------------------------------------------ registry

/** Implemented methods by lower-case name (Bot API method names are case-insensitive). */
export const METHODS: Record<string, MethodHandler> = {
  getme: ({ world }) => structuredClone(world.me),
  getupdates: getUpdates,
  deletewebhook: deleteWebhook,
  getwebhookinfo: getWebhookInfo,
  getchat: getChat,
  getchatmember: getChatMember,
  getchatadministrators: getChatAdministrators,
  getchatmembercount: getChatMemberCount,
  sendmessage: sendMessage,
  sendphoto: sendPhoto,
  sendchataction: sendChatAction,
  editmessagetext: editMessageText,
  editmessagecaption: editMessageCaption,
  editmessagereplymarkup: editMessageReplyMarkup,
  deletemessage: deleteMessage,
  deletemessages: deleteMessages,
  answercallbackquery: answerCallbackQuery,
  setmycommands: setMyCommands,
  getmycommands: getMyCommands,
  deletemycommands: deleteMyCommands,
  getfile: getFile,
};

/**
 * Real Bot API methods the double does not implement. They answer 501 with a clear
 * description instead of Telegram's 404, so a test hitting one knows the double is
 * missing a feature rather than the product calling a non-existent method.
 */
export const UNIMPLEMENTED_METHODS = new Set(
  [
    "setWebhook",
    "logOut",
    "close",
    "forwardMessage",
    "forwardMessages",
    "copyMessage",
    "copyMessages",
    "sendAudio",
    "sendDocument",
    "sendVideo",
    "sendAnimation",
    "sendVoice",
    "sendVideoNote",
    "sendPaidMedia",
    "sendMediaGroup",
    "sendLocation",
    "sendVenue",
    "sendContact",
    "sendPoll",
    "sendChecklist",
    "sendDice",
    "sendMessageDraft",
    "setMessageReaction",
    "getUserProfilePhotos",
    "setUserEmojiStatus",
    "banChatMember",
    "unbanChatMember",
    "restrictChatMember",
    "promoteChatMember",
    "setChatAdministratorCustomTitle",
    "banChatSenderChat",
    "unbanChatSenderChat",
    "setChatPermissions",
    "exportChatInviteLink",
    "createChatInviteLink",
    "editChatInviteLink",
    "createChatSubscriptionInviteLink",
    "editChatSubscriptionInviteLink",
    "revokeChatInviteLink",
    "approveChatJoinRequest",
    "declineChatJoinRequest",
    "setChatPhoto",
    "deleteChatPhoto",
    "setChatTitle",
    "setChatDescription",
    "pinChatMessage",
    "unpinChatMessage",
    "unpinAllChatMessages",
    "leaveChat",
    "setChatStickerSet",
    "deleteChatStickerSet",
    "getForumTopicIconStickers",
    "createForumTopic",
    "editForumTopic",
    "closeForumTopic",
    "reopenForumTopic",
    "deleteForumTopic",
    "unpinAllForumTopicMessages",
    "editGeneralForumTopic",
    "closeGeneralForumTopic",
    "reopenGeneralForumTopic",
    "hideGeneralForumTopic",
    "unhideGeneralForumTopic",
    "unpinAllGeneralForumTopicMessages",
    "getUserChatBoosts",
    "getBusinessConnection",
    "setMyName",
    "getMyName",
    "setMyDescription",
    "getMyDescription",
    "setMyShortDescription",
    "getMyShortDescription",
    "setChatMenuButton",
    "getChatMenuButton",
    "setMyDefaultAdministratorRights",
    "getMyDefaultAdministratorRights",
    "editMessageMedia",
    "editMessageLiveLocation",
    "stopMessageLiveLocation",
    "editMessageChecklist",
    "stopPoll",
    "sendSticker",
    "getStickerSet",
    "getCustomEmojiStickers",
    "uploadStickerFile",
    "createNewStickerSet",
    "addStickerToSet",
    "setStickerPositionInSet",
    "deleteStickerFromSet",
    "replaceStickerInSet",
    "setStickerEmojiList",
    "setStickerKeywords",
    "setStickerMaskPosition",
    "setStickerSetTitle",
    "setStickerSetThumbnail",
    "setCustomEmojiStickerSetThumbnail",
    "deleteStickerSet",
    "answerInlineQuery",
    "answerWebAppQuery",
    "savePreparedInlineMessage",
    "sendInvoice",
    "createInvoiceLink",
    "answerShippingQuery",
    "answerPreCheckoutQuery",
    "getStarTransactions",
    "refundStarPayment",
    "editUserStarSubscription",
    "setPassportDataErrors",
    "sendGame",
    "setGameScore",
    "getGameHighScores",
    "getAvailableGifts",
    "sendGift",
    "giftPremiumSubscription",
    "verifyUser",
    "verifyChat",
    "removeUserVerification",
    "removeChatVerification",
  ].map((name) => name.toLowerCase()),
);
