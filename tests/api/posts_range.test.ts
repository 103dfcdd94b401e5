/*
 * The calendar reads one range (GET …/posts?from=&to=), and its 5-second refetch is a 304
 * costing one indexed lookup while nothing changed (the project's posts version as ETag).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let cookie: string;
let projectId: number;
let base: string;
let draftIds: number[];
beforeAll(async () => {
  stack = await startStack();
  cookie = (await stack.signIn(uniqueEmail("calendar"))).cookie;
  projectId = (await stack.call("POST", "/api/projects", { name: "Calendar", adminHandle: "calendar_admin" }, cookie)).json.id;
  base = `/api/projects/${projectId}/posts`;
  await stack.sql`insert into app_public.channels (project_id, type, link, status, chat_id, approver_user_id, approver_handle)
                  values (${projectId}, 'telegram', '@calendar_chan', 'connected', -100777, 7, 'calendar_admin')`;
  draftIds = (await stack.call("POST", `/api/projects/${projectId}/drafts/bulk`, { titles: ["Held", "Free"] }, cookie)).json
    .map((d: { id: number }) => d.id);
});
afterAll(() => stack.close());

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
async function post(title: string, at: string, extra: Record<string, unknown> = {}) {
  const columns = { project_id: projectId, title, scheduled_for: new Date(at), status: "published", ...extra };
  const [row] = await stack.sql`insert into app_public.posts ${stack.sql(columns)} returning id`;
  return row.id as number;
}
const titles = (posts: { title: string }[]) => posts.map((p) => p.title).sort();
const range = (from: string, to: string) => `${base}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

describe("the range read", () => {
  test("answers the posts due in [from, to) and the series that reach into it, nothing else", async () => {
    await post("Before", "2026-02-28T23:59:59Z");
    await post("First instant", "2026-03-01T00:00:00Z");
    await post("Inside", "2026-03-15T12:00:00Z");
    await post("At the end (excluded)", "2026-04-01T00:00:00Z");
    await post("Long after", "2027-01-01T00:00:00Z");
    // a live post holding a draft far from the range: not in the range's answer; the drafts
    // list says the draft is taken (the schedule form offers only the free ones)
    const holder = await post("Holds a draft", "2027-06-01T10:00:00Z", { status: "draft", draft_id: draftIds[0] });
    // a series begun before the range and still running; one that stopped before it; one that begins after it
    await post("", "2026-01-10T09:00:00Z", { status: "draft", is_recurring: true, recurring_type: "daily", recurring_last_post: "2026-02-20T09:00:00Z", content: "running" });
    await post("", "2025-12-01T09:00:00Z", { status: "failed", is_recurring: true, recurring_type: "weekly", recurring_last_post: "2026-01-05T09:00:00Z", content: "stopped" });
    await post("", "2026-05-01T09:00:00Z", { status: "draft", is_recurring: true, recurring_type: "daily", content: "later" });

    const res = await stack.call("GET", range("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"), undefined, cookie);
    expect(res.status).toBe(200);
    const posts = res.json as { title: string; content: string; isRecurring: boolean }[];
    expect(titles(posts.filter((p) => !p.isRecurring))).toEqual(["First instant", "Inside"]);
    const drafts = (await stack.call("GET", `/api/projects/${projectId}/drafts`, undefined, cookie)).json as { id: number; scheduledPostId: number | null }[];
    expect(drafts.map((d) => [d.id, d.scheduledPostId])).toEqual([[draftIds[0], holder], [draftIds[1], null]]);
    expect(posts.filter((p) => p.isRecurring).map((p) => p.content)).toEqual(["running"]);
    // without a range: everything, as the spec's call
    const all = (await stack.call("GET", base, undefined, cookie)).json as unknown[];
    expect(all).toHaveLength(9);
    // an offset in the timestamps is the same instant
    const shifted = await stack.call("GET", range("2026-03-01T03:00:00+03:00", "2026-04-01T03:00:00+03:00"), undefined, cookie);
    expect(titles(shifted.json)).toEqual(titles(posts));
  });

  test.each([
    ["only from", "?from=2026-03-01T00:00:00Z", "posts.rangeNotIso"],
    ["only to", "?to=2026-03-01T00:00:00Z", "posts.rangeNotIso"],
    ["unparsable", "?from=yesterday&to=2026-03-01T00:00:00Z", "posts.rangeNotIso"],
    ["a date without a time", "?from=2026-03-01&to=2026-03-20", "posts.rangeNotIso"],
    ["reversed", "?from=2026-03-20T00:00:00Z&to=2026-03-01T00:00:00Z", "posts.rangeReversed"],
    ["empty", "?from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z", "posts.rangeReversed"],
    ["longer than 100 days", "?from=2026-01-01T00:00:00Z&to=2026-04-12T00:00:00Z", "posts.rangeTooLong"],
  ])("a bad range (%s) answers 400 JSON", async (_name, query, code) => {
    const res = await stack.call("GET", `${base}${query}`, undefined, cookie);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(code);
    expect(typeof res.json.message).toBe("string");
  });

  test("exactly 100 days is allowed; another user's project is 404", async () => {
    expect((await stack.call("GET", range("2026-01-01T00:00:00Z", "2026-04-11T00:00:00Z"), undefined, cookie)).status).toBe(200);
    const stranger = (await stack.signIn(uniqueEmail("stranger"))).cookie;
    expect((await stack.call("GET", range("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"), undefined, stranger)).status).toBe(404);
    expect((await stack.call("GET", base, undefined, stranger)).status).toBe(404);
  });

  test("the range read is an index range scan", async () => {
    const [plan] = await stack.sql`explain (format json) select id from app_public.posts
      where project_id = ${projectId} and scheduled_for >= ${day("2026-03-01")} and scheduled_for < ${day("2026-04-01")}`;
    expect(JSON.stringify(plan)).toMatch(/Index (Only )?Scan/);
    expect(JSON.stringify(plan)).toContain("posts_project_scheduled_idx");
  });
});

describe("revalidation by the posts version", () => {
  async function get(path: string, etag?: string) {
    const res = await stack.app.request(path, { headers: { cookie, ...(etag ? { "if-none-match": etag } : {}) } });
    await res.body?.cancel();
    return { status: res.status, etag: res.headers.get("etag") ?? "" };
  }

  test("the ETag changes when a post of the project changes, and only then", async () => {
    const path = range("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
    const first = await get(path);
    expect(first.status).toBe(200);
    expect((await get(path, first.etag)).status).toBe(304);
    // another range of the same version has its own tag
    expect((await get(range("2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z"))).etag).not.toBe(first.etag);

    // things that are not this project's posts change nothing
    await stack.call("PATCH", `/api/projects/${projectId}/drafts/${draftIds[1]}`, { content: "edited" }, cookie);
    const other = (await stack.signIn(uniqueEmail("other"))).cookie;
    const otherProject = (await stack.call("POST", "/api/projects", { name: "Other", adminHandle: "other_admin" }, other)).json.id;
    await stack.sql`insert into app_public.posts (project_id, title, scheduled_for) values (${otherProject}, 'Elsewhere', now())`;
    expect((await get(path, first.etag)).status).toBe(304);

    // a change anywhere in this project's posts (even outside the range, even by the worker) does
    await stack.sql`update app_public.posts set last_error_code = 'posts.error.noChannel' where project_id = ${projectId} and title = 'Long after'`;
    const changed = await get(path, first.etag);
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    expect((await get(path, changed.etag)).status).toBe(304);
    const id = await post("New", "2026-03-20T10:00:00Z");
    const added = await get(path, changed.etag);
    expect(added.status).toBe(200);
    await stack.sql`delete from app_public.posts where id = ${id}`;
    expect((await get(path, added.etag)).status).toBe(200);
  });

  test("a 304 costs one query: the version, not the rows", async () => {
    const path = range("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
    const { etag } = await get(path); // also puts the session in the API's 5-second cache
    const before = stack.queries.length;
    expect((await get(path, etag)).status).toBe(304);
    const sent = stack.queries.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("posts_version");
  });
});
