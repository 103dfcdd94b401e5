/*
 * A recurring series' end and skipped dates through the API (issue 17): it ends after N
 * posts or on a day, one way at most, never before it starts; one future occurrence can be
 * skipped and brought back; bad input is refused with a precise code and changes nothing;
 * another account reaches none of it.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectWithChannel, tomorrowNine } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

const DAY = 86400_000;

test("a series ends after N posts or on a day; the spawn job stops there", async () => {
  const p = await projectWithChannel(stack, { drafts: ["A", "B", "C", "D"] });
  const first = tomorrowNine();
  const created = await stack.call("POST", `${p.base}/posts`, {
    scheduledFor: first.toISOString(), isRecurring: true, recurringType: "daily", title: "Daily", endsAfter: 2,
  }, p.cookie);
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({ endsAfter: 2, endsOn: null, occurrencesMade: 0, skippedOccurrences: [] });
  const id = created.json.id;
  // two spawns, driven through the clock the rotation takes
  for (let day = 0; day < 3; day += 1) {
    await stack.sql`select app_public.spawn_series_occurrence(${id}, ${new Date(first.getTime() + day * DAY - 2 * 3600_000)})`;
  }
  const [{ n }] = await stack.sql`select count(*)::int as n from app_public.posts where series_id = ${id}`;
  expect(n).toBe(2);
  expect(await stack.sql`select 1 from graphile_worker.jobs where key = ${`post:${id}:spawn`}`).toHaveLength(0);
  const after = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === id);
  expect(after).toMatchObject({ occurrencesMade: 2, status: "draft" });

  // changed to end on a day: the PUT replaces the end
  const endsOn = new Date(first.getTime() + 3 * 3600_000 + 4 * DAY).toISOString().slice(0, 10);
  const put = await stack.call("PUT", `${p.base}/posts/${id}`, {
    scheduledFor: first.toISOString(), isRecurring: true, recurringType: "daily", title: "Daily", endsOn,
  }, p.cookie);
  expect(put.status).toBe(200);
  expect(put.json).toMatchObject({ endsAfter: null, endsOn });
});

test("bad ends are refused with a precise code and change nothing", async () => {
  const p = await projectWithChannel(stack, { drafts: ["A"] });
  const first = tomorrowNine();
  const series = (body: Record<string, unknown>) =>
    stack.call("POST", `${p.base}/posts`, { scheduledFor: first.toISOString(), isRecurring: true, recurringType: "daily", ...body }, p.cookie);
  const cases: [Record<string, unknown>, string][] = [
    [{ endsAfter: 0 }, "schedule.seriesEndsAfterInvalid"],
    [{ endsAfter: 1001 }, "schedule.seriesEndsAfterInvalid"],
    [{ endsAfter: 2.5 }, "schedule.seriesEndsAfterInvalid"],
    [{ endsOn: "next week" }, "schedule.seriesEndsOnInvalid"],
    [{ endsOn: "2027-02-30" }, "schedule.seriesEndsOnInvalid"],
    [{ endsAfter: 3, endsOn: "2099-01-01" }, "schedule.seriesEndsTwice"],
    [{ endsOn: new Date(first.getTime() - DAY).toISOString().slice(0, 10) }, "schedule.seriesEndsBeforeStart"],
  ];
  for (const [body, code] of cases) {
    const res = await series(body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(res.json.code, JSON.stringify(body)).toBe(code);
  }
  expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json).toEqual([]);
});

test("one future occurrence is skipped (it takes no draft) and brought back; the series goes on", async () => {
  const p = await projectWithChannel(stack, { drafts: ["A", "B", "C"] });
  const first = tomorrowNine();
  const { id } = (await stack.call("POST", `${p.base}/posts`, {
    scheduledFor: first.toISOString(), isRecurring: true, recurringType: "daily", title: "Daily",
  }, p.cookie)).json;
  const second = new Date(first.getTime() + DAY).toISOString();
  const skip = (body: Record<string, unknown>, cookie = p.cookie) => stack.call("POST", `${p.base}/posts/${id}/skip`, body, cookie);

  const skipped = await skip({ at: second });
  expect(skipped.status).toBe(200);
  expect(skipped.json.skippedOccurrences).toEqual([second]);
  // bad input: not an occurrence, in the past, malformed; and another account
  expect((await skip({ at: new Date(first.getTime() + DAY + 60_000).toISOString() })).json.code).toBe("schedule.notAnOccurrence");
  expect((await skip({ at: new Date(Date.now() - DAY).toISOString() })).json.code).toBe("schedule.notAnOccurrence");
  expect((await skip({ at: "tomorrow" })).json.code).toBe("schedule.skipAtInvalid");
  const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
  expect((await skip({ at: first.toISOString() }, stranger)).status).toBe(404);

  // the rotation passes over the skipped day: day 1 takes A, day 3 takes B
  for (let day = 0; day < 3; day += 1) {
    await stack.sql`select app_public.spawn_series_occurrence(${id}, ${new Date(first.getTime() + day * DAY - 2 * 3600_000)})`;
  }
  const made = await stack.sql`select title, scheduled_for from app_public.posts where series_id = ${id} order by scheduled_for`;
  expect(made.map((r) => [r.title, new Date(r.scheduledFor).getTime()])).toEqual([
    ["A", first.getTime()],
    ["B", first.getTime() + 2 * DAY],
  ]);
  // a date already gone by cannot be brought back as an occurrence still to come
  expect((await skip({ at: second, skip: false })).status).toBe(200);
  const third = new Date(first.getTime() + 3 * DAY).toISOString();
  expect((await skip({ at: third })).json.skippedOccurrences).toEqual([second, third].filter((at) => at === third));
  expect((await skip({ at: third, skip: false })).json.skippedOccurrences).toEqual([]);
  // a one-time post has no occurrences
  const single = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[2].id, scheduledFor: third, isRecurring: false }, p.cookie)).json;
  expect((await stack.call("POST", `${p.base}/posts/${single.id}/skip`, { at: third }, p.cookie)).json.code).toBe("schedule.notARunningSeries");
});
