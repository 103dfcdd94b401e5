/*
 * Work without bounds (issue 23), as a hostile account would try it: a skip to the year
 * 2099 (9999 stepped a series day by day for seconds; years past TIME_YEARS are now refused
 * before any rule, tests/api/time_bounds.test.ts), a series started far away, series
 * by the hundred, a query kept waiting on a lock, and a burst of heavy requests while
 * another account reads its projects.
 *
 * The API here has a 2 s statement_timeout: before the bound, the skip to 9999 ran for
 * longer and would answer 503, so a 400 also shows that it is refused before the stepping.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { SERIES_HORIZON_DAYS, SERIES_PER_PROJECT_MAX } from "../../contract/limits.ts";
import { projectWithChannel, tomorrowNine } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true, env: { API_STATEMENT_TIMEOUT_MS: "2000" } });
});
afterAll(() => stack.close());

const DAY = 86400_000;

async function dailySeries() {
  const p = await projectWithChannel(stack, { drafts: ["A", "B"] });
  const first = tomorrowNine();
  const created = await stack.call("POST", `${p.base}/posts`, {
    scheduledFor: first.toISOString(), isRecurring: true, recurringType: "daily", title: "Daily",
  }, p.cookie);
  expect(created.status).toBe(201);
  const id = created.json.id as number;
  const skip = (at: string, skip = true) => stack.call("POST", `${p.base}/posts/${id}/skip`, { at, skip }, p.cookie);
  const row = async () => (await stack.sql`select series_skips, updated_at from app_public.posts where id = ${id}`)[0];
  return { ...p, id, first, skip, row };
}

test("a skip to the year 2099 is refused at once with a precise code and changes nothing", async () => {
  const s = await dailySeries();
  const before = await s.row();
  // the same wall time as the series' occurrences, so only the distance refuses it
  const res = await s.skip("2099-06-01T06:00:00.000Z");
  expect(res.status).toBe(400);
  expect(res.json).toEqual({ code: "schedule.skipBeyondHorizon", message: `Only dates within the next ${SERIES_HORIZON_DAYS} days can be skipped`, params: { days: SERIES_HORIZON_DAYS } });
  // just past the horizon: refused the same way; just inside it: an occurrence, skipped
  const beyond = new Date(s.first.getTime() + SERIES_HORIZON_DAYS * DAY).toISOString();
  expect((await s.skip(beyond)).json.code).toBe("schedule.skipBeyondHorizon");
  expect(await s.row()).toEqual(before);
  const inside = new Date(s.first.getTime() + (SERIES_HORIZON_DAYS - 3) * DAY).toISOString();
  const skipped = await s.skip(inside);
  expect(skipped.status).toBe(200);
  expect(skipped.json.skippedOccurrences).toEqual([inside]);
  // bringing a date back beyond the horizon was never skipped: the usual refusal
  expect((await s.skip("2099-06-01T06:00:00.000Z", false)).json.code).toBe("schedule.notAnOccurrence");
});

test("a series must start within the horizon, on creation and on edit; nothing is stored otherwise", async () => {
  const p = await projectWithChannel(stack, { drafts: ["A"] });
  const far = new Date(Date.now() + (SERIES_HORIZON_DAYS + 1) * DAY).toISOString();
  const created = await stack.call("POST", `${p.base}/posts`, { scheduledFor: far, isRecurring: true, recurringType: "weekly" }, p.cookie);
  expect(created.status).toBe(400);
  expect(created.json.code).toBe("schedule.seriesStartsBeyondHorizon");
  expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json).toEqual([]);

  const first = tomorrowNine().toISOString();
  const { id } = (await stack.call("POST", `${p.base}/posts`, { scheduledFor: first, isRecurring: true, recurringType: "weekly" }, p.cookie)).json;
  const moved = await stack.call("PUT", `${p.base}/posts/${id}`, { scheduledFor: "2099-01-01T06:00:00.000Z", isRecurring: true, recurringType: "weekly" }, p.cookie);
  expect(moved.status).toBe(400);
  expect(moved.json.code).toBe("schedule.seriesStartsBeyondHorizon");
  const [row] = await stack.sql`select scheduled_for from app_public.posts where id = ${id}`;
  expect(new Date(row.scheduledFor).toISOString()).toBe(first);
});

test(`a project holds at most ${SERIES_PER_PROJECT_MAX} series; the next is refused and another project is unaffected`, async () => {
  const p = await projectWithChannel(stack, { drafts: ["A"] });
  const first = tomorrowNine().toISOString();
  const series = (base = p.base, cookie = p.cookie) =>
    stack.call("POST", `${base}/posts`, { scheduledFor: first, isRecurring: true, recurringType: "daily" }, cookie);
  const made = await Promise.all(Array.from({ length: SERIES_PER_PROJECT_MAX + 3 }, () => series()));
  // raced all at once: the project's lock counts them one at a time
  expect(made.filter((r) => r.status === 201)).toHaveLength(SERIES_PER_PROJECT_MAX);
  const refused = made.filter((r) => r.status !== 201);
  expect(refused.map((r) => [r.status, r.json.code])).toEqual(Array(3).fill([409, "schedule.tooManySeries"]));
  const [{ n }] = await stack.sql`select count(*)::int as n from app_public.posts where project_id = ${p.project.id} and is_recurring`;
  expect(n).toBe(SERIES_PER_PROJECT_MAX);
  // the queue's forecast steps through all of them and still answers
  expect((await stack.call("GET", `${p.base}/queue-health`, undefined, p.cookie)).status).toBe(200);
  const other = await projectWithChannel(stack, { drafts: ["A"] });
  expect((await series(other.base, other.cookie)).status).toBe(201);
});

test("a query kept waiting past the statement timeout answers 503 server.busy with Retry-After and changes nothing", async () => {
  const s = await dailySeries();
  const before = await s.row();
  const second = new Date(s.first.getTime() + DAY).toISOString();
  // another transaction holds the series' row (as a long edit or a stuck job would)
  const held = await stack.sql.begin(async (tx) => {
    await tx`select id from app_public.posts where id = ${s.id} for update`;
    return await s.skip(second);
  });
  expect(held.status).toBe(503);
  expect(held.json).toEqual({ code: "server.busy", message: "The server is busy. Please try again in a few seconds." });
  expect(held.headers.get("retry-after")).toBe("5");
  expect(await s.row()).toEqual(before);
  // the lock gone, the same request goes through
  expect((await s.skip(second)).json.skippedOccurrences).toEqual([second]);
});

test("five heavy requests at once from one account: another account's GET /api/projects still answers", async () => {
  const s = await dailySeries();
  const { cookie } = await stack.signIn(uniqueEmail("bystander"));
  const mine = (await stack.call("POST", "/api/projects", { name: "Mine", adminHandle: "mine_admin" }, cookie)).json;
  const nearHorizon = new Date(s.first.getTime() + (SERIES_HORIZON_DAYS - 3) * DAY + 60_000).toISOString();
  const [projects, ...heavy] = await Promise.all([
    stack.call("GET", "/api/projects", undefined, cookie),
    ...Array.from({ length: 5 }, (_, i) => s.skip(i % 2 ? nearHorizon : "2099-06-01T06:00:00.000Z")),
  ]);
  expect(projects.status).toBe(200);
  expect(projects.json.map((p: { id: number }) => p.id)).toEqual([mine.id]);
  // each heavy request was refused within its bound: beyond the horizon, or stepped to it and found no occurrence
  expect(heavy.map((r) => r.json.code)).toEqual(["schedule.skipBeyondHorizon", "schedule.notAnOccurrence", "schedule.skipBeyondHorizon", "schedule.notAnOccurrence", "schedule.skipBeyondHorizon"]);
});
