/*
 * The admin dashboard (spec §2 Admin screens, §3, §7). Every call is refused to a
 * signed-in non-admin (403) and to nobody (401); each handler is one SQL call.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { BugReportsQuery, UsersQuery } from "../../contract/admin.ts";
import {
  type AdminStats,
  type AdminUserRow,
  type BugReport,
  BugReportStatusSchema,
} from "../../contract/bug_reports.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { requireAdmin } from "../middleware/session.ts";
import { body, idParam, queryError } from "../validate.ts";

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
    // by id; `after` is the last id shown; `q` matches any part of the e-mail, any case
    .get("/users", async (c) => {
      const query = v.safeParse(UsersQuery, c.req.query());
      if (!query.success) {
        throw new ApiError("admin.usersQueryInvalid");
      }
      const { limit, after, q } = query.output as { limit: number; after?: number; q?: string };
      const rows = await sql<AdminUserRow[]>`
        select id, email, is_admin, project_count, channel_count, post_count, draft_count
        from app_public.admin_users(${currentUser(c).id}, ${q || null}, ${after ?? null}, ${limit})`;
      return c.json(rows);
    })
    // newest first; `before` (its createdAt as shown) and `beforeId` are the last report shown
    .get("/bug-reports", async (c) => {
      const query = v.safeParse(BugReportsQuery, c.req.query());
      if (!query.success || (query.output.before === undefined) !== (query.output.beforeId === undefined)) {
        throw queryError(query.issues, "admin.bugReportsQueryInvalid");
      }
      const { limit, before, beforeId } = query.output as {
        limit: number;
        before?: string;
        beforeId?: number;
      };
      const rows = await sql<BugReportRow[]>`select * from app_public.admin_bug_reports(${
        currentUser(c).id
      }, ${before ?? null}, ${beforeId ?? null}, ${limit})`;
      return c.json(rows.map(toBugReport));
    })
    .patch("/bug-reports/:id", body(BugReportStatusSchema), async (c) => {
      const [report] = await sql<Omit<BugReport, "user">[]>`
        select * from app_public.set_bug_report_status(${currentUser(c).id}, ${idParam(c.req.param("id"))},
          ${c.req.valid("json").status})`;
      return c.json(report);
    });
}
