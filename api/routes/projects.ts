/*
 * Projects (spec §2 Dashboard/Project page, §3, §5, §7), and the home cards' figures of them
 * all (GET /overview): each handler is one SQL call, but
 * for a new admin handle on a project with a connected channel, which Telegram must first
 * confirm as an administrator of that channel; the new admin is then asked in the bot, and
 * the old one stays until they allow it (docs/trust-model.md).
 */
import { Hono } from "hono";
import { ProjectCreateSchema, ProjectUpdateSchema } from "../../contract/projects.ts";
import type { ProjectOverview } from "../../contract/stats.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { body, idParam } from "../validate.ts";
import { confirmApprover, requireTelegram } from "../../core/telegram/checks.ts";

export function projectRoutes({ sql, telegram, config }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => {
      const only = c.get("apiToken")?.projectId ?? null;
      const rows = await sql`select (project).*, role from app_public.user_projects(${currentUser(c).id})
        where ${only}::bigint is null or (project).id = ${only}`;
      return c.json(rows);
    })
    // The home cards' figures, every project's in one read (docs/statistics.md); registered
    // before "/:id", which would read "overview" as a project id.
    .get("/overview", async (c) => {
      const only = c.get("apiToken")?.projectId ?? null;
      const rows = await sql<ProjectOverview[]>`select * from app_public.account_project_overview(${currentUser(c).id})
        where ${only}::bigint is null or project_id = ${only}`;
      return c.json(rows);
    })
    .post("/", body(ProjectCreateSchema), async (c) => {
      const p = c.req.valid("json");
      const [row] = await sql`
        select * from app_public.create_project(
          ${currentUser(c).id}, ${p.name}, ${p.description}, ${sql.json(p.writingStyle)}, ${p.adminHandle},
          ${p.timezone}, ${p.language}, ${p.sources}, ${config.limits.projectsPerAccount})`;
      return c.json({ ...row, role: "owner" }, 201);
    })
    .get("/:id", async (c) => {
      const [row] = await sql`select (project).*, role from app_public.member_project(${currentUser(c).id}, ${idParam(c.req.param("id"))})`;
      return c.json(row);
    })
    .patch("/:id", body(ProjectUpdateSchema), async (c) => {
      const changes = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, v]) => v !== undefined));
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("id"));
      let approver: { userId: number; handle: string; name: string; chatId: number } | null = null;
      if (typeof changes.adminHandle === "string") {
        // No row: no channel to check against, or the handle is the same.
        const [need] = await sql<{ connectedChatId: number; channelLink: string; approverUserId: number }[]>`
          select * from app_public.approver_change_prerequisites(${userId}, ${projectId}, ${changes.adminHandle})`;
        if (need) {
          const handle = changes.adminHandle.trim().replace(/^@/, "");
          const name = await confirmApprover(requireTelegram(telegram), need.connectedChatId, need.channelLink, {
            userId: need.approverUserId,
            handle,
          });
          approver = { userId: need.approverUserId, handle, name, chatId: need.connectedChatId };
        }
      }
      const [row] = await sql`
        select * from app_public.update_project(${userId}, ${projectId}, ${sql.json(changes)},
          ${approver ? sql.json(approver) : null})`;
      // only an owner may change a project (project.update)
      return c.json({ ...row, role: "owner" });
    })
    .delete("/:id", async (c) => {
      await sql`select app_public.delete_project(${currentUser(c).id}, ${idParam(c.req.param("id"))})`;
      return c.json({ ok: true });
    });
}
