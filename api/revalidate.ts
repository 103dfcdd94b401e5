/*
 * JSON that clients poll or revisit (the schedule's posts every 5 seconds, the Published
 * list) is answered with an ETag and `Cache-Control: private, no-cache`: the browser asks
 * "changed?" with If-None-Match, and an unchanged list costs a 304 without a body instead of
 * the whole list again. A channel with years of posts would otherwise send the same
 * megabyte every 5 seconds per open tab.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";

function matches(ifNoneMatch: string | undefined, tag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
}

export function revalidatedJson(c: Context, value: unknown) {
  const body = JSON.stringify(value);
  // node:crypto hashes synchronously in native code: crypto.subtle's promise cost ~20% of
  // the posts list's throughput in bench:api.
  const tag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 24)}"`;
  const headers = { ETag: tag, "Cache-Control": "private, no-cache" };
  if (matches(c.req.header("if-none-match"), tag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, "Content-Type": "application/json" });
}

/**
 * An answer with a version (the project's posts version) as its ETag. A caller that sends
 * If-None-Match costs one cheap read (`version`) while nothing changed: the 304. Otherwise
 * `load` answers the version and the rows from one snapshot, in one round trip, so rows
 * never go out under an older version's tag. `variant` tells apart answers of one version
 * (e.g. two date ranges). `load`'s version is null when the caller may not see the data.
 */
export async function versionedJson(
  c: Context,
  variant: string,
  version: () => Promise<number | null>,
  load: () => Promise<{ version: number | null; rows: unknown[] }>,
) {
  const tagOf = (v: number) => `"v${v}-${createHash("sha256").update(variant).digest("base64url").slice(0, 12)}"`;
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch) {
    const current = await version();
    if (current !== null && matches(ifNoneMatch, tagOf(current))) {
      return c.body(null, 304, { ETag: tagOf(current), "Cache-Control": "private, no-cache" });
    }
  }
  const answer = await load();
  if (answer.version === null) return null;
  const headers = { ETag: tagOf(answer.version), "Cache-Control": "private, no-cache" };
  return c.body(JSON.stringify(answer.rows), 200, { ...headers, "Content-Type": "application/json" });
}
