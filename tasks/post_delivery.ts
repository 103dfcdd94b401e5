/* The post_delivery rows the worker reads, in core/db.ts's shape (camelCase, int8 as numbers, ISO times). */
import type { Api } from "grammy";
import type { MessageEntity } from "../contract/entities.ts";
import type { PostOptions } from "../contract/post_options.ts";
import type { PostReason, PostReasonParams } from "../contract/post_reasons.ts";
import type { Sql } from "../core/db.ts";
import { channelRightsProblem, lostRightsReason, RIGHTS_FRESH_MS } from "../core/telegram/channel_rights.ts";

/** The SQL functions that answer one app_public.post_delivery (never a name from outside). */
type DeliveryFunction =
  | "app_public.post_delivery_info"
  | "app_public.begin_sending"
  | "app_public.claim_post_for_approval"
  | "app_public.claim_approval_reminder";

export type Delivery = {
  postId: number;
  status: string;
  title: string;
  content: string;
  imageUrl: string | null;
  scheduledFor: string;
  channelChatId: number | null;
  channelLink: string | null;
  adminChatId: number | null;
  /**
   * The approval preview: once sent, the approver's chat, its messages and the one with the
   * buttons (before that, the claim of the job sending it); its round names it in the buttons.
   */
  approvalPreview: { chatId?: number; messageIds?: number[]; buttonsMessageId?: number; round?: number };
  channelMessageIds: number[];
  /** Why the post failed or is uncertain (contract/post_reasons.ts). */
  lastErrorCode: string | null;
  lastErrorParams: PostReasonParams | null;
  projectLanguage: string;
  projectTimezone: string;
  /** The project's connected channel, its pinned approver and when Telegram last confirmed both. */
  channelId: number | null;
  approverHandle: string | null;
  rightsCheckedAt: string | null;
  /** The chat holding channelMessageIds (what an earlier attempt left), when any. */
  sentChatId: number | null;
  /** The text's formatting and how the post goes out (docs/post-format.md). */
  entities: MessageEntity[];
  options: PostOptions;
  /** The album, first image first (imageUrl is its first image). */
  imageUrls: string[];
};

/** Calls a SQL function answering app_public.post_delivery; null when it answers null. */
export async function deliveryQuery(sql: Sql, fn: DeliveryFunction, args: (number | string)[]): Promise<Delivery | null> {
  const placeholders = args.map((_, i) => `$${i + 1}`).join(", ");
  const [row] = await sql.unsafe<Delivery[]>(
    `select (d).post_id, (d).status, (d).title, (d).content, (d).image_url, (d).scheduled_for, (d).channel_chat_id,
            (d).channel_link, (d).admin_chat_id, coalesce((d).approval_preview, '{}') as approval_preview,
            coalesce((d).channel_message_ids, '{}') as channel_message_ids, (d).last_error_code, (d).last_error_params,
            coalesce((d).project_language, 'ru') as project_language,
            coalesce((d).project_timezone, app_private.default_timezone()) as project_timezone,
            (d).channel_id, (d).approver_handle, (d).rights_checked_at, (d).sent_chat_id,
            coalesce((d).entities, '[]') as entities, coalesce((d).options, '{}') as options,
            coalesce((d).image_urls, '{}') as image_urls
     from (select ${fn}(${placeholders}) as d) s where (d).post_id is not null`,
    args,
  );
  return row ?? null;
}

/**
 * Before a preview or a publication (docs/trust-model.md): does the pinned approver still
 * administer the channel, and may the bot still post there? A confirmation younger than
 * RIGHTS_FRESH_MS is reused. Answers the reason the post fails (a code and params), or null to go on; throws
 * when Telegram gives no definite answer (the job is retried).
 */
export async function lostChannelRights(telegram: Api, sql: Sql, post: Delivery): Promise<PostReason | null> {
  if (post.channelId === null || post.channelChatId === null || post.adminChatId === null) return null;
  if (post.rightsCheckedAt && Date.now() - Date.parse(post.rightsCheckedAt) < RIGHTS_FRESH_MS) return null;
  const problem = await channelRightsProblem(telegram, post.channelChatId, post.adminChatId);
  if (problem) return lostRightsReason(problem, post.approverHandle ?? String(post.adminChatId), post.channelLink ?? "");
  await sql`select app_public.record_channel_rights_checked(${post.channelId}, ${post.adminChatId})`;
  return null;
}
