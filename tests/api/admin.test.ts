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
  ["GET", "/api/admin/users?q=alice&limit=5&after=1"],
  ["GET", "/api/admin/users?limit=0"], // bad input too: refused before it is read
  ["GET", "/api/admin/bug-reports?limit=5&before=2026-01-01T00:00:00.000Z&beforeId=9"],
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
    expect(stats.json).toEqual({
      userCount: 4,
      postCount: 4,
      scheduledTodayCount: 2,
      bugReportCount: 0,
      newBugReportCount: 0,
    });

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
    expect(res.json).toEqual({ message: "Please describe the issue", code: "bugReports.descriptionRequired" });
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
      code: "bugReports.statusInvalid",
    });
    expect((await adminReports()).find((r) => r.id === json.id)!.status).toBe("new");
  });

  test("an unknown or malformed report id is 404", async () => {
    const unknown = await stack.call("PATCH", "/api/admin/bug-reports/999999", { status: "closed" }, admin);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ message: "Bug report not found", code: "bugReports.notFound" });
    expect((await stack.call("PATCH", "/api/admin/bug-reports/abc", { status: "closed" }, admin)).status)
      .toBe(404);
  });
});

type Row = { id: number; createdAt: string; email: string };

/** Every row of a list, following each page's last row the way the SPA does. */
async function walk(path: (last: Row | undefined) => string, limit: number, between?: () => Promise<void>) {
  const rows: Row[] = [];
  for (let page = 0; ; page++) {
    const res = await stack.call("GET", path(rows.at(-1)), undefined, admin);
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    rows.push(...res.json);
    if (res.json.length < limit) return rows;
    if (page === 0) await between?.();
  }
}

const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

describe("the admin lists come a page at a time", () => {
  test("users: by id, 50 without parameters, each page after the last id; sign-ups meanwhile land at the end", async () => {
    await stack.sql`insert into app_public.users (email)
      select 'paging' || lpad(i::text, 3, '0') || '@paging.example' from generate_series(1, 130) i`;
    const everyone = await stack.sql<{ id: number }[]>`select id from app_public.users order by id`;

    const first = await stack.call("GET", "/api/admin/users", undefined, admin);
    expect(first.status).toBe(200);
    expect(ids(first.json)).toEqual(ids(everyone).slice(0, 50));

    const lateComers: number[] = [];
    const walked = await walk(
      (last) => `/api/admin/users?limit=40${last ? `&after=${last.id}` : ""}`,
      40,
      async () => {
        const rows = await stack.sql<{ id: number }[]>`insert into app_public.users (email)
          values ('late.one@paging.example'), ('late.two@paging.example') returning id`;
        lateComers.push(...ids(rows));
      },
    );
    // no repeats, no gaps, in id order, and those who signed up meanwhile come last
    expect(ids(walked)).toEqual([...ids(everyone), ...lateComers]);
  });

  test("users: the counts of a user on a later page are that user's own", async () => {
    const [late] = await stack.sql<{ id: number }[]>`
      insert into app_public.users (email) values ('counted@paging.example') returning id`;
    const [project] = await stack.sql<{ id: number }[]>`insert into app_public.projects (user_id, name, admin_handle)
      values (${late.id}, 'Late project', 'late_admin') returning id`;
    await stack.sql`insert into app_public.drafts (project_id, title)
      select ${project.id}, 'Draft ' || i from generate_series(1, 3) i`;
    await stack.sql`insert into app_public.posts (project_id, title, scheduled_for) values (${project.id}, 'Later', now() + interval '1 day')`;
    const page = await stack.call("GET", `/api/admin/users?limit=1&after=${late.id - 1}`, undefined, admin);
    expect(page.json).toEqual([{
      id: late.id,
      email: "counted@paging.example",
      isAdmin: false,
      projectCount: 1,
      channelCount: 0,
      postCount: 1,
      draftCount: 3,
    }]);
  });

  test("users: q finds any part of the e-mail in any case, literally (_ and % are characters), and pages too", async () => {
    await stack.sql`insert into app_public.users (email) values
      ('ivan_petrov@search.example'), ('ivanxpetrov@search.example'), ('100%sure@search.example'),
      ('olga@search.example')`;
    const search = async (q: string, extra = "") => {
      const res = await stack.call("GET", `/api/admin/users?q=${encodeURIComponent(q)}${extra}`, undefined, admin);
      expect(res.status, res.text).toBe(200);
      return (res.json as Row[]).map((row) => row.email);
    };
    expect(await search("IVAN_")).toEqual(["ivan_petrov@search.example"]);
    expect(await search("  Ivan  ")).toEqual(["ivan_petrov@search.example", "ivanxpetrov@search.example"]);
    expect(await search("%")).toEqual(["100%sure@search.example"]);
    expect(await search("SEARCH.EXAMPLE")).toHaveLength(4);
    expect(await search("nobody-has-this")).toEqual([]);
    expect(await search("")).toHaveLength(50); // an empty search is no search

    const found = await walk(
      (last) => `/api/admin/users?q=search.example&limit=3${last ? `&after=${last.id}` : ""}`,
      3,
    );
    expect(found.map((row) => row.email)).toEqual([
      "ivan_petrov@search.example",
      "ivanxpetrov@search.example",
      "100%sure@search.example",
      "olga@search.example",
    ]);
  });

  test("bug reports: newest first, each page after the last one shown, even among reports of the same time", async () => {
    // ten reports share each second exactly; two share a millisecond, the older one with the higher id
    await stack.sql`insert into app_public.bug_reports (description, created_at)
      select 'Seeded ' || i, timestamptz '2026-03-01 12:00:00+00' - (i / 10) * interval '1 second'
      from generate_series(1, 120) i`;
    await stack.sql`insert into app_public.bug_reports (description, created_at) values
      ('Same millisecond, later', timestamptz '2026-03-01 11:00:00.123900+00'),
      ('Same millisecond, earlier', timestamptz '2026-03-01 11:00:00.123400+00')`;
    const all = await stack.sql<{ id: number }[]>`select id from app_public.bug_reports`;
    const next = (limit: number) => (last: Row | undefined) =>
      `/api/admin/bug-reports?limit=${limit}${last ? `&before=${encodeURIComponent(last.createdAt)}&beforeId=${last.id}` : ""}`;

    for (const limit of [1, 7, 100]) {
      const walked = await walk(next(limit), limit);
      expect(new Set(ids(walked)).size, `limit ${limit}: no repeats`).toBe(walked.length);
      expect(ids(walked).toSorted(), `limit ${limit}: no gaps`).toEqual(ids(all).toSorted());
      for (let i = 1; i < walked.length; i++) {
        const [a, b] = [walked[i - 1], walked[i]];
        expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id), `limit ${limit}, row ${i}`)
          .toBe(true);
      }
    }
    const first = await stack.call("GET", "/api/admin/bug-reports", undefined, admin);
    expect(first.json).toHaveLength(50);

    // reports sent while an admin pages neither shift nor repeat the rows that follow
    const before = await walk(next(30), 30);
    const sentMeanwhile: number[] = [];
    const during = await walk(next(30), 30, async () => {
      const sent = await stack.sql<{ id: number }[]>`insert into app_public.bug_reports (description)
        values ('Sent meanwhile 1'), ('Sent meanwhile 2') returning id`;
      sentMeanwhile.push(...ids(sent));
    });
    expect(ids(during)).toEqual(ids(before));
    expect(ids((await adminReports()).slice(0, 2))).toEqual(sentMeanwhile.toReversed());
  });

  test("the stats count every bug report and the new ones, beyond the first page", async () => {
    const [{ total }] = await stack.sql<{ total: number }[]>`select count(*)::int as total from app_public.bug_reports`;
    expect(total).toBeGreaterThan(100);
    const [{ id }] = await stack.sql<{ id: number }[]>`select min(id)::int as id from app_public.bug_reports where status = 'new'`;
    const stats = async () => (await stack.call("GET", "/api/admin/stats", undefined, admin)).json;
    const { newBugReportCount } = await stats();
    expect((await stats()).bugReportCount).toBe(total);
    await stack.call("PATCH", `/api/admin/bug-reports/${id}`, { status: "closed" }, admin);
    expect((await stats()).newBugReportCount).toBe(newBugReportCount - 1);
  });

  test.each([
    "/api/admin/users?limit=0",
    "/api/admin/users?limit=101",
    "/api/admin/users?limit=ten",
    "/api/admin/users?limit=1.5",
    "/api/admin/users?limit=-3",
    "/api/admin/users?after=0",
    "/api/admin/users?after=abc",
    "/api/admin/users?after=99999999999999999",
    `/api/admin/users?q=${"a".repeat(255)}`,
    "/api/admin/bug-reports?limit=0",
    "/api/admin/bug-reports?limit=101",
    "/api/admin/bug-reports?before=2026-01-01T00:00:00.000Z",
    "/api/admin/bug-reports?beforeId=5",
    "/api/admin/bug-reports?before=yesterday&beforeId=5",
    "/api/admin/bug-reports?before=2026-02-30T00:00:00.000Z&beforeId=5",
    "/api/admin/bug-reports?before=2026-01-01T00:00:00.000Z&beforeId=x",
  ])("refuses %s with 400 {message, code}", async (path) => {
    const res = await stack.call("GET", path, undefined, admin);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      message: expect.stringContaining("limit must be between 1 and 100"),
      code: path.startsWith("/api/admin/users") ? "admin.usersQueryInvalid" : "admin.bugReportsQueryInvalid",
    });
  });

  test("a cursor in the year 0000 is refused as every route refuses a year out of range", async () => {
    const res = await stack.call("GET", "/api/admin/bug-reports?before=0000-01-01T00:00:00.000Z&beforeId=5", undefined, admin);
    expect([res.status, res.json.code]).toEqual([400, "time.yearOutOfRange"]);
  });
});
