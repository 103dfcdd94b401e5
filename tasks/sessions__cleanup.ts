/*
 * Daily (the worker's crontab): expired sessions and sign-in codes are deleted, the stored
 * answers of idempotent requests once their 24 hours are over, and webhook deliveries older
 * than 30 days that are done.
 */
import type { Task } from "graphile-worker";
import type { Sql } from "../core/db.ts";

export const cleanupSessions = (sql: Sql): Task => async () => {
  await sql`select app_public.delete_expired_sign_in_state()`;
  await sql`select app_public.prune_idempotency_keys()`;
  await sql`select app_public.prune_webhook_deliveries()`;
};
