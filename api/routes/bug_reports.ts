/*
 * Bug reports from the floating button (spec §2, §5, §7): multipart with a description, an
 * optional screenshot checked by its bytes like any upload, and where the reporter was.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { BugReportFormSchema } from "../../contract/bug_reports.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { issueError } from "../validate.ts";
import { parseMultipart, readImageField, storeUpload } from "../multipart.ts";

/** A file input left empty still sends a part: a nameless, empty file means "no screenshot". */
function hasFile(form: FormData, field: string) {
  const value = form.get(field);
  return value !== null && !(value instanceof File && value.size === 0 && value.name === "");
}

export function bugReportRoutes(deps: ApiDeps) {
  const { sql, config } = deps;
  return new Hono<AppEnv>()
    .use(requireUser)
    .post("/", async (c) => {
      const user = currentUser(c);
      const form = await parseMultipart(c.req.raw);
      const fields = v.safeParse(BugReportFormSchema, {
        description: form.get("description"),
        pageUrl: form.get("pageUrl") ?? c.req.header("referer"),
      });
      if (!fields.success) throw issueError(fields.issues[0]);

      let screenshotUrl: string | null = null;
      if (hasFile(form, "screenshot")) {
        // tracked first, so a report that then fails leaves a file the cleanup task removes
        screenshotUrl = await storeUpload(deps, user.id, null, await readImageField(form, "screenshot"));
      }

      const [report] = await sql<{ id: number; status: string }[]>`
        select id, status from app_public.create_bug_report(${user.id}, ${fields.output.description}, ${screenshotUrl},
          ${fields.output.pageUrl}, ${c.req.header("user-agent") ?? null}, ${config.limits.bugReportsPerDay})`;
      return c.json({ id: report.id, status: report.status }, 201);
    });
}
