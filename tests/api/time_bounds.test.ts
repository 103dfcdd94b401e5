/*
 * Every time and day a request carries is refused outside TIME_YEARS with 400
 * time.yearOutOfRange, before anything is read or stored: the year 0000 answered 500 on
 * each of these routes (PostgreSQL has no year 0). The bounds themselves are accepted, and a
 * day the calendar lacks keeps its route's own code.
 */
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TIME_YEARS } from "../../contract/limits.ts";
import { isoDay, isoInstant } from "../../contract/time.ts";
import { projectWithChannel, tomorrowNine } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

const REFUSED = { code: "time.yearOutOfRange", message: `Times must lie in the years ${TIME_YEARS.min} to ${TIME_YEARS.max}` };
const YEAR_ZERO = "0000-01-01T00:00:00.000Z";
const TOO_EARLY = `${TIME_YEARS.min - 1}-12-31T12:00:00.000Z`;
const TOO_LATE = `${TIME_YEARS.max + 1}-01-01T00:00:00.000Z`;

describe("the shared schemas", () => {
  const instant = isoInstant("schedule.scheduledForInvalid");
  const code = (schema: v.GenericSchema, input: unknown) => {
    const parsed = v.safeParse(schema, input);
    return parsed.success ? parsed.output : parsed.issues[0].message;
  };
  test("a year is judged on the instant in UTC, and the instant is answered as the API prints times", () => {
    expect(code(instant, "2026-03-01T10:00:00+03:00")).toBe("2026-03-01T07:00:00.000Z");
    expect(code(instant, `${TIME_YEARS.min}-01-01T02:00+05:00`)).toBe("time.yearOutOfRange"); // the day before, in UTC
    expect(code(instant, `${TIME_YEARS.min}-01-01T00:00:00Z`)).toBe(`${TIME_YEARS.min}-01-01T00:00:00.000Z`);
    expect(code(instant, `${TIME_YEARS.max}-12-31T23:59:59.999Z`)).toBe(`${TIME_YEARS.max}-12-31T23:59:59.999Z`);
    for (const text of [YEAR_ZERO, "0001-01-01T03:00:00+05:00", TOO_EARLY, TOO_LATE, "9999-12-31T23:59:59Z"]) {
      expect(code(instant, text), text).toBe("time.yearOutOfRange");
    }
  });
  test("what is no time keeps the route's code", () => {
    for (const text of ["2027-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01", "yesterday", "2026-01-01T00:00:00"]) {
      expect(code(instant, text), text).toBe("schedule.scheduledForInvalid");
    }
    expect(code(isoDay("schedule.seriesEndsOnInvalid"), "2028-02-29")).toBe("2028-02-29");
    expect(code(isoDay("schedule.seriesEndsOnInvalid"), "2027-02-29")).toBe("schedule.seriesEndsOnInvalid");
    expect(code(isoDay("schedule.seriesEndsOnInvalid"), "0000-01-01")).toBe("time.yearOutOfRange");
  });
});

describe("every route", () => {
  let stack: Stack;
  let p: Awaited<ReturnType<typeof projectWithChannel>>;
  let series: number;
  let oneOff: number;
  const rows = async () => await stack.sql`select id, scheduled_for, series_skips, series_ends_on, updated_at from app_public.posts where project_id = ${p.project.id} order by id`;

  beforeAll(async () => {
    stack = await startStack({ telegram: true });
    p = await projectWithChannel(stack, { drafts: ["A", "B"] });
    const first = tomorrowNine().toISOString();
    series = (await stack.call("POST", `${p.base}/posts`, { scheduledFor: first, isRecurring: true, recurringType: "daily", title: "Daily" }, p.cookie)).json.id;
    oneOff = (await stack.call("POST", `${p.base}/posts`, { scheduledFor: first, draftId: p.drafts[0].id }, p.cookie)).json.id;
  });
  afterAll(() => stack?.close());

  test("reads: statistics, the calendar's range and the Published page's cursor", async () => {
    const near = `${TIME_YEARS.min}-01-02T00:00:00.000Z`;
    for (const bad of [YEAR_ZERO, TOO_EARLY, TOO_LATE]) {
      for (const query of [`from=${bad}&to=${near}`, `to=${bad}`]) {
        const res = await stack.call("GET", `${p.base}/stats?${query}`, undefined, p.cookie);
        expect([res.status, res.json], `stats ${query}`).toEqual([400, REFUSED]);
      }
      for (const query of [`from=${bad}&to=${near}`, `from=${near}&to=${bad}`]) {
        const res = await stack.call("GET", `${p.base}/posts?${query}`, undefined, p.cookie);
        expect([res.status, res.json], `posts ${query}`).toEqual([400, REFUSED]);
      }
      const page = await stack.call("GET", `${p.base}/posts/published?before=${bad}&beforeId=1`, undefined, p.cookie);
      expect([page.status, page.json], `published ${bad}`).toEqual([400, REFUSED]);
    }
    // the bounds themselves are read
    const edge = `${TIME_YEARS.max}-12-01T00:00:00.000Z`;
    expect((await stack.call("GET", `${p.base}/stats?from=${edge}&to=${TIME_YEARS.max}-12-31T00:00:00Z`, undefined, p.cookie)).status).toBe(200);
    expect((await stack.call("GET", `${p.base}/posts?from=${edge}&to=${TIME_YEARS.max}-12-31T00:00:00Z`, undefined, p.cookie)).status).toBe(200);
    expect((await stack.call("GET", `${p.base}/posts/published?before=${near}&beforeId=1`, undefined, p.cookie)).json).toEqual([]);
    // a day the calendar lacks keeps the route's code
    expect((await stack.call("GET", `${p.base}/stats?to=2026-02-30T00:00:00Z`, undefined, p.cookie)).json.code).toBe("stats.rangeNotIso");
  });

  test("writes: scheduling, a series' end and a skip; nothing changes", async () => {
    const before = await rows();
    for (const bad of [YEAR_ZERO, TOO_EARLY, TOO_LATE]) {
      const writes = [
        ["POST", `${p.base}/posts`, { scheduledFor: bad, draftId: p.drafts[1].id }],
        ["PUT", `${p.base}/posts/${oneOff}`, { scheduledFor: bad, draftId: p.drafts[0].id }],
        ["PUT", `${p.base}/posts/${series}`, { scheduledFor: bad, isRecurring: true, recurringType: "daily", title: "Daily" }],
        ["PUT", `${p.base}/posts/${series}`, { scheduledFor: tomorrowNine().toISOString(), isRecurring: true, recurringType: "daily", title: "Daily", endsOn: bad.slice(0, 10) }],
        ["POST", `${p.base}/posts/${series}/skip`, { at: bad }],
        ["POST", `${p.base}/posts/${series}/skip`, { at: bad, skip: false }],
      ] as const;
      for (const [method, path, body] of writes) {
        const res = await stack.call(method, path, body, p.cookie);
        expect([res.status, res.json], `${method} ${path} ${JSON.stringify(body)}`).toEqual([400, REFUSED]);
      }
    }
    expect(await rows()).toEqual(before);
  });
});
