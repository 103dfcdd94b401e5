/*
 * Pins a published post in its channel (its first message: the photo or album's first
 * photo carries the caption, or the text), or unpins it when its unpinAfterHours is up
 * (README "Post format"). Telegram refusing for good (the message is gone, the bot may no
 * longer edit the channel) ends the job with a warning: the post is published either way.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { refusedForGood } from "../core/telegram/errors.ts";
import { deliveryQuery } from "./post_delivery.ts";

const Payload = v.object({ postId: v.number(), pin: v.boolean() });

export function pinPost(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__pin: malformed payload, dropped");
    const { postId, pin } = parsed.output;
    const post = await deliveryQuery(sql, "app_public.post_delivery_info", [postId]);
    const [messageId] = post?.channelMessageIds ?? [];
    if (!telegram || post?.status !== "published" || post.sentChatId === null || messageId === undefined) return;
    try {
      // quietly: the post itself already notified (or chose not to); a second alert for the pin is noise
      if (pin) await telegram.pinChatMessage(post.sentChatId, messageId, { disable_notification: true }, helpers.abortSignal);
      else await telegram.unpinChatMessage(post.sentChatId, messageId, undefined, helpers.abortSignal);
    } catch (err) {
      const refusal = refusedForGood(err);
      if (!refusal) throw err;
      helpers.logger.warn(`posts__pin: post ${postId} could not be ${pin ? "pinned" : "unpinned"}: ${refusal.description}`);
    }
  };
}
