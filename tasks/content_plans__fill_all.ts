/* Hourly (the worker's crontab): one content_plans__fill job per project with an active slot. */
import type { Task } from "graphile-worker";
import type { Sql } from "../core/db.ts";

export const fillAllPlans = (sql: Sql): Task => async () => {
  await sql`select app_public.queue_autopilot_fills()`;
};
