/*
 * Lists that clients poll or refetch (the schedule's posts every 5 seconds, the drafts list,
 * the Published pages, the content plan) are answered with an ETag and `Cache-Control:
 * private, no-cache`: the browser asks "changed?" with If-None-Match, and an unchanged list
 * costs a 304 without a body instead of the whole list again.
 *
 * The ETag is a version the database bumps in the statement that changes the list (posts,
 * drafts, content plans: statement-level triggers), so the 304 costs one indexed lookup,
 * never reading or hashing the rows.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type postgres from "postgres";
import type { Sql } from "../core/db.ts";
import { ApiError } from "../core/errors.ts";

function matches(ifNoneMatch: string, tag: string) {
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
}

type VersionedRow = { listVersion: string | number | null };

/**
 * A list with a version as its ETag. `version` is the SQL expression of the list's version
 * (null when the user may not see the project: the answer is then projects.notFound). While
 * the caller's If-None-Match holds, the answer is a 304 after that one read. Otherwise `rows`
 * is given the version as a column to select beside the rows (`(select …) as list_version`),
 * so rows and version come from one snapshot in one round trip and rows never go out under
 * an older version's tag. `variant` tells apart answers of one version (two date ranges,
 * two views).
 */
export async function versionedList(
  c: Context,
  sql: Sql,
  variant: string,
  version: () => postgres.Fragment,
  rows: (versionColumn: postgres.Fragment) => PromiseLike<readonly object[]>,
) {
  const variantTag = createHash("sha256").update(variant).digest("base64url").slice(0, 12);
  const tagOf = (v: string | number) => `"v${v}-${variantTag}"`;
  const readVersion = async () => (await sql<VersionedRow[]>`select ${version()} as list_version`)[0].listVersion;
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch) {
    const current = await readVersion();
    if (current !== null && matches(ifNoneMatch, tagOf(current))) {
      return c.body(null, 304, { ETag: tagOf(current), "Cache-Control": "private, no-cache" });
    }
  }
  // a scalar subquery keeps a SQL function's rows inlined: as a join it cost 3× the time
  const listed = (await rows(sql`(select ${version()}) as list_version`)) as readonly VersionedRow[];
  // no rows: the version is asked alone (it also says whether the project is the user's)
  const current = listed.length === 0 ? await readVersion() : listed[0].listVersion;
  if (current === null) throw new ApiError("projects.notFound");
  const body = JSON.stringify(listed.map(({ listVersion: _, ...row }) => row));
  return c.body(body, 200, { ETag: tagOf(current), "Cache-Control": "private, no-cache", "Content-Type": "application/json" });
}

/**
 * `?view=`: the lean shape a screen asks for (docs/performance.md); without it, the spec's
 * whole objects. Another value is a 400, never silently the whole list.
 */
export function listView<View extends string>(c: Context, views: readonly View[]): View | "full" {
  const view = c.req.query("view");
  if (view === undefined) return "full";
  if (!(views as readonly string[]).includes(view)) throw new ApiError("lists.unknownView", { params: { views: views.join(", ") } });
  return view as View;
}
