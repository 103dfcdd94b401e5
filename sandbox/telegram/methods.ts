// The Bot API methods the double implements, with Telegram's semantics and error
// descriptions. Checks run in the order the real server runs them: parameters are
// parsed first (empty text, entity markup, keyboard JSON), then the chat and the
// bot's rights, then content limits (length, caption, button data).

import type {
  BotCommand,
  ChatInviteLink,
  ChatMember,
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  LinkPreviewOptions,
  Message,
  MessageEntity,
  PhotoSize,
  Update,
} from "grammy/types";
import {
  badRequest,
  BotApiError,
  CHAT_NOT_FOUND,
  conflict,
  forbidden,
  NOT_MODIFIED,
  QUERY_TOO_OLD,
  tooManyRequests,
} from "./errors.ts";
import { type FormattedText, formatText } from "./formatting.ts";
import { sniffImage } from "./images.ts";
import { type Args, isUploadedFile, type UploadedFile } from "./params.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { type ChatRecord, withoutReply, World } from "./world.ts";

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
/** "An array describing messages to be sent, must include 2-10 items" (TDLib refuses 0 and > 10). */
const MAX_ALBUM_SIZE = 10;
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
  // Telegram does not nest replies further than one level.
  if (target) return withoutReply(target);
  if (parameters?.allow_sending_without_reply ?? args.boolean("allow_sending_without_reply")) {
    return undefined;
  }
  throw badRequest("message to be replied not found");
}

const LINK_PREVIEW_FLAGS = [
  "is_disabled",
  "prefer_small_media",
  "prefer_large_media",
  "show_above_text",
] as const;

/**
 * `link_preview_options` (or the legacy `disable_web_page_preview`), with the Bot API's
 * parsing errors.
 */
function readLinkPreviewOptions(args: Args): LinkPreviewOptions | undefined {
  const options = args.json<Record<string, unknown>>(
    "link_preview_options",
    "can't parse link preview options JSON object",
  );
  if (options === undefined) {
    return args.boolean("disable_web_page_preview") ? { is_disabled: true } : undefined;
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw badRequest("object expected as link preview options");
  }
  for (const flag of LINK_PREVIEW_FLAGS) {
    if (flag in options && typeof options[flag] !== "boolean") {
      throw badRequest(`field "${flag}" must be of type Boolean`);
    }
  }
  if ("url" in options && typeof options.url !== "string") {
    throw badRequest('field "url" must be of type String');
  }
  return options as LinkPreviewOptions;
}

/**
 * The first link a preview could be made for (TDLib's get_first_url): a `url` or
 * `text_link` entity, except tg:, ftp: and ton: links.
 */
function firstUrl({ text, entities }: FormattedText): string | undefined {
  for (const entity of entities) {
    const url = entity.type === "url"
      ? text.slice(entity.offset, entity.offset + entity.length)
      : entity.type === "text_link"
      ? entity.url
      : undefined;
    if (url !== undefined && !/^(tg:|ftp:|ton:|tonsite:)/i.test(url)) return url;
  }
  return undefined;
}

/**
 * Message.link_preview_options as Telegram stores them: `is_disabled` only when the text
 * has a link to preview (then `url` and the size preferences are dropped), the size
 * preferences only with an explicit `url`, and nothing at all when everything is default.
 */
function storedLinkPreview(
  text: FormattedText,
  options: LinkPreviewOptions | undefined,
): LinkPreviewOptions | undefined {
  if (!options) return undefined;
  const url = options.is_disabled ? "" : options.url ?? "";
  const stored: LinkPreviewOptions = {
    ...(options.is_disabled && firstUrl(text) !== undefined ? { is_disabled: true } : {}),
    ...(url ? { url } : {}),
    ...(url && options.prefer_small_media ? { prefer_small_media: true } : {}),
    ...(url && options.prefer_large_media ? { prefer_large_media: true } : {}),
    ...(options.show_above_text ? { show_above_text: true } : {}),
  };
  return Object.keys(stored).length > 0 ? stored : undefined;
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

function chargeRateLimit({ limiter, world }: CallContext, record: ChatRecord, messages = 1) {
  limiter?.take(record.chat.id, record.chat.type === "channel", world.nowMs(), messages);
}

// ------------------------------------------------------------------------ sending

function sendMessage(call: CallContext): Message {
  const { args, world } = call;
  const chatId = args.chatId();
  const linkPreview = readLinkPreviewOptions(args);
  const text = readText(args);
  const markup = readReplyMarkup(args);
  const record = world.visibleChat(chatId);
  world.assertCanPost(record);
  if (text.text.length > MAX_TEXT_LENGTH) throw badRequest("message is too long");
  validateButtons(markup);
  const replyTo = readReplyTarget(args, world, record);
  chargeRateLimit(call, record);
  const preview = storedLinkPreview(text, linkPreview);
  return world.storeMessage(record, "bot", {
    ...(replyTo ? { reply_to_message: replyTo } : {}),
    text: text.text,
    ...entitiesField("entities", text.entities),
    ...(preview ? { link_preview_options: preview } : {}),
    ...(args.boolean("protect_content") ? { has_protected_content: true } : {}),
    ...(markup ? { reply_markup: markup } : {}),
  }, { silent: args.boolean("disable_notification") });
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
    ...photoContent(photo, caption, {
      showCaptionAboveMedia: args.boolean("show_caption_above_media"),
      hasSpoiler: args.boolean("has_spoiler"),
    }),
    ...(args.boolean("protect_content") ? { has_protected_content: true } : {}),
    ...(markup ? { reply_markup: markup } : {}),
  }, { silent: args.boolean("disable_notification") });
}

/** The fields of a photo message (sendPhoto, or one photo of an album). */
function photoContent(
  photo: PhotoSize[],
  caption: FormattedText | undefined,
  options: { showCaptionAboveMedia: boolean; hasSpoiler: boolean },
) {
  return {
    photo,
    ...(caption ? { caption: caption.text, ...entitiesField("caption_entities", caption.entities) } : {}),
    ...(caption && options.showCaptionAboveMedia ? { show_caption_above_media: true } : {}),
    ...(options.hasSpoiler ? { has_media_spoiler: true } : {}),
  };
}

// ------------------------------------------------------------------------ albums

/** One InputMediaPhoto of sendMediaGroup, parsed. */
interface AlbumItem {
  input: UploadedFile | string;
  caption: FormattedText | undefined;
  showCaptionAboveMedia: boolean;
  hasSpoiler: boolean;
}

/** A problem with one InputMedia; the Bot API prefixes it with "can't parse InputMedia: ". */
class InputMediaError extends Error {}

/** InputMedia types the Bot API accepts in albums but the double does not implement. */
const UNIMPLEMENTED_ALBUM_TYPES: Record<string, string> = {
  video: "InputMediaVideo",
  audio: "InputMediaAudio",
  document: "InputMediaDocument",
  live_photo: "InputMediaLivePhoto",
};

function optionalField(item: Record<string, unknown>, key: string, type: "String" | "Boolean") {
  const value = item[key];
  if (value === undefined) return undefined;
  if (typeof value !== (type === "String" ? "string" : "boolean")) {
    throw new InputMediaError(`Field "${key}" must be of type ${type}`);
  }
  return value as string | boolean;
}

/** Parses one InputMedia in the Bot API's order: caption, flags, type, then the file. */
function readAlbumItem(args: Args, value: unknown): AlbumItem {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InputMediaError("expected an Object");
  }
  const item = value as Record<string, unknown>;
  const captionText = optionalField(item, "caption", "String") as string | undefined;
  const parseMode = optionalField(item, "parse_mode", "String") as string | undefined;
  let caption: FormattedText | undefined;
  try {
    caption = captionText
      ? formatText(
        captionText,
        parseMode,
        Array.isArray(item.caption_entities) ? item.caption_entities as MessageEntity[] : undefined,
      )
      : undefined;
  } catch (error) {
    if (!(error instanceof BotApiError)) throw error;
    const reason = error.description.replace(/^Bad Request: /, "");
    throw new InputMediaError(reason.charAt(0).toUpperCase() + reason.slice(1));
  }
  const showCaptionAboveMedia = optionalField(item, "show_caption_above_media", "Boolean") === true;
  const hasSpoiler = optionalField(item, "has_spoiler", "Boolean") === true;
  if (item.type === undefined) throw new InputMediaError('Can\'t find field "type"');
  const type = optionalField(item, "type", "String") as string;
  const media = (optionalField(item, "media", "String") as string | undefined) ?? "";
  const input = media.startsWith("attach://") ? args.raw[media.slice("attach://".length)] : media;
  if (!isUploadedFile(input) && (typeof input !== "string" || input === "")) {
    throw new InputMediaError("media not found");
  }
  if (type in UNIMPLEMENTED_ALBUM_TYPES) {
    throw new BotApiError(
      501,
      `Not Implemented: the Telegram test double has no ${UNIMPLEMENTED_ALBUM_TYPES[type]} in sendMediaGroup`,
    );
  }
  if (type === "animation") throw new InputMediaError(`type "${type}" can't be used in sendMediaGroup`);
  if (type !== "photo") throw new InputMediaError(`type "${type}" is unsupported`);
  return {
    input,
    caption: caption && caption.text !== "" ? caption : undefined,
    showCaptionAboveMedia,
    hasSpoiler,
  };
}

function readAlbum(args: Args): AlbumItem[] {
  if (!args.has("media")) throw badRequest('parameter "media" is required');
  const media = args.json<unknown>("media", "can't parse media JSON object");
  if (!Array.isArray(media)) throw badRequest("expected an Array of InputMedia");
  return media.map((item) => {
    try {
      return readAlbumItem(args, item);
    } catch (error) {
      if (error instanceof InputMediaError) throw badRequest(`can't parse InputMedia: ${error.message}`);
      throw error;
    }
  });
}

/**
 * sendMediaGroup with photos. Checks run in Telegram's order: the JSON of `media`, the
 * chat and reply, an empty album, the right to post, each item's file_id and caption, the
 * album's size; then files are fetched (a failure there names the item, as the Bot API
 * does) and all messages are stored at once: an album is never half-sent. Like TDLib, a
 * single item is sent as an ordinary photo without `media_group_id`.
 */
async function sendMediaGroup(call: CallContext): Promise<Message[]> {
  const { args, world } = call;
  const chatId = args.chatId();
  const items = readAlbum(args);
  const record = world.visibleChat(chatId);
  const replyTo = readReplyTarget(args, world, record);
  if (items.length === 0) throw badRequest("there are no messages to send");
  world.assertCanPost(record);
  for (const { input, caption } of items) {
    if (typeof input === "string" && !/^https?:\/\//i.test(input) && !world.photos.has(input)) {
      throw badRequest("wrong file identifier/HTTP URL specified");
    }
    if (caption && caption.text.length > MAX_CAPTION_LENGTH) throw badRequest("message caption is too long");
  }
  if (items.length > MAX_ALBUM_SIZE) throw badRequest("too many messages to send as an album");
  if (items.some((item) => item.showCaptionAboveMedia !== items[0].showCaptionAboveMedia)) {
    throw badRequest("parameter show_caption_above_media must be the same for all messages");
  }
  const photos: PhotoSize[][] = [];
  for (const [index, item] of items.entries()) {
    try {
      photos.push(await resolvePhoto(world, item.input));
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
      const reason = error.description.replace(/^Bad Request: /, "");
      throw badRequest(`failed to send message #${index + 1} with the error message "${reason}"`);
    }
  }
  chargeRateLimit(call, record, items.length);
  const mediaGroupId = items.length > 1 ? world.newMediaGroupId() : undefined;
  const silent = args.boolean("disable_notification");
  const protect = args.boolean("protect_content");
  return items.map((item, index) =>
    world.storeMessage(record, "bot", {
      ...(mediaGroupId ? { media_group_id: mediaGroupId } : {}),
      ...(replyTo ? { reply_to_message: structuredClone(replyTo) } : {}),
      ...photoContent(photos[index], item.caption, item),
      ...(protect ? { has_protected_content: true } : {}),
    }, { silent })
  );
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

// Leaving out reply_markup in an edit removes the message's inline keyboard, as on Telegram;
// likewise link_preview_options (editMessageText) and show_caption_above_media
// (editMessageCaption) go back to their defaults when left out.

function editMessageText(call: CallContext): Message {
  const linkPreview = readLinkPreviewOptions(call.args);
  const text = readText(call.args);
  const markup = readReplyMarkup(call.args);
  const { message } = editTarget(call);
  if (!("text" in message)) throw badRequest("there is no text in the message to edit");
  if (text.text.length > MAX_TEXT_LENGTH) throw badRequest("message is too long");
  validateButtons(markup);
  return applyEdit(call.world, message, {
    text: text.text,
    entities: entitiesOrUndefined(text.entities),
    link_preview_options: storedLinkPreview(text, linkPreview),
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
    show_caption_above_media: caption && call.args.boolean("show_caption_above_media") ? true : undefined,
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

// ------------------------------------------------------------------------ pinned messages

// Telegram's order: the chat, then the message (a channel the bot is not in has none it
// can reach), then the right to pin.

function pinChatMessage({ args, world }: CallContext): true {
  const record = world.visibleChat(args.chatId());
  const messageId = args.integer("message_id");
  const message = messageId && world.hasMessageAccess(record)
    ? world.findMessage(record, messageId)
    : undefined;
  if (!message) throw badRequest("message to pin not found");
  world.assertCanManagePins(record);
  world.pinMessage(record, message, args.boolean("disable_notification"));
  return true;
}

/** Without message_id: the most recent pinned message. Unpinning a message that is not pinned is fine. */
function unpinChatMessage({ args, world }: CallContext): true {
  const record = world.visibleChat(args.chatId());
  const messageId = args.integer("message_id");
  const message = !world.hasMessageAccess(record)
    ? undefined
    : messageId
    ? world.findMessage(record, messageId)
    : world.latestPinnedMessage(record);
  if (!message) throw badRequest("message to unpin not found");
  world.assertCanManagePins(record);
  world.unpinMessage(record, message.message_id);
  return true;
}

function unpinAllChatMessages({ args, world }: CallContext): true {
  const record = world.visibleChat(args.chatId());
  world.assertCanManagePins(record);
  world.unpinAllMessages(record);
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
  const pinned = world.latestPinnedMessage(record);
  const common = {
    accent_color_id: 0,
    max_reaction_count: 11,
    accepted_gift_types: NO_GIFTS,
    ...(pinned ? { pinned_message: withoutReply(pinned) } : {}),
  };
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
  const admins = [...record.members!.keys()].map((id) => world.memberOf(record, id)).filter((m) =>
    m.status === "administrator"
  );
  return [
    { status: "creator", user: structuredClone(record.owner!), is_anonymous: false },
    world.botAsMember(record.bot!),
    ...admins,
  ];
}

function getChatMemberCount({ args, world }: CallContext): number {
  const record = world.visibleChat(args.chatId());
  if (record.chat.type === "private") return 2;
  return world.memberCountOf(record);
}

// ------------------------------------------------------------------------ invite links

/** Telegram cuts an invite link's name at 32 characters; the double refuses longer ones to make that visible. */
const INVITE_LINK_NAME_MAX = 32;

/**
 * Invite links need an administrator with can_invite_users (the description is the Bot
 * API's for a missing right on invite links). A link's name is 0–32 characters; each link
 * gets a fresh `https://t.me/+…` address, its creator is the bot.
 */
function assertCanInvite(world: World, record: ChatRecord) {
  if (record.chat.type === "private") throw badRequest("method is available only for supergroups and channel");
  const rights = world.assertChannelAdmin(record);
  if (!rights.can_invite_users) throw badRequest("not enough rights to manage chat invite links");
}

function createChatInviteLink({ args, world }: CallContext): ChatInviteLink {
  const record = world.visibleChat(args.chatId());
  const name = args.string("name");
  if (name !== undefined && name.length > INVITE_LINK_NAME_MAX) throw badRequest("invite link name is too long");
  const memberLimit = args.integer("member_limit");
  if (memberLimit !== undefined && (memberLimit < 1 || memberLimit > 99_999)) throw badRequest("member limit is invalid");
  if (memberLimit !== undefined && args.boolean("creates_join_request")) {
    throw badRequest("member_limit can't be specified for links requiring administrator approval");
  }
  assertCanInvite(world, record);
  const link: ChatInviteLink = {
    invite_link: `https://t.me/+${world.newInviteHash()}`,
    creator: world.botUser,
    creates_join_request: args.boolean("creates_join_request"),
    is_primary: false,
    is_revoked: false,
    ...(name ? { name } : {}),
    ...(args.integer("expire_date") !== undefined ? { expire_date: args.integer("expire_date") } : {}),
    ...(memberLimit !== undefined ? { member_limit: memberLimit } : {}),
  };
  record.inviteLinks!.set(link.invite_link, link);
  world.touch();
  return structuredClone(link);
}

function revokeChatInviteLink({ args, world }: CallContext): ChatInviteLink {
  const record = world.visibleChat(args.chatId());
  const url = args.string("invite_link");
  if (!url) throw badRequest("parameter \"invite_link\" is required");
  assertCanInvite(world, record);
  const link = record.inviteLinks?.get(url);
  if (!link) throw badRequest("INVITE_HASH_EXPIRED");
  link.is_revoked = true;
  world.touch();
  return structuredClone(link);
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
  if (world.webhook) {
    throw conflict("can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
  }
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
    const terminate = (reason = "terminated by other getUpdates request; make sure that only one bot instance is running") =>
      finish(() => reject(conflict(reason)));
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

/** Telegram's characters for a webhook's secret_token. */
const WEBHOOK_SECRET = /^[A-Za-z0-9_-]{1,256}$/;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/**
 * Webhook mode: updates are POSTed to `url` (server.ts delivers them) and getUpdates
 * answers 409 until deleteWebhook. An empty url removes the webhook. Telegram allows one
 * call a second (429 with retry_after 1). It accepts https URLs only; the double also takes
 * http to a loopback address, where the tests' API listens.
 */
function setWebhook({ args, world }: CallContext): true {
  const url = args.string("url") ?? "";
  if (url === "") return removeWebhook(world, args.boolean("drop_pending_updates"));
  const now = Date.now();
  if (now - world.lastSetWebhookAt < 1000) throw tooManyRequests(1);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest("bad webhook: Failed to resolve host: Name or service not known");
  }
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && LOOPBACK_HOST.test(parsed.hostname))) {
    throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
  }
  const secretToken = args.has("secret_token") ? args.string("secret_token") : undefined;
  if (secretToken !== undefined && !WEBHOOK_SECRET.test(secretToken)) {
    throw badRequest("bad webhook: secret token contains unallowed characters");
  }
  const maxConnections = args.integer("max_connections") ?? 40;
  if (maxConnections < 1 || maxConnections > 100) throw badRequest("bad webhook: max_connections must be between 1 and 100");
  const allowed = args.json<string[]>("allowed_updates", "can't parse allowed_updates JSON object");
  if (allowed !== undefined) world.allowedUpdates = allowed;
  if (args.boolean("drop_pending_updates")) world.updates = [];
  world.lastSetWebhookAt = now;
  world.webhook = { url, secretToken, maxConnections };
  world.lastWebhookError = undefined;
  world.terminatePendingPoll?.("terminated by setWebhook request");
  world.touch();
  return true;
}

function removeWebhook(world: World, dropPendingUpdates: boolean): true {
  if (dropPendingUpdates) world.updates = [];
  world.webhook = undefined;
  world.touch();
  return true;
}

function deleteWebhook({ args, world }: CallContext): true {
  return removeWebhook(world, args.boolean("drop_pending_updates"));
}

function getWebhookInfo({ world }: CallContext) {
  const hook = world.webhook;
  return {
    url: hook?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: world.updates.length,
    ...(hook ? { max_connections: hook.maxConnections, ip_address: "127.0.0.1" } : {}),
    ...(hook && world.allowedUpdates?.length ? { allowed_updates: [...world.allowedUpdates] } : {}),
    ...(hook && world.lastWebhookError
      ? { last_error_date: world.lastWebhookError.date, last_error_message: world.lastWebhookError.message }
      : {}),
  };
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
  setwebhook: setWebhook,
  deletewebhook: deleteWebhook,
  getwebhookinfo: getWebhookInfo,
  getchat: getChat,
  getchatmember: getChatMember,
  getchatadministrators: getChatAdministrators,
  getchatmembercount: getChatMemberCount,
  createchatinvitelink: createChatInviteLink,
  revokechatinvitelink: revokeChatInviteLink,
  sendmessage: sendMessage,
  sendphoto: sendPhoto,
  sendmediagroup: sendMediaGroup,
  sendchataction: sendChatAction,
  editmessagetext: editMessageText,
  editmessagecaption: editMessageCaption,
  editmessagereplymarkup: editMessageReplyMarkup,
  deletemessage: deleteMessage,
  deletemessages: deleteMessages,
  pinchatmessage: pinChatMessage,
  unpinchatmessage: unpinChatMessage,
  unpinallchatmessages: unpinAllChatMessages,
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
    "editChatInviteLink",
    "createChatSubscriptionInviteLink",
    "editChatSubscriptionInviteLink",
    "approveChatJoinRequest",
    "declineChatJoinRequest",
    "setChatPhoto",
    "deleteChatPhoto",
    "setChatTitle",
    "setChatDescription",
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
