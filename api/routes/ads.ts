/*
 * The ad report (docs/ads.md, "Ad report"): the ads of a period with their format's times, reactions
 * and prices, and the totals per currency, in one SQL call. The period is the Statistics page's
 * (the same defaults, limits and codes). Any member reads it; another account's project answers 404.
 */
import { Hono } from "hono";
import type { AdReport } from "../../contract/ads.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { idParam, statsRange } from "../validate.ts";

export function adRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
    const projectId = idParam(c.req.param("projectId"));
    const { from, to } = statsRange(c.req.query());
    const [{ report }] = await sql<{ report: AdReport }[]>`
      select app_public.project_ads(${currentUser(c).id}, ${projectId}, ${from}::timestamptz, ${to}::timestamptz) as report`;
    return c.json(report);
  });
}
