/*
 * Keeps statistics bounded: raw member events go after 30 days, hourly samples thin to one a
 * day; the daily rollups stay (docs/statistics.md). Run by the crontab.
 */
import type { Task } from "graphile-worker";
import type { Sql } from "../core/db.ts";

export function pruneStats(sql: Sql): Task {
  return async () => {
    await sql`select app_public.prune_stats()`;
  };
}
