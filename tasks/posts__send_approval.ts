/*
 * Sends a post to the approver's private chat for approval (the Telegram user pinned when the
 * channel was connected, once Telegram confirms they still administer it): a header saying where
 * and when, then the post exactly as it will appear in the channel, with Approve/Reject
 * on its last message. A definite refusal (the admin blocked the bot, never wrote to it)
 * puts the post back to draft with the reason; anything else is retried by the queue (a
 * repeated preview is harmless: only the newest message's buttons count). The buttons name the
 * claim's round, so a press that comes before record_approval_sent counts all the same.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { PostReasonCode, PostReasonParams } from "../contract/post_reasons.ts";
import type { Sql } from "../core/db.ts";
import type { FileStorage } from "../core/storage.ts";
import { ADMIN_TEXTS, botLanguage, formatWhen } from "../texts/telegram.ts";
import { callbackData } from "../core/telegram/callback_data.ts";
import { refusedForGood } from "../core/telegram/errors.ts";
import { sendPost } from "../core/telegram/post_message.ts";
import { deliveryQuery } from "../core/delivery.ts";
import { lostChannelRights } from "./post_delivery.ts";

const Payload = v.object({ postId: v.number() });

export function sendApproval(sql: Sql, telegram: Api | undefined, storage: FileStorage): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__send_approval: malformed payload, dropped");
    const { postId } = parsed.output;
    const post = await deliveryQuery(sql, "app_public.claim_post_for_approval", [postId, helpers.job.id]);
    if (!post) return; // already sent, or the post moved on
    const fail = (code: PostReasonCode, params: PostReasonParams = {}) =>
      sql`select app_public.record_approval_failed(${postId}, ${code}, ${sql.json(params)})`;
    if (!telegram) return void await fail("posts.error.botNotConfigured");
    if (!post.approverUserId) return void await fail("posts.error.adminNotRegistered");
    // Only someone who still administers the channel sees the post (nothing is sent otherwise).
    const lost = await lostChannelRights(telegram, sql, post);
    if (lost) return void await sql`select app_public.fail_post_for_channel_rights(${postId}, ${lost.code}, ${sql.json(lost.params)})`;
    const texts = ADMIN_TEXTS[botLanguage(post.projectLanguage)];
    try {
      const header = await telegram.sendMessage(
        post.approverUserId,
        texts.approvalRequest(post.channelLink ?? "", formatWhen(post.scheduledFor, post.projectTimezone, botLanguage(post.projectLanguage)), post.options),
        undefined,
        helpers.abortSignal,
      );
      const ids = await sendPost(telegram, post.approverUserId, post, storage, {
        signal: helpers.abortSignal,
        decision: {
          text: texts.decideAbove,
          markup: {
            inline_keyboard: [[
              { text: texts.approve, callback_data: callbackData("approve", postId, post.approvalPreview.round) },
              { text: texts.reject, callback_data: callbackData("reject", postId, post.approvalPreview.round) },
            ]],
          },
        },
      });
      await sql`select app_public.record_approval_sent(${postId}, ${post.approverUserId}, ${[header.message_id, ...ids]}::bigint[])`;
    } catch (err) {
      const refusal = refusedForGood(err);
      if (!refusal) throw err;
      await fail("posts.error.approvalUndelivered", { description: refusal.description });
    }
  };
}
