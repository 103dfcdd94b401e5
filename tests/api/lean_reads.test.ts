/*
 * Reads cost what they show (issue 25): a range answers its range, the lists' lean views
 * answer what their screens show, the whole object is one call away, and every polled list
 * revalidates by a version (a 304 without a body while nothing changed). Played as the
 * owner and as another account trying the same calls.
 */
import { toCalendarDate } from "@internationalized/date";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DraftSummary } from "../../contract/drafts.ts";
import type { CalendarPostRow } from "../../contract/posts.ts";
import { sortDrafts } from "../../web/src/api/drafts.ts";
import { availableDrafts, calendarPosts, isVirtualPost } from "../../web/src/lib/recurrence.ts";
import { zonedAt } from "../../web/src/lib/projectTime.ts";
import { ROTATION_CASES } from "../cases/recurrence_cases.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let cookie: string;
let stranger: string;
let projectId: number;
let draftIds: number[];
beforeAll(async () => {
  stack = await startStack();
  cookie = (await stack.signIn(uniqueEmail("lean"))).cookie;
  stranger = (await stack.signIn(uniqueEmail("lean-stranger"))).cookie;
  projectId = (await stack.call("POST", "/api/projects", { name: "Lean", adminHandle: "lean_admin" }, cookie)).json.id;
  await stack.sql`insert into app_public.channels (project_id, type, link, status, chat_id, approver_user_id, approver_handle)
                  values (${projectId}, 'telegram', '@lean_chan', 'connected', -100778, 8, 'lean_admin')`;
  draftIds = (await stack.call("POST", `/api/projects/${projectId}/drafts/bulk`, { titles: ["Near", "Far", "Free", "Also free"] }, cookie)).json
    .map((d: { id: number }) => d.id);
  await stack.call("PATCH", `/api/projects/${projectId}/drafts/${draftIds[2]}`, { content: `  ${"é".repeat(300)}  ` }, cookie);
});
afterAll(() => stack.close());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const range = (from: string, to: string) => `/api/projects/${projectId}/posts?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

async function get(path: string, who = cookie, etag?: string) {
  const res = await stack.app.request(path, { headers: { cookie: who, ...(etag ? { "if-none-match": etag } : {}) } });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get("etag") ?? "", text, json: text ? JSON.parse(text) : undefined };
}

describe("a range is its range", () => {
  test("a post 80 days ahead holding a draft is not in a 10-day range; the drafts list says its draft is taken", async () => {
    const near = (await stack.call("POST", `/api/projects/${projectId}/posts`, {
      projectId, draftId: draftIds[0], scheduledFor: inDays(3), isRecurring: false, title: "Near", content: "",
    }, cookie)).json;
    const far = (await stack.call("POST", `/api/projects/${projectId}/posts`, {
      projectId, draftId: draftIds[1], scheduledFor: inDays(80), isRecurring: false, title: "Far", content: "",
    }, cookie)).json;
    expect(far.id).toBeGreaterThan(0);

    const tenDays = await get(range(inDays(0), inDays(10)));
    expect(tenDays.status).toBe(200);
    expect(tenDays.json.map((p: { id: number }) => p.id)).toEqual([near.id]);

    const summaries = (await get(`/api/projects/${projectId}/drafts?view=list`)).json as { id: number; scheduledPostId: number | null }[];
    const held = Object.fromEntries(summaries.map((d) => [d.id, d.scheduledPostId]));
    expect(held).toEqual({ [draftIds[0]]: near.id, [draftIds[1]]: far.id, [draftIds[2]]: null, [draftIds[3]]: null });
  });
});

// The shared case table (tests/cases/recurrence_cases.ts), run the way the schedule page runs
// it: the drafts list (which post holds each draft) and the range read, into the calendar's
// projection and the schedule form's free drafts. The posts holding drafts lie 10 days
// ahead, outside the range read.
describe("the calendar's rotation over the lean reads (shared cases)", () => {
  test.each(ROTATION_CASES)("$name", async ({ drafts, posts, takes }) => {
    const owner = (await stack.signIn(uniqueEmail("rotation"))).cookie;
    const project = (await stack.call("POST", "/api/projects", { name: "Rotation", adminHandle: "rotation_admin", timezone: "Europe/Moscow" }, owner)).json.id;
    await stack.sql`insert into app_public.channels (project_id, type, link, status, chat_id, approver_user_id, approver_handle)
                    values (${project}, 'telegram', ${`@rot${project}`}, 'connected', ${-200000 - project}, 9, 'rotation_admin')`;
    const created = (await stack.call("POST", `/api/projects/${project}/drafts/bulk`, { titles: drafts.map((d) => d.title) }, owner)).json;
    const idOf = (title: string) => created.find((d: { title: string }) => d.title === title).id as number;
    for (const { title, order } of drafts) await stack.call("PATCH", `/api/projects/${project}/drafts/${idOf(title)}`, { order }, owner);
    for (const { draft, status } of posts) {
      await stack.sql`insert into app_public.posts (project_id, draft_id, title, scheduled_for, status)
                      values (${project}, ${idOf(draft)}, ${draft}, now() + interval '10 days', ${status})`;
    }
    const start = new Date(Date.now() + 3 * 3_600_000);
    start.setUTCSeconds(0, 0);
    const series = await stack.call("POST", `/api/projects/${project}/posts`, {
      projectId: project, isRecurring: true, recurringType: "daily", scheduledFor: start.toISOString(), title: "Daily", content: "",
    }, owner);
    expect(series.status).toBe(201);

    const to = new Date(start.getTime() + takes.length * 86_400_000).toISOString();
    const from = new Date(start.getTime() - 60_000).toISOString();
    const inRange = (await get(`/api/projects/${project}/posts?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&view=calendar`, owner))
      .json as CalendarPostRow[];
    expect(inRange.map((p) => p.id)).toEqual([series.json.id]);
    const list = sortDrafts((await get(`/api/projects/${project}/drafts?view=list`, owner)).json as DraftSummary[]);
    const first = toCalendarDate(zonedAt(start.toISOString(), "Europe/Moscow"));
    const shown = calendarPosts(inRange, list, { timeZone: "Europe/Moscow", today: first, until: first.add({ days: takes.length - 1 }) })
      .filter(isVirtualPost);
    expect(shown.map((p) => (p.draftId === null ? null : p.title))).toEqual(takes);
    // the schedule form offers exactly the free drafts: those the series will take
    expect(availableDrafts(list).map((d) => d.title)).toEqual(takes.filter((t) => t !== null));
  });
});

describe("lean views", () => {
  test("?view=calendar answers a chip's fields and a series' rule, no text; the details load the whole post", async () => {
    const lean = await get(`${range(inDays(0), inDays(10))}&view=calendar`);
    expect(lean.status).toBe(200);
    const [row] = lean.json;
    expect(Object.keys(row).sort()).toEqual([
      "adState", "awaitingText", "draftId", "endsAfter", "endsOn", "hasImage", "id", "isRecurring", "lastErrorCode", "lastErrorParams", "occurrencesMade", "planId",
      "recurringLastPost", "recurringType", "scheduledFor", "seriesId", "skippedOccurrences", "status", "title",
    ]);
    const whole = await get(`/api/projects/${projectId}/posts/${row.id}`);
    expect(whole.status).toBe(200);
    expect(whole.json).toMatchObject({ id: row.id, title: "Near", content: "", entities: [], options: {}, imageUrls: [] });
    // the plain GET keeps answering whole posts (the spec's clients)
    expect(Object.keys((await get(range(inDays(0), inDays(10)))).json[0])).toEqual(Object.keys(whole.json));
  });

  test("?view=list answers title, excerpt and flags; the editor loads the whole draft", async () => {
    const list = (await get(`/api/projects/${projectId}/drafts?view=list`)).json;
    const long = list.find((d: { id: number }) => d.id === draftIds[2]);
    expect(Object.keys(long).sort()).toEqual([
      "createdAt", "excerpt", "heldByPlanId", "heldBySeriesId", "id", "imageCount", "imageUrl", "nextForSeriesId", "order", "projectId",
      "scheduledPostId", "status", "title",
    ]);
    // trimmed, 101 characters (code points): one more than the list shows, so it adds "…"
    expect(long.excerpt).toBe("é".repeat(101));
    const whole = await get(`/api/projects/${projectId}/drafts/${draftIds[2]}`);
    expect(whole.json).toMatchObject({ id: draftIds[2], content: `  ${"é".repeat(300)}  `, entities: [], options: {}, scheduledPostId: null });
    // the plain GET keeps the spec's whole drafts
    const plain = (await get(`/api/projects/${projectId}/drafts`)).json;
    expect(plain.find((d: { id: number }) => d.id === draftIds[2]).content).toBe(`  ${"é".repeat(300)}  `);
  });

  test.each([
    ["posts", () => `/api/projects/${projectId}/posts?view=everything`],
    ["drafts", () => `/api/projects/${projectId}/drafts?view=calendar`],
  ])("an unknown view of the %s is a 400 JSON, never the whole list", async (_name, path) => {
    const res = await get(path());
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("lists.unknownView");
    expect(typeof res.json.message).toBe("string");
  });
});

describe("another account", () => {
  test.each([
    ["the posts' lean view", () => `${range(inDays(0), inDays(10))}&view=calendar`],
    ["a whole post", () => `/api/projects/${projectId}/posts/1`],
    ["the drafts' lean view", () => `/api/projects/${projectId}/drafts?view=list`],
    ["the whole drafts", () => `/api/projects/${projectId}/drafts`],
    ["a whole draft", () => `/api/projects/${projectId}/drafts/${draftIds[2]}`],
    ["the Published list", () => `/api/projects/${projectId}/posts/published`],
    ["the content plan", () => `/api/projects/${projectId}/content-plans`],
  ])("gets 404 for %s, even with the owner's ETag", async (_name, path) => {
    const owners = await get(path());
    const res = await get(path(), stranger, owners.etag || undefined);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("Near");
    expect(res.text).not.toContain("é");
  });

  test("cannot read a post or draft of its own project by another project's id", async () => {
    const own = (await stack.call("POST", "/api/projects", { name: "Mine", adminHandle: "mine_admin" }, stranger)).json.id;
    expect((await get(`/api/projects/${own}/drafts/${draftIds[2]}`, stranger)).status).toBe(404);
    const [post] = (await get(range(inDays(0), inDays(10)))).json;
    expect((await get(`/api/projects/${own}/posts/${post.id}`, stranger)).status).toBe(404);
  });
});

describe("revalidation by version", () => {
  test.each([
    ["the drafts list", `/drafts?view=list`],
    ["the whole drafts", `/drafts`],
    ["the content plan", `/content-plans`],
    ["a Published page", `/posts/published?limit=50`],
  ])("%s: a 304 costs one query while nothing changed", async (_name, suffix) => {
    const path = `/api/projects/${projectId}${suffix}`;
    const { etag } = await get(path);
    expect(etag).toMatch(/^"v/);
    const before = stack.queries.length;
    const again = await get(path, cookie, etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(stack.queries.slice(before)).toHaveLength(1);
  });

  test("the drafts list changes its ETag when a draft changes and when a post takes or frees one", async () => {
    const path = `/api/projects/${projectId}/drafts?view=list`;
    const first = await get(path);
    await stack.call("PATCH", `/api/projects/${projectId}/drafts/${draftIds[3]}`, { title: "Renamed" }, cookie);
    const renamed = await get(path, cookie, first.etag);
    expect(renamed.status).toBe(200);
    expect(renamed.json.map((d: { title: string }) => d.title)).toContain("Renamed");
    // a post taking a draft changes the list's scheduledPostId
    const post = (await stack.call("POST", `/api/projects/${projectId}/posts`, {
      projectId, draftId: draftIds[3], scheduledFor: inDays(5), isRecurring: false, title: "Renamed", content: "",
    }, cookie)).json;
    const taken = await get(path, cookie, renamed.etag);
    expect(taken.status).toBe(200);
    expect(taken.json.find((d: { id: number }) => d.id === draftIds[3]).scheduledPostId).toBe(post.id);
    await stack.call("DELETE", `/api/projects/${projectId}/posts/${post.id}`, { deleteFromChannels: false, deleteRecurringSeries: false }, cookie);
    const freed = await get(path, cookie, taken.etag);
    expect(freed.json.find((d: { id: number }) => d.id === draftIds[3]).scheduledPostId).toBeNull();
    // the two views of one version have their own tags
    expect((await get(`/api/projects/${projectId}/drafts`)).etag).not.toBe(freed.etag);
  });

  test("the content plan changes its ETag when a slot changes, not when a draft does", async () => {
    const path = `/api/projects/${projectId}/content-plans`;
    const first = await get(path);
    await stack.call("PATCH", `/api/projects/${projectId}/drafts/${draftIds[3]}`, { title: "Again" }, cookie);
    expect((await get(path, cookie, first.etag)).status).toBe(304);
    const slot = await stack.call("POST", path, { dayOfWeek: 1, time: "10:00", timezone: "Europe/Moscow", postLength: 500, active: true }, cookie);
    expect(slot.status).toBe(201);
    const added = await get(path, cookie, first.etag);
    expect(added.status).toBe(200);
    expect(added.json).toHaveLength(1);
  });

  test("every Published page revalidates: a later page is a 304 too, and a publication changes it", async () => {
    for (let i = 0; i < 3; i++) {
      await stack.sql`insert into app_public.posts (project_id, title, scheduled_for, status, published_at)
                      values (${projectId}, ${`Out ${i}`}, now() - interval '1 day', 'published', now() - ${`${i} hours`}::interval)`;
    }
    const first = await get(`/api/projects/${projectId}/posts/published?limit=2`);
    const last = first.json.at(-1);
    const second = `/api/projects/${projectId}/posts/published?limit=2&before=${encodeURIComponent(last.publishedAt)}&beforeId=${last.id}`;
    const page = await get(second);
    expect(page.json.map((p: { title: string }) => p.title)).toEqual(["Out 2"]);
    expect((await get(second, cookie, page.etag)).status).toBe(304);
    await stack.sql`update app_public.posts set title = 'Out 2 (edited)' where project_id = ${projectId} and title = 'Out 2'`;
    const changed = await get(second, cookie, page.etag);
    expect(changed.status).toBe(200);
    expect(changed.json[0].title).toBe("Out 2 (edited)");
  });
});
