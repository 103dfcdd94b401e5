/*
 * Pins a published post in its channel (its first message: the photo or album's first
 * photo carries the caption, or the text), or unpins it when its unpinAfterHours is up
 * (docs/post-format.md). Telegram refusing for good (the message is gone, the bot may no
 * longer edit the channel) ends the job with a warning: the post is published either way.
 * Only while the post's chat is the project's channel (docs/trust-model.md): after a
 * change the job logs why and does nothing.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { refusedForGood } from "../core/telegram/errors.ts";

const Payload = v.object({ postId: v.number(), pin: v.boolean() });

export function pinPost(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__pin: malformed payload, dropped");
    const { postId, pin } = parsed.output;
    // Read when the job runs: an unpin queued hours ago must not act on a chat that has
    // stopped being the project's channel since.
    const [target] = await sql<{ chatId: number | null; messageId: number | null; refusal: string | null }[]>`
      select * from app_public.pinning_target(${postId})`;
    if (target?.refusal) return helpers.logger.warn(`posts__pin: post ${postId} left as it is: ${target.refusal}`);
    if (!telegram || !target || target.chatId === null || target.messageId === null) return;
    const { chatId, messageId } = target;
    try {
      // quietly: the post itself already notified (or chose not to); a second alert for the pin is noise
      if (pin) await telegram.pinChatMessage(chatId, messageId, { disable_notification: true }, helpers.abortSignal);
      else await telegram.unpinChatMessage(chatId, messageId, undefined, helpers.abortSignal);
    } catch (err) {
      const refusal = refusedForGood(err);
      if (!refusal) throw err;
      helpers.logger.warn(`posts__pin: post ${postId} could not be ${pin ? "pinned" : "unpinned"}: ${refusal.description}`);
    }
  };
}
