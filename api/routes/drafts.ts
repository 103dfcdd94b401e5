/* Drafts of a project (spec §2 Drafts, §5, §7): each handler is one SQL call. */
import { Hono } from "hono";
import { BulkAddSchema, DraftCreateSchema, DraftUpdateSchema, MoveDraftSchema, ReorderSchema } from "../../contract/drafts.ts";
import type { Draft, DraftMoved } from "../../contract/drafts.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { ownProjectList } from "../ownership.ts";
import { body, idParam } from "../validate.ts";

type DraftRow = Omit<Draft, "order"> & { sortOrder: number; updatedAt: string };

export function toDraft(r: DraftRow): Draft {
  return {
    id: r.id,
    projectId: r.projectId,
    title: r.title,
    content: r.content,
    entities: r.entities,
    imageUrl: r.imageUrl,
    imageUrls: r.imageUrls,
    options: r.options,
    order: r.sortOrder,
    status: r.status,
    createdAt: r.createdAt,
  };
}

export function draftRoutes({ sql, config }: ApiDeps) {
  const maxDrafts = config.limits.draftsPerProject;
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const rows = await sql<DraftRow[]>`select * from app_public.project_drafts(${userId}, ${projectId})`;
      return c.json((await ownProjectList(sql, userId, projectId, rows)).map(toDraft));
    })
    .post("/", body(DraftCreateSchema), async (c) => {
      const d = c.req.valid("json");
      const [row] = await sql<DraftRow[]>`
        select * from app_public.create_draft(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${d.title}, ${d.content}, ${d.imageUrl}, ${d.order}, ${maxDrafts}, ${sql.json(d.entities ?? [])}, ${sql.json(d.options ?? {})},
          ${d.imageUrls ?? null}::text[])`;
      return c.json(toDraft(row), 201);
    })
    .post("/bulk", body(BulkAddSchema), async (c) => {
      const rows = await sql<DraftRow[]>`
        select * from app_public.bulk_create_drafts(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${c.req.valid("json").titles}::text[], ${maxDrafts})`;
      return c.json(rows.map(toDraft), 201);
    })
    .post("/reorder", body(ReorderSchema), async (c) => {
      await sql`select app_public.reorder_drafts(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${sql.json(c.req.valid("json").drafts)})`;
      return c.json({ ok: true });
    })
    // A drag saves one draft's place, not the whole list (README "Performance").
    .post("/:draftId/move", body(MoveDraftSchema), async (c) => {
      const [moved, ...respaced] = await sql<{ draftId: number; draftOrder: number }[]>`
        select * from app_public.move_draft(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("draftId"))}, ${c.req.valid("json").afterId})`;
      const answer: DraftMoved = {
        id: moved.draftId,
        order: moved.draftOrder,
        respaced: respaced.map((row) => ({ id: row.draftId, order: row.draftOrder })),
      };
      return c.json(answer);
    })
    .patch("/:draftId", body(DraftUpdateSchema), async (c) => {
      const changes = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, v]) => v !== undefined));
      const [row] = await sql<DraftRow[]>`
        select * from app_public.update_draft(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("draftId"))}, ${sql.json(changes)})`;
      return c.json(toDraft(row));
    })
    .delete("/:draftId", async (c) => {
      await sql`select app_public.delete_draft(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${idParam(c.req.param("draftId"))})`;
      return c.json({ ok: true });
    });
}
