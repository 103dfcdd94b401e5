/*
 * The hourly pass that queues the weekly summaries due (Monday from 09:00 in each project's
 * timezone; app_public.queue_weekly_summaries marks the week and queues the mail together, so
 * running it twice sends nothing twice). Run by the crontab; `at` in the payload runs the
 * pass as of that moment (a test's Monday morning, an operator making up a missed one).
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";

const Payload = v.object({ at: v.optional(v.pipe(v.string(), v.isoTimestamp())) });

export function queueWeeklySummaries(sql: Sql): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload ?? {});
    const at = parsed.success && parsed.output.at ? new Date(parsed.output.at) : new Date();
    if (!parsed.success) helpers.logger.warn("weekly_summaries__queue: payload not understood, the pass runs as of now");
    await sql`select app_public.queue_weekly_summaries(${at})`;
  };
}
