/* The post_delivery rows the worker reads (graphile-worker queries with `pg`: snake_case, int8 as text). */

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
};

/** Calls a SQL function answering app_public.post_delivery; null when it answers null. */
// deno-lint-ignore no-explicit-any
type Query = (text: string, values?: any[]) => Promise<{ rows: any[] }>;

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
  };
}
