/* Drafts of a project (spec §2 Drafts, §5, §7): each handler is one SQL call. */
import { Hono } from "hono";
import { BulkAddSchema, DRAFT_LIST_VIEWS, DraftCreateSchema, DraftUpdateSchema, MoveDraftSchema, ReorderSchema } from "../../contract/drafts.ts";
import type { Draft, DraftHolder, DraftMoved } from "../../contract/drafts.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { listView, versionedList } from "../revalidate.ts";
import { body, idParam } from "../validate.ts";
import { DRAFT_EXCERPT_LENGTH } from "../../contract/limits.ts";
import { ApiError } from "../../core/errors.ts";
import { dbOf, idempotent, ifMatch } from "../middleware/idempotency.ts";

type DraftRow = Omit<Draft, "order" | keyof DraftHolder> & { sortOrder: number; updatedAt: string } & Partial<DraftHolder>;

/** What holds a draft, or which series takes it next (project_drafts). */
const HOLDER_COLUMNS = `scheduled_post_id, held_by_series_id, held_by_plan_id, next_for_series_id`;

/** The whole draft as the spec's list answers it. */
export const DRAFT_COLUMNS =
  `id, project_id, title, content, entities, image_url, image_urls, options, ad, sort_order as "order", status, created_at, ${HOLDER_COLUMNS}`;

/**
 * The list's lean view (DraftSummary): the excerpt is one character longer than the list
 * shows, so the list knows to end it with "…" (characters are code points in both).
 */
export const SUMMARY_COLUMNS = `id, project_id, title, left(btrim(content), ${DRAFT_EXCERPT_LENGTH + 1}) as excerpt, nullif(image_url, '') as image_url,
  greatest(cardinality(image_urls), (coalesce(image_url, '') <> '')::int) as image_count, sort_order as "order", status, created_at, ${HOLDER_COLUMNS}`;

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
    ad: r.ad ?? null,
    order: r.sortOrder,
    status: r.status,
    createdAt: r.createdAt,
    // the list and one draft's read say which post holds it; a write's answer does not
    ...(r.scheduledPostId === undefined ? {} : {
      scheduledPostId: r.scheduledPostId,
      heldBySeriesId: r.heldBySeriesId ?? null,
      heldByPlanId: r.heldByPlanId ?? null,
      nextForSeriesId: r.nextForSeriesId ?? null,
    }),
  };
}

export function draftRoutes({ sql, config }: ApiDeps) {
  const maxDrafts = config.limits.draftsPerProject;
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const view = listView(c, DRAFT_LIST_VIEWS);
      // The whole drafts are the spec's answer; `?view=list` is what the drafts list shows.
      const columns = view === "list" ? SUMMARY_COLUMNS : DRAFT_COLUMNS;
      return await versionedList(
        c,
        sql,
        view,
        () => sql`app_public.drafts_version(${userId}, ${projectId})`,
        (version) => sql`select ${version}, ${sql.unsafe(columns)} from app_public.project_drafts(${userId}, ${projectId})`,
      );
    })
    // The whole draft, for the editor (the list's lean view has an excerpt only).
    .get("/:draftId", async (c) => {
      const draftId = idParam(c.req.param("draftId"));
      const [row] = await sql<(DraftRow & { etag: string })[]>`
        select *, app_private.etag(id, updated_at) as etag
        from app_public.project_drafts(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}) where id = ${draftId}`;
      if (!row) throw new ApiError("drafts.notFound");
      // its version, for If-Match on its update (docs/api.md)
      c.header("ETag", row.etag);
      return c.json(toDraft(row));
    })
    .post("/", idempotent(sql), body(DraftCreateSchema), async (c) => {
      const d = c.req.valid("json");
      const [row] = await dbOf(c, sql)<DraftRow[]>`
        select * from app_public.create_draft(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${d.title}, ${d.content}, ${d.imageUrl}, ${d.order}, ${maxDrafts}, ${sql.json(d.entities ?? [])}, ${sql.json(d.options ?? {})},
          ${d.imageUrls ?? null}::text[], ${d.ad ? sql.json(d.ad) : null})`;
      return c.json(toDraft(row), 201);
    })
    .post("/bulk", idempotent(sql), body(BulkAddSchema), async (c) => {
      const rows = await dbOf(c, sql)<DraftRow[]>`
        select * from app_public.bulk_create_drafts(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${c.req.valid("json").titles}::text[], ${maxDrafts})`;
      return c.json(rows.map(toDraft), 201);
    })
    .post("/reorder", body(ReorderSchema), async (c) => {
      await sql`select app_public.reorder_drafts(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${sql.json(c.req.valid("json").drafts)})`;
      return c.json({ ok: true });
    })
    // A drag saves one draft's place, not the whole list (docs/performance.md).
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
    .patch("/:draftId", ifMatch(sql, "draft", "draftId"), body(DraftUpdateSchema), async (c) => {
      const changes = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, v]) => v !== undefined));
      const [row] = await dbOf(c, sql)<(DraftRow & { etag: string })[]>`
        select *, app_private.etag(id, updated_at) as etag from app_public.update_draft(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("draftId"))}, ${sql.json(changes)})`;
      c.header("ETag", row.etag);
      return c.json(toDraft(row));
    })
    .delete("/:draftId", async (c) => {
      await sql`select app_public.delete_draft(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
        ${idParam(c.req.param("draftId"))})`;
      return c.json({ ok: true });
    });
}
