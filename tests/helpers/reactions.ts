/*
 * Published posts with reactions, for the rules that read them (best times, suggested times):
 * a post row as posts__publish leaves it, and its counts recorded through the same SQL rule the
 * bot calls for a message_reaction_count update (app_public.record_reaction_count).
 */
import type postgres from "postgres";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
let nextId = 900_000 + Math.floor(Math.random() * 1_000_000) * 100;

/**
 * The moment of `weekday` (1 = Monday) at `hour` in a zone `offsetHours` from UTC with no
 * daylight saving (Moscow +3, Tokyo +9), `weeksBack` weeks before last week: always past, and
 * within the last 90 days for weeksBack ≤ 10.
 */
export function pastWeekAt(offsetHours: number, weekday: number, hour: number, weeksBack = 0): Date {
  const local = new Date(Date.now() + offsetHours * HOUR_MS);
  const mondayLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - ((local.getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(mondayLocal - (weeksBack + 1) * 7 * DAY_MS + (weekday - 1) * DAY_MS + hour * HOUR_MS - offsetHours * HOUR_MS);
}

/** Publishes one post at `at` in the channel `chatId`, and records `reactions` 👍 on it (none: no update, as Telegram sends none). */
export async function publishedWithReactions(sql: postgres.Sql | postgres.TransactionSql, projectId: number | string, chatId: number | string, at: Date, reactions: number) {
  const messageId = nextId++;
  const [{ id }] = await sql<{ id: string }[]>`
    insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, channel_chat_id, channel_message_ids)
    values (${projectId}, 'Published', 'A published post', 'published', ${at}, ${at}, ${chatId}, ${sql.json([messageId])})
    returning id`;
  if (reactions > 0) {
    await sql`select app_public.record_reaction_count(${nextId++}, ${chatId}, ${messageId}, ${at}::timestamptz,
      ${sql.json([{ type: { type: "emoji", emoji: "👍" }, total_count: reactions }])})`;
  }
  return Number(id);
}
