/* The content plan's slots of a project (spec §3 Content plan) and the times it suggests: each handler is one SQL call. */
import { Hono } from "hono";
import { type ContentPlan, ContentPlanCreateSchema, ContentPlanUpdateSchema, type QueueHealth, type SuggestedTimes } from "../../contract/content_plans.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { versionedList } from "../revalidate.ts";
import { body, idParam } from "../validate.ts";

export function contentPlanRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      return await versionedList(
        c,
        sql,
        "plans",
        () => sql`app_public.content_plans_version(${userId}, ${projectId})`,
        (version) => sql`select ${version}, * from app_public.project_content_plans(${userId}, ${projectId})`,
      );
    })
    .get("/suggested-times", async (c) => {
      const [{ suggested }] = await sql<{ suggested: SuggestedTimes }[]>`
        select app_public.project_suggested_times(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}) as suggested`;
      return c.json(suggested);
    })
    .post("/", body(ContentPlanCreateSchema), async (c) => {
      const p = c.req.valid("json");
      const [row] = await sql<ContentPlan[]>`
        select * from app_public.create_content_plan(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${p.dayOfWeek}, ${p.time}, ${p.timezone}, ${p.postLength}, ${p.active})`;
      return c.json(row, 201);
    })
    .patch("/:planId", body(ContentPlanUpdateSchema), async (c) => {
      const changes = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, value]) => value !== undefined));
      const [row] = await sql<ContentPlan[]>`
        select * from app_public.update_content_plan(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("planId"))}, ${sql.json(changes)})`;
      return c.json(row);
    })
    .delete("/:planId", async (c) => {
      await sql`select app_public.delete_content_plan(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${idParam(c.req.param("planId"))})`;
      return c.json({ ok: true });
    });
}

/** The drafts queue's forecast (GET /api/projects/{id}/queue-health): one SQL call. */
export function queueHealthRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const [row] = await sql<QueueHealth[]>`
        select * from app_public.queue_health(${currentUser(c).id}, ${idParam(c.req.param("projectId"))})`;
      return c.json(row);
    });
}
