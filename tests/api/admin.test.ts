/*
 * Bug reports and the admin dashboard through the real app: who may call what, the
 * counters and per-user counts an admin sees, and what a report keeps.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makePng } from "../helpers/images.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

const ADMIN = uniqueEmail("admin");
const BROWSER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) PressaTest/1.0";

let stack: Stack;
let admin: string;
let alice: { cookie: string; user: { id: number; email: string; isAdmin: boolean } };
let bob: { cookie: string; user: { id: number; email: string; isAdmin: boolean } };
beforeAll(async () => {
  stack = await startStack({ env: { ADMIN_EMAILS: `someone.else@example.com, ${ADMIN.toUpperCase()}` } });
  admin = (await stack.signIn(ADMIN)).cookie;
  alice = await stack.signIn(uniqueEmail("alice"));
  bob = await stack.signIn(uniqueEmail("bob"));
});
afterAll(() => stack.close());

type ReportFields = { description?: string; pageUrl?: string; screenshot?: File };

async function report(fields: ReportFields, cookie = alice.cookie, headers: Record<string, string> = {}) {
  const form = new FormData();
  if (fields.description !== undefined) form.append("description", fields.description);
  if (fields.pageUrl !== undefined) form.append("pageUrl", fields.pageUrl);
  if (fields.screenshot) form.append("screenshot", fields.screenshot);
  const res = await stack.app.request("/api/bug-reports", {
    method: "POST",
    body: form,
    headers: { cookie, "user-agent": BROWSER_AGENT, ...headers },
  });
  return { status: res.status, json: await res.json() };
}

async function adminReports() {
  const res = await stack.call("GET", "/api/admin/bug-reports", undefined, admin);
  expect(res.status).toBe(200);
  return res.json as Array<Record<string, unknown> & { id: number; status: string }>;
}

async function storedFiles() {
  const names: string[] = [];
  for await (const entry of Deno.readDir(stack.uploadsDir)) names.push(entry.name);
  return names;
}

const ADMIN_CALLS: Array<[string, string, unknown?]> = [
  ["GET", "/api/admin/stats"],
  ["GET", "/api/admin/users"],
  ["GET", "/api/admin/bug-reports"],
  ["PATCH", "/api/admin/bug-reports/1", { status: "resolved" }],
  ["PATCH", "/api/admin/bug-reports/1", { status: "no-such-status" }],
];

describe("who may call the admin API", () => {
  test("a user listed in ADMIN_EMAILS (any case) is an admin after signing in; others are not", async () => {
    const me = await stack.call("GET", "/api/auth/user", undefined, admin);
    expect(me.json).toMatchObject({ email: ADMIN, isAdmin: true });
    expect(alice.user.isAdmin).toBe(false);
  });

  test.each(ADMIN_CALLS)(
    "%s %s answers 403 to a signed-in non-admin and 401 to nobody",
    async (method, path, payload) => {
      const forbidden = await stack.call(method, path, payload, alice.cookie);
      expect(forbidden.status).toBe(403);
      expect(forbidden.json).toEqual({ message: "Only administrators can do this", code: "forbidden" });
      const anonymous = await stack.call(method, path, payload);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json.code).toBe("unauthorized");
    },
  );

  test("an operator's psql grant takes effect on the next request, without signing in again", async () => {
    await stack.sql`update app_public.users set is_admin = true where id = ${bob.user.id}`;
    expect((await stack.call("GET", "/api/admin/stats", undefined, bob.cookie)).status).toBe(200);
    await stack.sql`update app_public.users set is_admin = false where id = ${bob.user.id}`;
    expect((await stack.call("GET", "/api/admin/stats", undefined, bob.cookie)).status).toBe(403);
  });

  test("sending a bug report needs a session", async () => {
    const res = await report({ description: "Nobody is signed in" }, "");
    expect(res.status).toBe(401);
  });
});

describe("dashboard counters and the users table", () => {
  test("count users, posts, posts scheduled today (UTC) and each user's projects, channels, posts and drafts", async () => {
    const carol = await stack.signIn(uniqueEmail("carol")); // signed in, nothing created
    const create = async (cookie: string, name: string) =>
      (await stack.call("POST", "/api/projects", { name, adminHandle: "admin_one" }, cookie)).json
        .id as number;
    const news = await create(alice.cookie, "News");
    const recipes = await create(alice.cookie, "Recipes");
    const sport = await create(bob.cookie, "Sport");
    for (const title of ["One", "Two"]) {
      await stack.call("POST", `/api/projects/${news}/drafts`, { title }, alice.cookie);
    }
    await stack.call("POST", `/api/projects/${recipes}/drafts`, { title: "Soup" }, alice.cookie);
    await stack.call(
      "POST",
      `/api/projects/${sport}/drafts/bulk`,
      { titles: ["A", "B", "C", "D"] },
      bob.cookie,
    );
    await stack
      .sql`insert into app_public.channels (project_id, type, link) values (${news}, 'telegram', '@news_channel')`;
    const startOfTodayUtc = stack.sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;
    await stack.sql`insert into app_public.posts (project_id, title, scheduled_for) values
      (${news}, 'Early today', ${startOfTodayUtc} + interval '1 minute'),
      (${news}, 'Late today', ${startOfTodayUtc} + interval '23 hours 59 minutes'),
      (${recipes}, 'Tomorrow', ${startOfTodayUtc} + interval '1 day'),
      (${sport}, 'Yesterday', ${startOfTodayUtc} - interval '1 minute')`;

    const stats = await stack.call("GET", "/api/admin/stats", undefined, admin);
    expect(stats.status).toBe(200);
    expect(stats.json).toEqual({ userCount: 4, postCount: 4, scheduledTodayCount: 2 });

    const users = await stack.call("GET", "/api/admin/users", undefined, admin);
    expect(users.status).toBe(200);
    const row = (email: string) => users.json.find((u: { email: string }) => u.email === email);
    expect(users.json).toHaveLength(4);
    expect(row(alice.user.email)).toEqual({
      id: alice.user.id,
      email: alice.user.email,
      isAdmin: false,
      projectCount: 2,
      channelCount: 1,
      postCount: 3,
      draftCount: 3,
    });
    expect(row(bob.user.email)).toMatchObject({
      projectCount: 1,
      channelCount: 0,
      postCount: 1,
      draftCount: 4,
    });
    expect(row(carol.user.email)).toMatchObject({
      isAdmin: false,
      projectCount: 0,
      channelCount: 0,
      postCount: 0,
      draftCount: 0,
    });
    expect(row(ADMIN)).toMatchObject({ isAdmin: true, projectCount: 0 });
  });
});

describe("sending a bug report", () => {
  test.each([
    ["an empty description", { description: "" }],
    ["a whitespace-only description", { description: "  \n\t  " }],
    ["no description field at all", {}],
  ])("refuses %s with 'Please describe the issue' and stores nothing", async (_name, fields) => {
    const before = await adminReports();
    const res = await report(fields);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: "Please describe the issue", code: "validation" });
    expect(await adminReports()).toHaveLength(before.length);
  });

  test("refuses a text file named .png as the screenshot, and keeps neither the report nor the file", async () => {
    const reportsBefore = await adminReports();
    const filesBefore = await storedFiles();
    const fake = new File([new TextEncoder().encode("not a picture at all\n".repeat(50))], "screen.png", {
      type: "image/png",
    });
    const res = await report({ description: "The button does nothing", screenshot: fake });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("drafts.invalidImageType");
    expect(await adminReports()).toHaveLength(reportsBefore.length);
    expect(await storedFiles()).toEqual(filesBefore);
  });

  test("stores a report with its screenshot, page, browser and reporter; the admin list shows it first", async () => {
    const png = makePng(320, 200, [200, 40, 40]);
    const res = await report({
      description: "  The calendar shows the wrong month  ",
      pageUrl: "http://localhost:8000/project/7/schedule",
      screenshot: new File([png], "screen.png", { type: "image/png" }),
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ id: expect.any(Number), status: "new" });

    const [newest] = await adminReports();
    expect(newest).toMatchObject({
      id: res.json.id,
      userId: alice.user.id,
      description: "The calendar shows the wrong month",
      pageUrl: "http://localhost:8000/project/7/schedule",
      userAgent: BROWSER_AGENT,
      status: "new",
      user: { email: alice.user.email },
    });
    expect(new Date(newest.createdAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(newest.screenshotUrl).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{24}\.png$/);
    // private: the reporter (and admins) may open it, nobody else
    const served = await stack.app.request(newest.screenshotUrl as string, { headers: { cookie: alice.cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get("cache-control")).toMatch(/^private/);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
  });

  test("without a screenshot or page field the report keeps the Referer; a non-web page address is dropped", async () => {
    const fromReferer = await report({ description: "Typo on the drafts page" }, bob.cookie, {
      referer: "http://localhost:8000/project/3/drafts",
    });
    expect(fromReferer.status).toBe(201);
    const script = await report({ description: "Odd page", pageUrl: "javascript:alert(1)" }, bob.cookie);
    expect(script.status).toBe(201);
    const reports = await adminReports();
    const byId = (id: number) => reports.find((r) => r.id === id)!;
    expect(byId(fromReferer.json.id)).toMatchObject({
      screenshotUrl: null,
      pageUrl: "http://localhost:8000/project/3/drafts",
      user: { email: bob.user.email },
    });
    expect(byId(script.json.id).pageUrl).toBeNull();
  });
});

describe("handling bug reports", () => {
  test("a status change persists and every status can follow every other", async () => {
    const { json } = await report({ description: "Save button is grey" });
    for (const status of ["in_progress", "resolved", "new", "closed", "in_progress"]) {
      const res = await stack.call("PATCH", `/api/admin/bug-reports/${json.id}`, { status }, admin);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ id: json.id, status });
      expect((await adminReports()).find((r) => r.id === json.id)!.status).toBe(status);
    }
  });

  test("a non-admin cannot change a status", async () => {
    const { json } = await report({ description: "Cannot log out" });
    const res = await stack.call(
      "PATCH",
      `/api/admin/bug-reports/${json.id}`,
      { status: "closed" },
      alice.cookie,
    );
    expect(res.status).toBe(403);
    expect((await adminReports()).find((r) => r.id === json.id)!.status).toBe("new");
  });

  test.each([
    [{ status: "done" }],
    [{ status: "" }],
    [{}],
    [{ status: 2 }],
  ])("refuses %j with 400 and leaves the status alone", async (payload) => {
    const { json } = await report({ description: "Something odd" });
    const res = await stack.call("PATCH", `/api/admin/bug-reports/${json.id}`, payload, admin);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      message: "Status must be one of new, in_progress, resolved, closed",
      code: "validation",
    });
    expect((await adminReports()).find((r) => r.id === json.id)!.status).toBe("new");
  });

  test("an unknown or malformed report id is 404", async () => {
    const unknown = await stack.call("PATCH", "/api/admin/bug-reports/999999", { status: "closed" }, admin);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ message: "Bug report not found", code: "notFound" });
    expect((await stack.call("PATCH", "/api/admin/bug-reports/abc", { status: "closed" }, admin)).status)
      .toBe(404);
  });
});
