/*
 * How a post goes out to Telegram, for the channel and for the admin's preview (the preview
 * is the same messages, then the decision buttons). Which messages, with what words and
 * buttons, is the plan in contract/post_plan.ts, which the SPA's preview draws too. The text is
 * plain and literal with Telegram entities for its formatting, never a parse_mode
 * (docs/post-format.md). A long caption never fails at publish time, and every part but the last is reported as
 * soon as it is out (onPartSent), so a failure or a crash in between still knows what is in
 * the chat and the post is never half-sent or doubled.
 */
import { type Api, InputFile, InputMediaBuilder } from "grammy";
import type { InlineKeyboardMarkup, LinkPreviewOptions, MessageEntity as TelegramEntity } from "grammy/types";
import type { Ad } from "../../contract/ads.ts";
import type { MessageEntity } from "../../contract/entities.ts";
import { plannedImages, plannedText, type PostPart, postParts } from "../../contract/post_plan.ts";
import type { PostOptions } from "../../contract/post_options.ts";
import type { FileStorage } from "../storage.ts";
import { describeTelegramError, type TelegramFailure } from "./errors.ts";

export type PostForTelegram = {
  title: string;
  content: string;
  entities?: MessageEntity[];
  imageUrl: string | null;
  /** The album, first image first; when absent, imageUrl alone. */
  imageUrls?: string[];
  options?: PostOptions;
  /** A sold post's label is its last line, in the project's language (contract/ads.ts). */
  ad?: Ad | null;
  projectLanguage?: string;
};

/** Our entities as grammY types them (the same objects: ours are a checked subset of Telegram's). */
export const telegramEntities = (entities: readonly MessageEntity[] | undefined) => (entities ?? []) as TelegramEntity[];

/** The text that goes out with its entities: the content, or the title (plain) when the content is empty. */
export function postText(post: PostForTelegram): { text: string; entities: TelegramEntity[] } {
  const { text, entities } = plannedText(post);
  return { text, entities: telegramEntities(entities) };
}

export const postImages = (post: PostForTelegram): string[] => plannedImages(post);

export { type PostPart, postParts };

/** The link preview a post asked for (off unless it says otherwise). */
export function linkPreview(options: PostOptions | undefined): LinkPreviewOptions {
  switch (options?.linkPreview ?? "off") {
    case "above":
      return { show_above_text: true };
    case "below":
      return { show_above_text: false };
    default:
      return { is_disabled: true };
  }
}

/** A post's image that is gone from storage: the post cannot go out as it is, whatever Telegram says. */
export class MissingImageError extends Error {
  constructor(imageUrl: string) {
    super(`the post's image ${imageUrl} is missing from storage`);
  }
}

async function photoSource(imageUrl: string, storage: FileStorage): Promise<InputFile | string> {
  const local = imageUrl.match(/^\/api\/uploads\/([A-Za-z0-9_-]+\.(?:png|jpg|webp|gif))$/);
  if (!local) return imageUrl;
  const file = await storage.get(local[1]);
  if (!file) throw new MissingImageError(imageUrl);
  return new InputFile(file.bytes, local[1]);
}

export type SendOptions = {
  /**
   * The preview's decision buttons. They go on the post's last message when that message
   * has no buttons of its own and is not an album; otherwise on a message of their own,
   * `decisionText`, right after the post, so they are never mixed up with the post's.
   */
  decision?: { markup: InlineKeyboardMarkup; text: string };
  signal?: AbortSignal;
  onPartSent?: (ids: number[]) => Promise<void>;
};

/**
 * Sends the post to a chat; answers the message ids in order (a separate decision message
 * is last). A preview (`decision` given) notifies the approver even for a silent post.
 */
export async function sendPost(api: Api, chatId: number, post: PostForTelegram, storage: FileStorage, options: SendOptions = {}): Promise<number[]> {
  const { text, entities } = postText(post);
  const parts = postParts(post);
  const urlButtons = post.options?.buttons?.length
    ? { inline_keyboard: post.options.buttons.map((row) => row.map(({ text, url }) => ({ text, url }))) }
    : undefined;
  const decisionOnPost = options.decision && !urlButtons && !parts.at(-1)!.startsWith("album");
  const lastMarkup = decisionOnPost ? options.decision!.markup : urlButtons;
  const common = { disable_notification: options.decision ? undefined : post.options?.silent || undefined };
  const images = postImages(post);
  const ids: number[] = [];

  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    const markup = last && lastMarkup ? { reply_markup: lastMarkup } : {};
    const caption = part.endsWith("+caption") ? { caption: text, caption_entities: entities } : {};
    if (part === "text") {
      const message = await api.sendMessage(chatId, text, { ...common, ...markup, entities, link_preview_options: linkPreview(post.options) }, options.signal);
      ids.push(message.message_id);
    } else if (part.startsWith("photo")) {
      const message = await api.sendPhoto(chatId, await photoSource(images[0], storage), { ...common, ...markup, ...caption }, options.signal);
      ids.push(message.message_id);
    } else {
      const media = await Promise.all(images.map(async (url, i) => InputMediaBuilder.photo(await photoSource(url, storage), i === 0 ? caption : {})));
      const messages = await api.sendMediaGroup(chatId, media, common, options.signal);
      ids.push(...messages.map((message) => message.message_id));
    }
    if (!last) await options.onPartSent?.([...ids]);
  }
  if (options.decision && !decisionOnPost) {
    const message = await api.sendMessage(chatId, options.decision.text, { reply_markup: options.decision.markup }, options.signal);
    ids.push(message.message_id);
  }
  return ids;
}

/**
 * Removes messages from a chat in order; one already gone counts as removed. Stops at the
 * first refusal (e.g. older than 48 hours, rights lost) and answers it.
 */
export async function removeMessages(
  api: Api,
  chatId: number,
  messageIds: number[],
): Promise<{ removed: number[]; refusal?: TelegramFailure }> {
  const removed: number[] = [];
  for (const messageId of messageIds) {
    try {
      await api.deleteMessage(chatId, messageId);
    } catch (err) {
      const failure = describeTelegramError(err);
      if (!(failure.code === "telegram.messageNotFound" && /not found/i.test(failure.description))) return { removed, refusal: failure };
    }
    removed.push(messageId);
  }
  return { removed };
}

/** https://t.me/<channel>/<message id> for a public channel stored as @name. */
export function messageLink(channelLink: string, messageId: number) {
  return `https://t.me/${channelLink.replace(/^@/, "")}/${messageId}`;
}
