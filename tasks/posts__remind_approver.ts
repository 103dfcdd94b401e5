/*
 * Reminds the approver of a post that is past its time and still waits for their decision:
 * once per round (app_public.claim_approval_reminder records it before Telegram is called),
 * in the approver's queue, in the project's language, as a reply to the preview's buttons so
 * the approver sees which post it is and where to press.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import { ADMIN_TEXTS, botLanguage, formatWhen } from "../texts/telegram.ts";
import { describeTelegramError } from "../core/telegram/errors.ts";
import type { Sql } from "../core/db.ts";
import { deliveryQuery } from "../core/delivery.ts";

const Payload = v.object({ postId: v.number() });

export function remindApprover(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__remind_approver: malformed payload, dropped");
    if (!telegram) return;
    const post = await deliveryQuery(sql, "app_public.claim_approval_reminder", [parsed.output.postId]);
    const { chatId, buttonsMessageId } = post?.approvalPreview ?? {};
    if (!post || !chatId || !buttonsMessageId) return;
    const language = botLanguage(post.projectLanguage);
    const minutesLate = Math.max(1, Math.round((Date.now() - Date.parse(post.scheduledFor)) / 60_000));
    const text = ADMIN_TEXTS[language].lateReminder(post.channelLink ?? "", formatWhen(post.scheduledFor, post.projectTimezone, language), minutesLate);
    try {
      await telegram.sendMessage(chatId, text, {
        reply_parameters: { message_id: buttonsMessageId, allow_sending_without_reply: true },
      }, helpers.abortSignal);
    } catch (err) {
      // Never retried (the claim is recorded): a reminder twice is worse than none, and the
      // owner sees the post late on every screen.
      helpers.logger.warn(`posts__remind_approver: not sent (${describeTelegramError(err).definite ? "refused" : "unknown"})`);
    }
  };
}
