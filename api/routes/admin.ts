/*
 * The admin dashboard (spec §2 Admin screens, §3, §7). Every call is refused to a
 * signed-in non-admin (403) and to nobody (401); each handler is one SQL call.
 */
import { Hono } from "hono";
import {
  type AdminStats,
  type AdminUserRow,
  type BugReport,
  BugReportStatusSchema,
} from "../contract/bug_reports.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireAdmin } from "../middleware/session.ts";
import { body, idParam } from "../validate.ts";

type BugReportRow = Omit<BugReport, "user"> & { userEmail: string | null };

/** The reporter travels as `user: { email }` (spec §3); null once their account is gone. */
function toBugReport({ userEmail, ...report }: BugReportRow): BugReport {
  return { ...report, user: userEmail === null ? null : { email: userEmail } };
}

export function adminRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireAdmin)
    .get("/stats", async (c) => {
      const [stats] = await sql<AdminStats[]>`select * from app_public.admin_stats(${currentUser(c).id})`;
      return c.json(stats);
    })
    .get("/users", async (c) => {
      const rows = await sql<AdminUserRow[]>`
        select id, email, is_admin, project_count, channel_count, post_count, draft_count
        from app_public.admin_users(${currentUser(c).id})`;
      return c.json(rows);
    })
    .get("/bug-reports", async (c) => {
      const rows = await sql<BugReportRow[]>`select * from app_public.admin_bug_reports(${
        currentUser(c).id
      })`;
      return c.json(rows.map(toBugReport));
    })
    .patch("/bug-reports/:id", body(BugReportStatusSchema), async (c) => {
      const [report] = await sql<Omit<BugReport, "user">[]>`
        select * from app_public.set_bug_report_status(${currentUser(c).id}, ${idParam(c.req.param("id"))},
          ${c.req.valid("json").status})`;
      return c.json(report);
    });
}
