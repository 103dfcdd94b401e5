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
 * The same answer when the caller knows a version of what it answers (the project's posts
 * version): an unchanged version costs the 304 without `load` running at all. The version
 * must be read before the rows, so that rows read after a change never go out under the
 * older tag. `variant` tells apart answers of one version (e.g. two date ranges).
 */
export async function versionedJson(c: Context, version: number | string, variant: string, load: () => Promise<unknown>) {
  const tag = `"v${version}-${createHash("sha256").update(variant).digest("base64url").slice(0, 12)}"`;
  const headers = { ETag: tag, "Cache-Control": "private, no-cache" };
  if (matches(c.req.header("if-none-match"), tag)) return c.body(null, 304, headers);
  return c.body(JSON.stringify(await load()), 200, { ...headers, "Content-Type": "application/json" });
}
