/*
 * Applies an approved edit of a published post (docs/post-format.md): Telegram edits the
 * channel's message in place, the caption of a photo that carries it, else the text message
 * (the last one), with its entities and buttons. Applying again after a crash edits to the
 * same text, which Telegram answers "message is not modified": that counts as done, so an
 * edit is never lost and never shows twice. A refusal for good (the message deleted in the
 * channel) drops the edit with the reason (posts.error.editRefused).
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { describeTelegramError, refusedForGood } from "../core/telegram/errors.ts";
import { linkPreview, postText } from "../core/telegram/post_message.ts";
import { EditPayload, postWithEdit } from "./post_edit.ts";

export function applyEdit(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(EditPayload, payload);
    if (!parsed.success) return helpers.logger.error("posts__apply_edit: malformed payload, dropped");
    const { postId } = parsed.output;
    const found = await postWithEdit(sql, postId, helpers.logger);
    if (!found?.edit.approved || !telegram || found.post.channelChatId === null) return;
    const { post, edit } = found;
    const chatId = post.channelChatId!;
    const ids = post.channelMessageIds;
    const markup = { inline_keyboard: edit.buttons.map((row) => row.map(({ text, url }) => ({ text, url }))) };
    // the words as the channel reads them: an ad keeps its label as the last line
    const { text, entities } = postText({ ...post, content: edit.content, entities: edit.entities });
    try {
      // the text went out as the caption of the photo or album when there is one message per image
      if (post.imageUrls.length > 0 && ids.length === post.imageUrls.length) {
        await telegram.editMessageCaption(chatId, ids[0], { caption: text, caption_entities: entities, reply_markup: markup }, helpers.abortSignal);
      } else {
        await telegram.editMessageText(chatId, ids.at(-1)!, text, {
          entities,
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
