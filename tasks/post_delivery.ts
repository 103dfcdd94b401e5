/* The post_delivery rows the worker reads (graphile-worker queries with `pg`: snake_case, int8 as text). */
import type { Api } from "grammy";
import { channelRightsProblem, lostRightsReason, RIGHTS_FRESH_MS } from "../core/telegram/channel_rights.ts";

export type Delivery = {
  postId: number;
  status: string;
  title: string;
  content: string;
  imageUrl: string | null;
  scheduledFor: Date;
  channelChatId: number | null;
  channelLink: string | null;
  adminChatId: number | null;
  approvalMessageIds: { chatId?: number; messageIds?: number[]; buttonsMessageId?: number };
  channelMessageIds: number[];
  lastError: string | null;
  projectLanguage: string;
  projectTimezone: string;
  /** The project's connected channel, its pinned approver and when Telegram last confirmed both. */
  channelId: number | null;
  approverHandle: string | null;
  rightsCheckedAt: Date | null;
  /** The chat holding channelMessageIds (what an earlier attempt left), when any. */
  sentChatId: number | null;
};

// deno-lint-ignore no-explicit-any
type Query = (text: string, values?: any[]) => Promise<{ rows: any[] }>;

/** Calls a SQL function answering app_public.post_delivery; null when it answers null. */
export async function deliveryQuery(query: Query, fn: string, args: unknown[]): Promise<Delivery | null> {
  const placeholders = args.map((_, i) => `$${i + 1}`).join(", ");
  const { rows } = await query(
    `select (d).* from (select ${fn}(${placeholders}) as d) s where (d).post_id is not null`,
    args,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    postId: Number(r.post_id),
    status: r.status as string,
    title: r.title as string,
    content: r.content as string,
    imageUrl: (r.image_url as string | null) ?? null,
    scheduledFor: r.scheduled_for as Date,
    channelChatId: r.channel_chat_id == null ? null : Number(r.channel_chat_id),
    channelLink: (r.channel_link as string | null) ?? null,
    adminChatId: r.admin_chat_id == null ? null : Number(r.admin_chat_id),
    approvalMessageIds: (r.approval_message_ids ?? {}) as Delivery["approvalMessageIds"],
    channelMessageIds: (r.channel_message_ids ?? []) as number[],
    lastError: (r.last_error as string | null) ?? null,
    projectLanguage: (r.project_language as string) ?? "ru",
    projectTimezone: (r.project_timezone as string) ?? "Europe/Moscow",
    channelId: r.channel_id == null ? null : Number(r.channel_id),
    approverHandle: (r.approver_handle as string | null) ?? null,
    rightsCheckedAt: (r.rights_checked_at as Date | null) ?? null,
    sentChatId: r.sent_chat_id == null ? null : Number(r.sent_chat_id),
  };
}

/**
 * Before a preview or a publication (README "Trust model"): does the pinned approver still
 * administer the channel, and may the bot still post there? A confirmation younger than
 * RIGHTS_FRESH_MS is reused. Answers the reason the post fails, or null to go on; throws
 * when Telegram gives no definite answer (the job is retried).
 */
export async function lostChannelRights(telegram: Api, query: Query, post: Delivery): Promise<string | null> {
  if (post.channelId === null || post.channelChatId === null || post.adminChatId === null) return null;
  if (post.rightsCheckedAt && Date.now() - new Date(post.rightsCheckedAt).getTime() < RIGHTS_FRESH_MS) return null;
  const problem = await channelRightsProblem(telegram, post.channelChatId, post.adminChatId);
  if (problem) return lostRightsReason(problem, post.approverHandle ?? String(post.adminChatId), post.channelLink ?? "");
  await query("select app_public.record_channel_rights_checked($1, $2)", [post.channelId, post.adminChatId]);
  return null;
}
