/*
 * Publishes an approved post to its channel, never twice (docs/publishing.md):
 *   1. begin_sending marks it `sending` (committed) — a repeated or stale job stops here;
 *   2. one send to Telegram;
 *   3. published with the message ids and links — or, by Telegram's answer:
 *      429 → back to approved and retried after retry_after (nothing was sent);
 *      other definite refusals → failed with the reason (the admin is told);
 *      a lost answer or timeout → uncertain (it may be in the channel; the admin decides).
 * A crash between 1 and 3 leaves `sending`; recover_from_dead_workers turns it uncertain.
 *
 * A post of two messages (photo, then text) records the photo once it is out. If the text
 * is then refused, the photo is removed and the refusal handled as if nothing was sent
 * (when it cannot be removed the post fails, saying the photo is in the channel alone);
 * if the text's fate is unknown the post is uncertain. Before a new send ("Send again"),
 * what an earlier attempt left in the channel is removed, so the post appears once, whole.
 */
import type { Api } from "grammy";
import type { JobHelpers, Task } from "graphile-worker";
import * as v from "valibot";
import type { PostReasonCode, PostReasonParams } from "../contract/post_reasons.ts";
import type { Sql } from "../core/db.ts";
import type { FileStorage } from "../core/storage.ts";
import { describeTelegramError } from "../core/telegram/errors.ts";
import { messageLink, MissingImageError, postParts, removeMessages, sendPost } from "../core/telegram/post_message.ts";
import { chatWaitMs } from "../core/telegram/send_budget.ts";
import { deliveryQuery } from "../core/delivery.ts";
import { lostChannelRights } from "./post_delivery.ts";

const Payload = v.object({ postId: v.number() });

/** A wait for the channel's budget this short is spent in the slot (re-queueing costs more). */
export const DEFER_AFTER_MS = 1_000;

/**
 * `sending`: the posts this process is sending now, from before begin_sending until the
 * outcome is recorded (or recording it failed): a post marked `sending` by this live
 * process and not in it lost its outcome to the database going away (tasks/worker.ts).
 */
export function sendToChannel(sql: Sql, telegram: Api | undefined, storage: FileStorage, sending = new Map<number, number>()): Task {
  const send = publish(sql, telegram, storage);
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__publish: malformed payload, dropped");
    const { postId } = parsed.output;
    // counted: a job re-queued under the post's key may start while the replaced one runs
    sending.set(postId, (sending.get(postId) ?? 0) + 1);
    try {
      await send(postId, helpers);
    } finally {
      const left = sending.get(postId)! - 1;
      if (left > 0) sending.set(postId, left);
      else sending.delete(postId);
    }
  };
}

function publish(sql: Sql, telegram: Api | undefined, storage: FileStorage) {
  return async (postId: number, helpers: JobHelpers) => {
    const workerId = helpers.job.locked_by ?? "unknown";
    // Before anything is marked as being sent: the approver must still administer the
    // channel and the bot still post there, or the post fails and nothing goes out.
    const approved = await deliveryQuery(sql, "app_public.post_delivery_info", [postId]);
    if (telegram && approved?.status === "approved") {
      const lost = await lostChannelRights(telegram, sql, approved);
      if (lost) return void await sql`select app_public.fail_post_for_channel_rights(${postId}, ${lost.code}, ${sql.json(lost.params)})`;
    }
    // A channel takes 20 messages a minute: a post that would wait for its turn gives its
    // slot back and comes back then, so one account's burst of posts never sits in every
    // slot while other accounts' posts fall due.
    if (telegram && approved?.status === "approved" && approved.connectedChatId) {
      const waitMs = await chatWaitMs(sql, telegram.token, String(approved.connectedChatId), postParts(approved).length);
      if (waitMs > DEFER_AFTER_MS) return void await sql`select app_public.defer_publication(${postId}, ${waitMs})`;
    }
    const post = await deliveryQuery(sql, "app_public.begin_sending", [postId, workerId]);
    if (!post) return;
    const failed = (code: PostReasonCode, params: PostReasonParams, definite: boolean) =>
      sql`select app_public.record_send_failed(${postId}, ${code}, ${sql.json(params)}, ${definite})`;
    if (!telegram) return void await failed("posts.error.botNotConfigured", {}, true);
    if (!post.connectedChatId || !post.channelLink) return void await failed("posts.error.noChannel", {}, true);

    // begin_sending answers only a post approved for the channel the project has now.
    const chatId = post.connectedChatId;
    const recordSent = (chat: number, ids: number[]) =>
      sql`select app_public.record_sent_part(${postId}, ${chat}, ${ids}::bigint[])`;
    if (post.channelMessageIds.length > 0) {
      const leftoverChat = post.channelChatId ?? chatId;
      const { removed, refusal } = await removeMessages(telegram, leftoverChat, post.channelMessageIds);
      if (refusal) helpers.logger.warn(`posts__publish: post ${postId}: an earlier attempt's message stays in the channel: ${refusal.description}`);
      await recordSent(leftoverChat, post.channelMessageIds.filter((id) => !removed.includes(id)));
    }

    let sent: number[] = [];
    let ids: number[];
    try {
      ids = await sendPost(telegram, chatId, post, storage, {
        signal: helpers.abortSignal,
        onPartSent: async (part) => {
          sent = part;
          await recordSent(chatId, part);
        },
      });
    } catch (err) {
      const failure = describeTelegramError(err);
      if (sent.length > 0) {
        const { description } = failure;
        if (!failure.definite) return void await failed("posts.error.textUncertain", { description }, false);
        const { refusal } = await removeMessages(telegram, chatId, sent);
        if (refusal) return void await failed("posts.error.photoAlone", { description, removal: refusal.description }, true);
        await recordSent(chatId, []);
      }
      if (failure.code === "telegram.rateLimited" && failure.retryAfter !== undefined) {
        await sql`select app_public.postpone_sending(${postId}, ${failure.retryAfter})`;
      } else if (err instanceof MissingImageError) {
        await failed("posts.error.imageMissing", {}, true);
      } else {
        await failed("posts.error.telegram", { description: failure.description }, failure.definite);
      }
      return;
    }
    const links = { [post.channelLink.replace(/^@/, "")]: messageLink(post.channelLink, ids[0]) };
    await sql`select app_public.record_published(${postId}, ${chatId}, ${ids}::bigint[], ${sql.json(links)})`;
  };
}
