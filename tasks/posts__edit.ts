/*
 * Editing a published post (README "Post format"), in two jobs:
 *   posts__send_edit_approval  the approver gets the post as edited, marked as an edit of the
 *                              post published on that date, with Approve / Reject;
 *   posts__apply_edit          once approved, Telegram edits the channel's message in place:
 *                              the caption of a photo that carries it, else the text message
 *                              (the last one), with its entities and buttons.
 * Applying again after a crash edits to the same text, which Telegram answers "message is
 * not modified": that counts as done, so an edit is never lost and never shows twice. A
 * refusal for good (the message deleted in the channel) drops the edit with the reason.
 * Both jobs read, when they run, whether the post's chat is still the project's channel;
 * once it is not, they log why and touch nothing (README "Trust model").
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { MessageEntity } from "../api/contract/entities.ts";
import type { UrlButton } from "../api/contract/post_options.ts";
import type { Sql } from "../core/db.ts";
import type { FileStorage } from "../core/storage.ts";
import { ADMIN_TEXTS, adminLanguage, callbackData, formatWhen } from "../core/telegram/bot_texts.ts";
import { describeTelegramError, refusedForGood } from "../core/telegram/errors.ts";
import { linkPreview, sendPost, telegramEntities } from "../core/telegram/post_message.ts";
import { type Delivery, deliveryQuery, lostChannelRights } from "./post_delivery.ts";

const Payload = v.object({ postId: v.number() });

type PendingEdit = {
  content: string;
  entities: MessageEntity[];
  buttons: UrlButton[][];
  requestedAt: string;
  approved?: boolean;
};

/**
 * The post and its edit, or null when it is not a published post with one waiting, or when
 * its chat is no longer the project's channel (logged: the job touches nothing then).
 */
async function postWithEdit(
  sql: Sql,
  postId: number,
  logger: { warn(message: string): void },
): Promise<{ post: Delivery; edit: PendingEdit; publishedAt: string } | null> {
  const [info] = await sql<{ pendingEdit: PendingEdit | null; publishedAt: string; channelChanged: boolean }[]>`
    select * from app_public.post_edit_info(${postId})`;
  if (!info?.pendingEdit) return null;
  if (info.channelChanged) {
    logger.warn(`post ${postId}: its edit is left undone: the post went out in a chat that is no longer the project's channel`);
    return null;
  }
  const post = await deliveryQuery(sql, "app_public.post_delivery_info", [postId]);
  return post ? { post, edit: info.pendingEdit, publishedAt: info.publishedAt } : null;
}

export function sendEditApproval(sql: Sql, telegram: Api | undefined, storage: FileStorage): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__send_edit_approval: malformed payload, dropped");
    const { postId } = parsed.output;
    const found = await postWithEdit(sql, postId, helpers.logger);
    if (!found || found.edit.approved || !telegram || !found.post.adminChatId) return;
    const { post, edit, publishedAt } = found;
    if (await lostChannelRights(telegram, sql, post)) return; // no one to ask: the edit waits, the channel is unchanged
    const language = adminLanguage(post.projectLanguage);
    const texts = ADMIN_TEXTS[language];
    const adminChatId = post.adminChatId!;
    try {
      const header = await telegram.sendMessage(adminChatId, texts.editRequest(post.channelLink ?? "", formatWhen(publishedAt, post.projectTimezone, language), edit.buttons),
        undefined, helpers.abortSignal);
      const edited = { ...post, content: edit.content, entities: edit.entities, options: { ...post.options, buttons: edit.buttons } };
      const ids = await sendPost(telegram, adminChatId, edited, storage, {
        signal: helpers.abortSignal,
        decision: {
          text: texts.decideAbove,
          markup: {
            inline_keyboard: [[
              { text: texts.approve, callback_data: callbackData("editok", postId) },
              { text: texts.reject, callback_data: callbackData("editno", postId) },
            ]],
          },
        },
      });
      await sql`select app_public.record_edit_preview_sent(${postId}, ${adminChatId}, ${[header.message_id, ...ids]}::bigint[], ${edit.requestedAt})`;
    } catch (err) {
      const refusal = refusedForGood(err);
      if (!refusal) throw err;
      helpers.logger.warn(`posts__send_edit_approval: post ${postId}: ${refusal.description}`);
      return;
    }
  };
}

export function applyEdit(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__apply_edit: malformed payload, dropped");
    const { postId } = parsed.output;
    const found = await postWithEdit(sql, postId, helpers.logger);
    if (!found?.edit.approved || !telegram || found.post.sentChatId === null) return;
    const { post, edit } = found;
    const chatId = post.sentChatId!;
    const ids = post.channelMessageIds;
    const markup = { inline_keyboard: edit.buttons.map((row) => row.map(({ text, url }) => ({ text, url }))) };
    try {
      // the text went out as the caption of the photo or album when there is one message per image
      if (post.imageUrls.length > 0 && ids.length === post.imageUrls.length) {
        await telegram.editMessageCaption(chatId, ids[0], { caption: edit.content, caption_entities: telegramEntities(edit.entities), reply_markup: markup }, helpers.abortSignal);
      } else {
        await telegram.editMessageText(chatId, ids.at(-1)!, edit.content, {
          entities: telegramEntities(edit.entities),
          link_preview_options: linkPreview(post.options),
          reply_markup: markup,
        }, helpers.abortSignal);
      }
    } catch (err) {
      // "not modified": the message already reads so (an earlier try got through)
      if (describeTelegramError(err).code !== "telegram.messageNotModified") {
        const refusal = refusedForGood(err);
        if (!refusal) throw err;
        const params = { description: refusal.description };
        return void await sql`select app_public.record_edit_failed(${postId}, 'posts.error.editRefused', ${sql.json(params)})`;
      }
    }
    await sql`select app_public.record_edit_applied(${postId})`;
  };
}
