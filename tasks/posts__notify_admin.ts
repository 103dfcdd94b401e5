/*
 * Tells the channel admin that a post failed or may not have gone out. For an uncertain
 * post the message carries the two ways out: "It is in the channel" / "Send again". For a
 * published ad at its term: it is due for removal by hand (the bot may not delete messages
 * older than 48 hours), or the bot lacks the right to delete it (docs/ads.md "The feed time").
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import { reasonWords } from "../texts/reasons.ts";
import { ADMIN_TEXTS, botLanguage } from "../texts/telegram.ts";
import { callbackData } from "../core/telegram/callback_data.ts";
import { describeTelegramError } from "../core/telegram/errors.ts";
import { messageLink } from "../core/telegram/post_message.ts";
import type { Sql } from "../core/db.ts";
import { deliveryQuery } from "../core/delivery.ts";

const Payload = v.object({ postId: v.number(), kind: v.picklist(["failed", "uncertain", "adRemovalDue", "adCannotDelete"]) });

export function notifyAdmin(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__notify_admin: malformed payload, dropped");
    const { postId, kind } = parsed.output;
    const post = await deliveryQuery(sql, "app_public.post_delivery_info", [postId]);
    const ad = kind === "adRemovalDue" || kind === "adCannotDelete";
    if (!post || !telegram || !post.approverUserId || post.status !== (ad ? "published" : kind)) return;
    const language = botLanguage(post.projectLanguage);
    const texts = ADMIN_TEXTS[language];
    const channel = post.channelLink ?? "";
    // the reason in the approver's language, in the words the owner's mail and screen use
    const reason = post.lastErrorCode ? reasonWords(language, post.lastErrorCode, post.lastErrorParams ?? {}) : "";
    try {
      if (kind === "adRemovalDue") {
        const first = post.channelMessageIds[0];
        const link = post.channelLink && first ? messageLink(post.channelLink, first) : "";
        await telegram.sendMessage(post.approverUserId, texts.adRemovalDue(post.title, channel, link), undefined, helpers.abortSignal);
      } else if (kind === "adCannotDelete") {
        await telegram.sendMessage(post.approverUserId, texts.adCannotDelete(post.title, channel), undefined, helpers.abortSignal);
      } else if (kind === "failed") {
        await telegram.sendMessage(post.approverUserId, texts.failed(post.title, channel, reason), undefined, helpers.abortSignal);
      } else {
        await telegram.sendMessage(post.approverUserId, texts.uncertain(post.title, channel, reason), {
          reply_markup: {
            inline_keyboard: [[
              { text: texts.inChannel, callback_data: callbackData("inchannel", postId) },
              { text: texts.sendAgain, callback_data: callbackData("resend", postId) },
            ]],
          },
        }, helpers.abortSignal);
      }
    } catch (err) {
      // The admin blocked the bot or left: the post's status already tells the user.
      if (describeTelegramError(err).definite) return;
      throw err;
    }
  };
}
