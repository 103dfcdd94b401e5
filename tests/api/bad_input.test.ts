/*
 * Bad input everywhere: every route gets malformed JSON, wrong types, missing fields,
 * huge strings, 10 MB bodies, unknown ids and another user's ids. Each answer must be a
 * 4xx JSON { message, code } — never a 500 — and nothing stored may change.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { toApiError } from "../../core/errors.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
let me: string; // a signed-in non-admin with a project, channel, draft and post
let mine: { project: number; draft: number; post: number; channel: number };
let theirs: { project: number; draft: number; post: number; channel: number; job: number; report: number };

beforeAll(async () => {
  stack = await startStack({ bot: true, openai: true });
  const a = await projectWithChannel(stack, { drafts: ["Mine"] });
  me = a.cookie;
  const myPost = (await stack.call("POST", `${a.base}/posts`, { draftId: a.drafts[0].id, scheduledFor: new Date(Date.now() + 86_400_000).toISOString() }, me)).json;
  const [myChannel] = (await stack.call("GET", `${a.base}/channels`, undefined, me)).json;
  mine = { project: a.project.id, draft: a.drafts[0].id, post: myPost.id, channel: myChannel.id };

  const b = await projectWithChannel(stack, { drafts: ["Theirs"] });
  const theirPost = (await stack.call("POST", `${b.base}/posts`, { draftId: b.drafts[0].id, scheduledFor: new Date(Date.now() + 86_400_000).toISOString() }, b.cookie)).json;
  const [theirChannel] = (await stack.call("GET", `${b.base}/channels`, undefined, b.cookie)).json;
  const job = (await stack.call("POST", `${b.base}/drafts/generate-content`, { draftIds: [b.drafts[0].id] }, b.cookie)).json;
  const form = new FormData();
  form.append("description", "Their report");
  const report = await (await stack.app.request("/api/bug-reports", { method: "POST", body: form, headers: { cookie: b.cookie } })).json();
  theirs = { project: b.project.id, draft: b.drafts[0].id, post: theirPost.id, channel: theirChannel.id, job: job.jobId, report: report.id };
  // let the job finish so the snapshot is stable
  for (let i = 0; i < 150; i++) {
    const [row] = await stack.sql`select status from app_public.generation_jobs where id = ${job.jobId}`;
    if (row.status === "completed" || row.status === "failed") break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(() => stack.close());
beforeEach(() => stack.openai!.reply((r) => Array.from({ length: 30 }, (_, i) => `Title ${i} ${r.messages.length}`).join("\n")));

const TABLES = ["users", "projects", "channels", "drafts", "posts", "content_plans", "admin_chat_ids", "bug_reports", "generation_jobs", "chat_messages", "invite_links"];
async function snapshot(): Promise<string[]> {
  const parts = await Promise.all(TABLES.map(async (t) => {
    const [row] = await stack.sql.unsafe(`select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x.id), '')) as h from app_public.${t} x`);
    return `${t}:${row.n}:${row.h}`;
  }));
  return parts;
}

type Route = {
  method: string;
  path: (ids: typeof mine) => string;
  json?: boolean;
  multipart?: boolean;
  /** Reads no fields: any JSON object is acceptable input (it must still change nothing). */
  noFields?: boolean;
  /** All its fields (these) are optional: an object without them is acceptable input. */
  optionalFields?: string[];
};
const ROUTES: Route[] = [
  { method: "POST", path: () => "/api/auth/request-otp", json: true },
  { method: "POST", path: () => "/api/auth/verify-otp", json: true },
  { method: "POST", path: () => "/api/projects", json: true },
  { method: "GET", path: (i) => `/api/projects/${i.project}` },
  { method: "PATCH", path: (i) => `/api/projects/${i.project}`, json: true },
  { method: "DELETE", path: (i) => `/api/projects/${i.project}` },
  { method: "GET", path: (i) => `/api/projects/${i.project}/drafts` },
  { method: "POST", path: (i) => `/api/projects/${i.project}/drafts`, json: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/drafts/bulk`, json: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/drafts/reorder`, json: true },
  { method: "PATCH", path: (i) => `/api/projects/${i.project}/drafts/${i.draft}`, json: true },
  { method: "DELETE", path: (i) => `/api/projects/${i.project}/drafts/${i.draft}` },
  { method: "POST", path: (i) => `/api/projects/${i.project}/upload-image`, multipart: true },
  { method: "GET", path: (i) => `/api/projects/${i.project}/channels` },
  { method: "POST", path: (i) => `/api/projects/${i.project}/channels`, json: true },
  { method: "DELETE", path: (i) => `/api/projects/${i.project}/channels/${i.channel}` },
  { method: "GET", path: (i) => `/api/projects/${i.project}/posts` },
  { method: "GET", path: (i) => `/api/projects/${i.project}/posts/published` },
  { method: "POST", path: (i) => `/api/projects/${i.project}/posts`, json: true },
  { method: "PUT", path: (i) => `/api/projects/${i.project}/posts/${i.post}`, json: true },
  { method: "DELETE", path: (i) => `/api/projects/${i.project}/posts/${i.post}`, json: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/posts/${i.post}/publish`, json: true, noFields: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/posts/${i.post}/resolve`, json: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/generate-title`, json: true, noFields: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/generate-post`, json: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/generate-multiple-titles`, json: true, optionalFields: ["count"] },
  { method: "POST", path: (i) => `/api/projects/${i.project}/drafts/generate-content`, json: true },
  { method: "GET", path: (i) => `/api/projects/${i.project}/jobs/1` },
  { method: "GET", path: (i) => `/api/projects/${i.project}/chat/history?page=1&limit=5` },
  { method: "GET", path: (i) => `/api/projects/${i.project}/stats` },
  { method: "GET", path: (i) => `/api/projects/${i.project}/invite-links` },
  { method: "POST", path: (i) => `/api/projects/${i.project}/invite-links`, json: true },
  { method: "DELETE", path: (i) => `/api/projects/${i.project}/invite-links/1` },
  { method: "POST", path: (i) => `/api/projects/${i.project}/chat`, json: true },
  { method: "POST", path: (i) => `/api/projects/${i.project}/chat/stream`, json: true },
  { method: "POST", path: () => "/api/bug-reports", multipart: true },
  { method: "GET", path: () => "/api/admin/stats" },
  { method: "GET", path: () => "/api/admin/users" },
  { method: "GET", path: () => "/api/admin/bug-reports" },
  { method: "PATCH", path: () => "/api/admin/bug-reports/1", json: true },
];

/** Bodies that are wrong in every way a client can get them wrong. */
const BAD_JSON_BODIES = [
  "{not json",
  "[1,2,3]",
  "null",
  '"a string"',
  "{}",
  JSON.stringify({ title: 123, name: ["x"], email: { a: 1 }, code: 123456, link: false, titles: "nope", drafts: [{ id: "x" }], draftIds: "1", scheduledFor: 5, message: 42, status: "weird", count: "many", description: null }),
  JSON.stringify({ name: "x".repeat(200_000), title: "y".repeat(200_000), email: "z".repeat(5000) + "@example.com", message: "m".repeat(100_000), link: "@" + "a".repeat(10_000), titles: Array.from({ length: 5000 }, () => "t") }),
];

function isObjectWithout(body: string, keys: string[]) {
  try {
    const parsed = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && keys.every((k) => !(k in parsed));
  } catch {
    return false;
  }
}

async function send(route: Route, path: string, body: string | FormData | undefined, contentType?: string) {
  const headers: Record<string, string> = { cookie: me };
  if (contentType) headers["content-type"] = contentType;
  const res = await stack.app.request(path, { method: route.method, headers, body });
  const text = await res.text();
  return { status: res.status, text, type: res.headers.get("content-type") ?? "" };
}

function expectClientError(res: { status: number; text: string; type: string }, what: string) {
  expect(res.status, `${what} → ${res.status} ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} → ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
  expect(res.type, what).toContain("application/json");
  const body = JSON.parse(res.text);
  expect(typeof body.message, what).toBe("string");
  expect(typeof body.code, what).toBe("string");
}

test("bad bodies on every route that reads one: 4xx JSON, nothing stored changes", async () => {
  const before = await snapshot();
  for (const route of ROUTES.filter((r) => r.json)) {
    // routes on an existing item target another user's, so even a body we accept cannot act
    const onItem = route.method !== "POST" || route.noFields;
    const target = route.path(onItem && route.path(mine).includes("/projects/") ? theirs : mine);
    for (const body of BAD_JSON_BODIES) {
      const res = await send(route, target, body, "application/json");
      if (res.status < 400 && route.noFields && body.startsWith("{") && !body.startsWith("{not")) continue;
      if (res.status < 400 && route.optionalFields && isObjectWithout(body, route.optionalFields)) continue;
      expectClientError(res, `${route.method} ${target} ${body.slice(0, 40)}`);
    }
  }
  expect(await snapshot()).toEqual(before);
}, 120_000);

test("U+0000 or another control character in any text of a body: 400 text.controlCharacter on every route, before any rule", async () => {
  const before = await snapshot();
  for (const bad of ["a\u0000b", "bell\u0007", "\u001b[31m"]) {
    const text = { name: bad, title: bad, content: bad, description: bad, message: bad, link: bad, email: bad, adminHandle: bad, sources: bad };
    const bodies = [
      JSON.stringify({ ...text, titles: [bad], drafts: [{ title: bad }], options: { buttons: [[{ text: bad, url: "https://example.com" }]] } }),
      JSON.stringify({ [bad]: 1 }), // a key is text too
    ];
    for (const route of ROUTES.filter((r) => r.json)) {
      for (const body of bodies) {
        const res = await send(route, route.path(mine), body, "application/json");
        expectClientError(res, `${route.method} ${route.path(mine)} ${body.slice(0, 40)}`);
        // admin routes refuse a non-admin first
        const expected = route.path(mine).startsWith("/api/admin/") ? "forbidden" : "text.controlCharacter";
        expect(JSON.parse(res.text).code, `${route.method} ${route.path(mine)}`).toBe(expected);
      }
    }
    const form = new FormData();
    form.append("description", `Broken ${bad}`);
    const report = await send({ method: "POST", path: () => "/api/bug-reports" }, "/api/bug-reports", form);
    expect([report.status, JSON.parse(report.text).code]).toEqual([400, "text.controlCharacter"]);
  }
  // tab, line feed and carriage return are text
  const draft = await send({ method: "POST", path: () => "" }, `/api/projects/${mine.project}/drafts`, JSON.stringify({ title: "Line\tone\r\nLine two" }), "application/json");
  expect(draft.status, draft.text).toBe(201);
  await stack.sql`delete from app_public.drafts where id = ${JSON.parse(draft.text).id}`;
  expect(await snapshot()).toEqual(before);
}, 120_000);

test("a path that let U+0000 reach PostgreSQL would still answer 400 text.controlCharacter, not 500", async () => {
  const asText = await stack.sql`select ${"a\u0000b"}::text`.catch((error) => error);
  expect(toApiError(asText)?.code).toBe("text.controlCharacter");
});

test("bodies over 10 MB are cut off with 413 on every route", async () => {
  const before = await snapshot();
  const big = "x".repeat(11 * 1024 * 1024);
  for (const route of ROUTES.filter((r) => r.method !== "GET")) {
    const target = route.path(mine);
    const res = route.multipart
      ? await send(route, target, big, "multipart/form-data; boundary=zzz")
      : await send(route, target, JSON.stringify({ padding: big }), "application/json");
    expectClientError(res, `${route.method} ${target} 10 MB`);
    expect(res.status, `${route.method} ${target}`).toBe(413);
  }
  expect(await snapshot()).toEqual(before);
}, 120_000);

test("unknown ids and another user's ids are 404 (admin routes 403) everywhere", async () => {
  const before = await snapshot();
  const unknown = { project: 987654321, draft: 987654321, post: 987654321, channel: 987654321 };
  for (const ids of [unknown, theirs, { ...mine, draft: theirs.draft, post: theirs.post, channel: theirs.channel }]) {
    for (const route of ROUTES) {
      const target = route.path(ids);
      if (!target.includes("/projects/") && !target.includes("/admin/")) continue;
      const sameAsMine = target === route.path(mine);
      if (sameAsMine) continue; // only the ids that are not the caller's
      const body = route.multipart ? (() => {
        const f = new FormData();
        f.append("image", new File(["x"], "x.png"));
        return f;
      })() : route.json ? JSON.stringify({ title: "t", name: "n", adminHandle: "valid_admin", link: "@some_channel", titles: ["a"], drafts: [], draftIds: [1], scheduledFor: new Date(Date.now() + 3600_000).toISOString(), message: "hi", status: "closed", content: "c", inChannel: true }) : undefined;
      const res = await send(route, target, body, route.json ? "application/json" : undefined);
      expectClientError(res, `${route.method} ${target}`);
      expect(res.status, `${route.method} ${target}`).toBe(target.includes("/admin/") ? 403 : 404);
    }
  }
  // their job is not visible under my project either
  const job = await send({ method: "GET", path: () => "" }, `/api/projects/${mine.project}/jobs/${theirs.job}`, undefined);
  expect(job.status).toBe(404);
  expect(await snapshot()).toEqual(before);
}, 120_000);

test("without a session every project and admin route is 401 JSON", async () => {
  for (const route of ROUTES) {
    const target = route.path(mine);
    if (target.startsWith("/api/auth/")) continue;
    const res = await stack.app.request(target, { method: route.method });
    expectClientError({ status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" }, `${route.method} ${target}`);
    expect(res.status, `${route.method} ${target}`).toBe(401);
  }
});
