/*
 * How a post looks in Telegram, written once for the channel and for the admin's preview
 * (the preview is the same messages plus buttons). Content is plain text, no parse_mode
 * (DESIGN.md "Post content"). With an image: one photo with the text as caption when it
 * fits Telegram's 1024-character caption; otherwise the photo, then the text — a long
 * caption never fails at publish time.
 */
import { type Api, InputFile } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { PHOTO_CAPTION_MAX } from "../../api/contract/limits.ts";
import type { FileStorage } from "../storage.ts";
import { describeTelegramError, type TelegramFailure } from "./errors.ts";

export type PostForTelegram = { title: string; content: string; imageUrl: string | null };

/** The text that goes out: the content, or the title when the content is empty. */
export function postText(post: PostForTelegram) {
  return post.content.trim() !== "" ? post.content : post.title;
}

async function photoSource(imageUrl: string, storage: FileStorage): Promise<InputFile | string> {
  const local = imageUrl.match(/^\/api\/uploads\/([A-Za-z0-9_-]+\.(?:png|jpg|webp|gif))$/);
  if (!local) return imageUrl;
  const file = await storage.get(local[1]);
  if (!file) throw new Error(`the post's image ${imageUrl} is missing from storage`);
  return new InputFile(file.bytes, local[1]);
}

/**
 * Sends the post to a chat; answers the message ids in order. `replyMarkup` goes on the
 * last message (the admin's Approve/Reject buttons). When the post takes two messages,
 * `onPartSent` hears of the photo before the text is sent, so a failure or a crash in
 * between still knows what is in the chat.
 */
export async function sendPost(
  api: Api,
  chatId: number,
  post: PostForTelegram,
  storage: FileStorage,
  options: { replyMarkup?: InlineKeyboardMarkup; signal?: AbortSignal; onPartSent?: (ids: number[]) => Promise<void> } = {},
): Promise<number[]> {
  const text = postText(post);
  const markup = options.replyMarkup ? { reply_markup: options.replyMarkup } : {};
  if (!post.imageUrl) {
    const message = await api.sendMessage(chatId, text, { ...markup, link_preview_options: { is_disabled: true } }, options.signal);
    return [message.message_id];
  }
  const photo = await photoSource(post.imageUrl, storage);
  if (text.length <= PHOTO_CAPTION_MAX) {
    const message = await api.sendPhoto(chatId, photo, { caption: text, ...markup }, options.signal);
    return [message.message_id];
  }
  const first = await api.sendPhoto(chatId, photo, {}, options.signal);
  await options.onPartSent?.([first.message_id]);
  const second = await api.sendMessage(chatId, text, { ...markup, link_preview_options: { is_disabled: true } }, options.signal);
  return [first.message_id, second.message_id];
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
