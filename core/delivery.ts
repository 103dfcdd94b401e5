/*
 * The publish act's record (docs/publishing.md "Names along the publish act"): one row of
 * the view app_public.post_deliveries, read by name wherever a task or the bot sends a post
 * or speaks to its approver. Its fields keep the names of the columns they come from;
 * tests/sql/post_deliveries.test.ts compares DELIVERY_FIELDS with the view's columns.
 */
import type { Ad } from "../contract/ads.ts";
import type { MessageEntity } from "../contract/entities.ts";
import type { PostOptions } from "../contract/post_options.ts";
import type { PostReasonParams } from "../contract/post_reasons.ts";
import type { Sql } from "./db.ts";

export type Delivery = {
  postId: number;
  status: string;
  title: string;
  content: string;
  /** The text's formatting and how the post goes out (docs/post-format.md). */
  entities: MessageEntity[];
  options: PostOptions;
  /** The album's first image, and the album, first image first. */
  imageUrl: string | null;
  imageUrls: string[];
  scheduledFor: string;
  /**
   * The approval preview: once sent, the approver's chat, its messages and the one with the
   * buttons (before that, the claim of the job sending it); its round names it in the buttons.
   */
  approvalPreview: { chatId?: number; messageIds?: number[]; buttonsMessageId?: number; round?: number };
  /** The chat the post's messages went to (what an earlier attempt left, or the published post), and their ids there. */
  channelChatId: number | null;
  channelMessageIds: number[];
  /** Why the post failed or is uncertain (contract/post_reasons.ts). */
  lastErrorCode: string | null;
  lastErrorParams: PostReasonParams | null;
  projectLanguage: string;
  projectTimezone: string;
  /** The project's connected channel now (null without one): its row, its chat and its @link or t.me link. */
  channelId: number | null;
  connectedChatId: number | null;
  channelLink: string | null;
  /** The channel's pinned approver (their private chat has the same id) and when Telegram last confirmed both. */
  approverUserId: number | null;
  approverHandle: string | null;
  rightsCheckedAt: string | null;
  /** A sold post: its label goes out as the last line (contract/ads.ts), in projectLanguage. */
  ad: Ad | null;
};

/** The record's fields in the view's order: what the test holds against the database. */
export const DELIVERY_FIELDS = [
  "postId", "status", "title", "content", "entities", "options", "imageUrl", "imageUrls", "scheduledFor",
  "approvalPreview", "channelChatId", "channelMessageIds", "lastErrorCode", "lastErrorParams",
  "projectLanguage", "projectTimezone", "channelId", "connectedChatId", "channelLink",
  "approverUserId", "approverHandle", "rightsCheckedAt", "ad",
] as const satisfies readonly (keyof Delivery)[];

// every field of Delivery is listed: a field added to one and not the other fails the type check
type Unlisted = Exclude<keyof Delivery, (typeof DELIVERY_FIELDS)[number]>;
const everyFieldListed: Unlisted extends never ? true : Unlisted = true;
void everyFieldListed;

/** The SQL functions that answer one row of app_public.post_deliveries (never a name from outside). */
export type DeliveryFunction =
  | "app_public.post_delivery_info"
  | "app_public.begin_sending"
  | "app_public.claim_post_for_approval"
  | "app_public.claim_approval_reminder";

/** Calls a SQL function answering a row of app_public.post_deliveries; null when it answers none. */
export async function deliveryQuery(sql: Sql, fn: DeliveryFunction, args: (number | string)[]): Promise<Delivery | null> {
  const placeholders = args.map((_, i) => `$${i + 1}`).join(", ");
  const [row] = await sql.unsafe<Delivery[]>(`select * from ${fn}(${placeholders}) where post_id is not null`, args);
  return row ?? null;
}
