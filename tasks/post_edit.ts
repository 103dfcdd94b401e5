/*
 * What the two jobs of an edit of a published post share (docs/post-format.md):
 * posts__send_edit_approval asks the approver, posts__apply_edit edits the channel's message.
 * Both read, when they run, whether the post's chat is still the project's channel; once it
 * is not, they log why and touch nothing (docs/trust-model.md).
 */
import * as v from "valibot";
import type { MessageEntity } from "../contract/entities.ts";
import type { UrlButton } from "../contract/post_options.ts";
import type { Sql } from "../core/db.ts";
import { type Delivery, deliveryQuery } from "../core/delivery.ts";

export const EditPayload = v.object({ postId: v.number() });

export type PendingEdit = {
  content: string;
  entities: MessageEntity[];
  buttons: UrlButton[][];
  requestedAt: string;
  approved?: boolean;
};

/**
 * The post and its edit, or null when it is not a published post with one waiting, or when
 * its chat is no longer the project's channel (logged: the job touches nothing then).
 */
export async function postWithEdit(
  sql: Sql,
  postId: number,
  logger: { warn(message: string): void },
): Promise<{ post: Delivery; edit: PendingEdit; publishedAt: string } | null> {
  const [info] = await sql<{ pendingEdit: PendingEdit | null; publishedAt: string; channelChanged: boolean }[]>`
    select * from app_public.post_edit_info(${postId})`;
  if (!info?.pendingEdit) return null;
  if (info.channelChanged) {
    logger.warn(`post ${postId}: its edit is left undone: the post went out in a chat that is no longer the project's channel`);
    return null;
  }
  const post = await deliveryQuery(sql, "app_public.post_delivery_info", [postId]);
  return post ? { post, edit: info.pendingEdit, publishedAt: info.publishedAt } : null;
}
