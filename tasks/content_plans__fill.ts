/*
 * Autopilot: a project's content plan slots fill the calendar from the drafts queue (the
 * rules live in app_public.autopilot_fill; queued when a slot changes and hourly by
 * content_plans__fill_all).
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";

const Payload = v.object({ projectId: v.number() });

export const fillPlan = (sql: Sql): Task => async (payload, helpers) => {
  const parsed = v.safeParse(Payload, payload);
  if (!parsed.success) return helpers.logger.error("content_plans__fill: malformed payload, dropped");
  await sql`select id from app_public.autopilot_fill(${parsed.output.projectId})`;
};
