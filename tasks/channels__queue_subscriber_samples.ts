/*
 * Every connected channel's hourly subscriber sample, queued spread over the hour so the
 * getChatMemberCount calls never come in one burst (docs/statistics.md). Run by the crontab.
 */
import type { Task } from "graphile-worker";
import type { Sql } from "../core/db.ts";

export function queueSubscriberSamples(sql: Sql): Task {
  return async () => {
    await sql`select app_public.queue_subscriber_samples()`;
  };
}
