/*
 * An ad's feed time (docs/ads.md "The feed time"). The job is queued when the ad is recorded published
 * (app_private.queue_ad_term), in its project's publishing queue, and does what
 * app_public.ad_removal_target says when it runs:
 *   - check (ad_removal_lead before a term the bot keeps): the bot's right to delete in the
 *     channel; missing, the owners and the approver are told how to grant it; either way the
 *     job comes back at the term;
 *   - remove (at the term): the right again, then every message of the ad (each part of an
 *     album, the photo and the text), in the chat they went to; a message already gone counts
 *     as removed; then ad_removed_at is recorded once. The right missing (or Telegram refusing
 *     the delete for good), the owners are told once and the job comes back every
 *     ad_removal_retry until Telegram's 48 hours run out, when it becomes the reminder;
 *   - remind (a term of 48 hours or more): the owners by e-mail and the approver in Telegram
 *     are reminded to delete it by hand, recorded and queued in one transaction;
 *   - none: the ad was deleted, removed or reminded of already, or its chat is no longer the
 *     project's channel: logged, nothing touched.
 * Exactly once across a crash and two workers: deleting is idempotent (ids are never reused in
 * a chat, and "not found" is "removed"), the job's key makes one job per ad, and the records
 * are guarded updates. A worker killed mid-removal leaves the job locked; the dead-worker
 * recovery unlocks it and the next run deletes what is left and records the removal.
 * Telegram's answers here are a getChatMember and a few deleteMessage calls, none of which
 * waits for the channel's send budget: the job holds its slot no longer than a publication.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { botCanDelete } from "../core/telegram/channel_rights.ts";
import { removeMessages } from "../core/telegram/post_message.ts";

const Payload = v.object({ postId: v.number() });

type Target = {
  action: "check" | "remove" | "remind" | "none";
  chatId: number | null;
  messageIds: number[];
  channelLink: string;
  removeAt: string;
  refusal: string | null;
};

/** How often a removal the bot may not make yet is tried again (app_private.ad_removal_retry says the same). */
export const AD_REMOVAL_RETRY_MS = 10 * 60_000;

export function removeAd(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("posts__remove_ad: malformed payload, dropped");
    const { postId } = parsed.output;
    const [target] = await sql<Target[]>`select * from app_public.ad_removal_target(${postId})`;
    if (!target) return helpers.logger.info(`posts__remove_ad: post ${postId} was deleted; nothing to remove`);
    if (target.action === "none") return helpers.logger.info(`posts__remove_ad: post ${postId} left as it is: ${target.refusal}`);
    if (target.action === "remind") return void await sql`select app_public.remind_ad_removal(${postId})`;
    if (!telegram) return helpers.logger.warn(`posts__remove_ad: post ${postId}: no bot configured, the ad stays`);
    const chatId = Number(target.chatId);
    const defer = (at: string, cannotDelete: boolean) =>
      sql`select app_public.defer_ad_removal(${postId}, ${at}::timestamptz, ${cannotDelete})`;
    const retryAt = () => new Date(Date.now() + AD_REMOVAL_RETRY_MS).toISOString();

    const mayDelete = await botCanDelete(telegram, chatId);
    if (target.action === "check") return void await defer(target.removeAt, !mayDelete);
    if (!mayDelete) {
      helpers.logger.warn(`posts__remove_ad: post ${postId}: the bot may not delete messages in ${target.channelLink}; tried again later`);
      return void await defer(retryAt(), true);
    }
    const ids = target.messageIds.map(Number);
    const { refusal } = await removeMessages(telegram, chatId, ids);
    if (refusal) {
      // a lost answer, Telegram out of reach or still asking to wait: graphile-worker runs the
      // job again (idempotent), and the owners hear nothing of it
      if (!refusal.definite || refusal.code === "telegram.rateLimited") throw new Error(`deleting the ad's messages: ${refusal.description}`);
      helpers.logger.warn(`posts__remove_ad: post ${postId}: Telegram refused the delete (${refusal.description}); tried again later`);
      return void await defer(retryAt(), true);
    }
    await sql`select app_public.record_ad_removed(${postId})`;
  };
}
