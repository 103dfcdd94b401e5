/*
 * The schedule form's time (spec §5: HH:mm, hours 0-23, two-digit minutes) and the instant
 * it names in the project's timezone; a series' end, refused as the server refuses it.
 */
import { CalendarDate } from "@internationalized/date";
import * as v from "valibot";
import { expect, test } from "vitest";
import { ScheduleFormSchema } from "../../contract/posts.ts";
import { instantOn } from "../../web/src/lib/projectTime.ts";
import { seriesEndForm, seriesEndOf, seriesEndProblem } from "../../web/src/lib/seriesEnd.ts";
import { SERIES_END_CASES } from "../cases/series_end_cases.ts";

const form = (scheduledTime: string) => v.safeParse(ScheduleFormSchema, { title: "T", scheduledTime });

test("hours 0-23 with one or two digits and two-digit minutes are times; anything else gets the HH:mm message", () => {
  for (const ok of ["0:00", "9:30", "09:30", "19:05", "23:59"]) expect(form(ok).success, ok).toBe(true);
  for (const bad of ["24:00", "9:5", "09:60", "930", "9.30", " 9:30", "", "12:3a"]) {
    const parsed = form(bad);
    expect(parsed.success, bad).toBe(false);
    expect(parsed.issues?.[0].message).toBe("schedule.invalidTime");
  }
});

test("'9:30' on a day in Moscow is 06:30 UTC, the same instant as '09:30'", () => {
  const day = new CalendarDate(2026, 12, 1);
  expect(instantOn(day, "9:30", "Europe/Moscow")?.toAbsoluteString()).toBe("2026-12-01T06:30:00.000Z");
  expect(instantOn(day, "09:30", "Europe/Moscow")?.toAbsoluteString()).toBe("2026-12-01T06:30:00.000Z");
  expect(instantOn(day, "24:00", "Europe/Moscow")).toBeNull();
});

test.each(SERIES_END_CASES)("a series' end: $name", (c) => {
  expect(seriesEndProblem({ endsAfter: c.endsAfter, endsOn: c.endsOn }, c.firstDay)).toBe(c.refused);
});

test("the form sends only the chosen way's end; an empty count is refused, not sent as no end", () => {
  const form = seriesEndForm({ endsAfter: 5, endsOn: null });
  expect(form).toEqual({ mode: "after", after: 5, on: "" });
  expect(seriesEndOf({ ...form, on: "2027-01-20" })).toEqual({ endsAfter: 5, endsOn: null });
  expect(seriesEndOf({ ...form, mode: "on", on: "2027-01-20" })).toEqual({ endsAfter: null, endsOn: "2027-01-20" });
  expect(seriesEndOf({ ...form, mode: "never" })).toEqual({ endsAfter: null, endsOn: null });
  expect(seriesEndProblem(seriesEndOf({ mode: "after", after: "", on: "" }), "2027-01-11")).toBe("schedule.seriesEndsAfterInvalid");
  expect(seriesEndForm(null)).toEqual({ mode: "never", after: "", on: "" });
});
