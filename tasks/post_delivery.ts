/* What a post's delivery needs of Telegram before it goes: the channel's rights (docs/trust-model.md). */
import type { Api } from "grammy";
import type { PostReason } from "../contract/post_reasons.ts";
import type { Delivery } from "../core/delivery.ts";
import type { Sql } from "../core/db.ts";
import { channelRightsProblem, lostRightsReason, RIGHTS_FRESH_MS } from "../core/telegram/channel_rights.ts";

/**
 * Before a preview or a publication (docs/trust-model.md): does the pinned approver still
 * administer the channel, and may the bot still post there? A confirmation younger than
 * RIGHTS_FRESH_MS is reused. Answers the reason the post fails (a code and params), or null to go on; throws
 * when Telegram gives no definite answer (the job is retried).
 */
export async function lostChannelRights(telegram: Api, sql: Sql, post: Delivery): Promise<PostReason | null> {
  if (post.channelId === null || post.connectedChatId === null || post.approverUserId === null) return null;
  if (post.rightsCheckedAt && Date.now() - Date.parse(post.rightsCheckedAt) < RIGHTS_FRESH_MS) return null;
  const problem = await channelRightsProblem(telegram, post.connectedChatId, post.approverUserId);
  if (problem) return lostRightsReason(problem, post.approverHandle ?? String(post.approverUserId), post.channelLink ?? "");
  await sql`select app_public.record_channel_rights_checked(${post.channelId}, ${post.approverUserId})`;
  return null;
}
