/* A recurring series' next occurrence (rotation lives in app_public.spawn_series_occurrence). */
import type { Task } from "graphile-worker";
import * as v from "valibot";

const Payload = v.object({ seriesId: v.number() });

export const spawnOccurrence: Task = async (payload, helpers) => {
  const parsed = v.safeParse(Payload, payload);
  if (!parsed.success) return helpers.logger.error("posts__spawn_occurrence: malformed payload, dropped");
  await helpers.query("select app_public.spawn_series_occurrence($1)", [parsed.output.seriesId]);
};
