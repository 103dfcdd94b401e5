/* A recurring series' next occurrence (rotation lives in app_public.spawn_series_occurrence). */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";

const Payload = v.object({ seriesId: v.number() });

export const spawnOccurrence = (sql: Sql): Task => async (payload, helpers) => {
  const parsed = v.safeParse(Payload, payload);
  if (!parsed.success) return helpers.logger.error("posts__spawn_occurrence: malformed payload, dropped");
  await sql`select app_public.spawn_series_occurrence(${parsed.output.seriesId})`;
};
