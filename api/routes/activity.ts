/* A project's activity log (GET /api/projects/{id}/activity, docs/teams.md): one SQL call. */
import { Hono } from "hono";
import * as v from "valibot";
import { ACTIVITY_PAGE_SIZE, ActivityQuery, type ActivityItem } from "../../contract/activity.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { idParam, queryError } from "../validate.ts";

export function activityRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const query = v.safeParse(ActivityQuery, c.req.query());
      if (!query.success) throw queryError(query.issues, "activity.queryInvalid");
      const { before, limit = ACTIVITY_PAGE_SIZE, actor, action } = query.output;
      // one more than the page says whether there is a next one
      const rows = await sql<ActivityItem[]>`
        select * from app_public.project_activity(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${before ?? null}, ${limit + 1}, ${actor ?? null}, ${action ?? null})`;
      const items = rows.slice(0, limit);
      return c.json({ items, next: rows.length > limit ? items[items.length - 1].id : null });
    });
}
