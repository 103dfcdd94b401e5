/*
 * Asks the approver about an edit of a published post (docs/post-format.md): the post as
 * edited, marked as an edit of the post published on that date, with Approve / Reject.
 * Nothing is asked while nobody may be asked (the channel's rights are gone): the edit waits.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import type { FileStorage } from "../core/storage.ts";
import { ADMIN_TEXTS, botLanguage, formatWhen } from "../texts/telegram.ts";
import { callbackData, editRound } from "../core/telegram/callback_data.ts";
import { refusedForGood } from "../core/telegram/errors.ts";
import { sendPost } from "../core/telegram/post_message.ts";
import { lostChannelRights } from "./post_delivery.ts";
import { EditPayload, postWithEdit } from "./post_edit.ts";

export function sendEditApproval(sql: Sql, telegram: Api | undefined, storage: FileStorage): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(EditPayload, payload);
    if (!parsed.success) return helpers.logger.error("posts__send_edit_approval: malformed payload, dropped");
    const { postId } = parsed.output;
    const found = await postWithEdit(sql, postId, helpers.logger);
    if (!found || found.edit.approved || !telegram || !found.post.approverUserId) return;
    const { post, edit, publishedAt } = found;
    if (await lostChannelRights(telegram, sql, post)) return; // no one to ask: the edit waits, the channel is unchanged
    const language = botLanguage(post.projectLanguage);
    const texts = ADMIN_TEXTS[language];
    const approverUserId = post.approverUserId!;
    try {
      const header = await telegram.sendMessage(approverUserId, texts.editRequest(post.channelLink ?? "", formatWhen(publishedAt, post.projectTimezone, language), edit.buttons),
        undefined, helpers.abortSignal);
      const edited = { ...post, content: edit.content, entities: edit.entities, options: { ...post.options, buttons: edit.buttons } };
      const ids = await sendPost(telegram, approverUserId, edited, storage, {
        signal: helpers.abortSignal,
        decision: {
          text: texts.decideAbove,
          markup: {
            inline_keyboard: [[
              { text: texts.approve, callback_data: callbackData("editok", postId, editRound(edit.requestedAt)) },
              { text: texts.reject, callback_data: callbackData("editno", postId, editRound(edit.requestedAt)) },
            ]],
          },
        },
      });
      await sql`select app_public.record_edit_preview_sent(${postId}, ${approverUserId}, ${[header.message_id, ...ids]}::bigint[], ${edit.requestedAt})`;
    } catch (err) {
      const refusal = refusedForGood(err);
      if (!refusal) throw err;
      helpers.logger.warn(`posts__send_edit_approval: post ${postId}: ${refusal.description}`);
      return;
    }
  };
}
