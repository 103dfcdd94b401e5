/*
 * The calendar's expansion of recurring posts (spec §3 Virtual occurrence, §4 Recurring
 * posts): where occurrences start, their ids, the drafts they will take, DST.
 */
import { CalendarDate, parseDate, toCalendarDate } from "@internationalized/date";
import { describe, expect, test } from "vitest";
import type { Post } from "../../contract/posts.ts";
import { sortDrafts } from "../../web/src/api/drafts.ts";
import { zonedAt } from "../../web/src/lib/projectTime.ts";
import { availableDrafts, calendarPosts, isVirtualPost, seriesOccurrences, stoppedSeries, wholeOccurrence } from "../../web/src/lib/recurrence.ts";
import { ENDING_CASES, STEPPING_CASES } from "../cases/recurrence_cases.ts";
import { draft, post } from "../helpers/posts.ts";

const moscow = "Europe/Moscow";
const march = { timeZone: moscow, today: new CalendarDate(2025, 3, 10), until: new CalendarDate(2025, 3, 31) };
// 09:00 in Moscow (UTC+3) is 06:00 UTC.
const daily = (fields: Partial<Post> = {}) =>
  post({ id: 7, isRecurring: true, recurringType: "daily", scheduledFor: "2025-03-12T06:00:00Z", ...fields });

const days = (occurrences: { at: { day: number; hour: number; minute: number } }[]) =>
  occurrences.map(({ at }) => `${at.day} ${at.hour}:${String(at.minute).padStart(2, "0")}`);

describe("seriesOccurrences", () => {
  test("a daily series starts on its scheduled date and runs to the end of the shown month", () => {
    const occurrences = seriesOccurrences(daily(), march);
    expect(occurrences).toHaveLength(20); // 12 … 31 March
    expect(days(occurrences).slice(0, 2)).toEqual(["12 9:00", "13 9:00"]);
    expect(occurrences.map((o) => o.offset).slice(0, 3)).toEqual([0, 1, 2]);
  });

  test("a first date in the past (not today) is skipped; occurrences continue from today", () => {
    const occurrences = seriesOccurrences(daily({ scheduledFor: "2025-03-05T06:00:00Z" }), march);
    expect(days(occurrences)[0]).toBe("10 9:00");
    expect(occurrences[0].offset).toBe(5);
  });

  test("today counts even when its time has passed", () => {
    const occurrences = seriesOccurrences(daily({ scheduledFor: "2025-03-10T03:00:00Z" }), march);
    expect(days(occurrences)[0]).toBe("10 6:00");
  });

  test("with an occurrence already created, the next one is a step after it", () => {
    const occurrences = seriesOccurrences(daily({ recurringLastPost: "2025-03-14T06:00:00Z" }), march);
    expect(days(occurrences)[0]).toBe("15 9:00");
    expect(occurrences[0].offset).toBe(3);
  });

  test("the calendar day is the project's, not UTC's", () => {
    // 23:30 UTC on the 11th is 02:30 on the 12th in Moscow.
    const occurrences = seriesOccurrences(daily({ scheduledFor: "2025-03-11T23:30:00Z" }), march);
    expect(days(occurrences)[0]).toBe("12 2:30");
  });
});

describe("calendarPosts", () => {
  const drafts = [draft(1, "First", 0), draft(2, "Second", 1), draft(3, "Third", 2)];

  test("virtual occurrences get ids of original × 1,000,000 + offset, beside the real posts", () => {
    const oneTime = post({ id: 20, draftId: 1, title: "First", scheduledFor: "2025-03-20T10:00:00Z" });
    const shown = calendarPosts([daily(), oneTime], drafts, { ...march, until: new CalendarDate(2025, 3, 14) });
    const virtual = shown.filter(isVirtualPost);
    expect(virtual.map((p) => p.id)).toEqual([7_000_000, 7_000_001, 7_000_002]);
    expect(virtual.every((p) => p.originalPostId === 7)).toBe(true);
    expect(shown.filter((p) => !isVirtualPost(p)).map((p) => p.id)).toEqual([20]);
  });

  test("two series share the drafts in time order", () => {
    const morning = daily({ id: 1 });
    const evening = daily({ id: 2, scheduledFor: "2025-03-12T15:00:00Z" });
    const shown = calendarPosts([evening, morning], drafts, { ...march, until: new CalendarDate(2025, 3, 13) }).filter(isVirtualPost);
    expect(shown.map((p) => [p.originalPostId, p.offset, p.draftId])).toEqual([
      [1, 0, 1],
      [2, 0, 2],
      [1, 1, 3],
      [2, 1, null],
    ]);
  });

  test("real occurrences show as posts; a stopped series shows none and is reported", () => {
    const occurrence = post({ id: 30, seriesId: 7, draftId: 1, status: "published", scheduledFor: "2025-03-11T06:00:00Z" });
    const stopped = daily({ status: "failed", lastErrorCode: "schedule.seriesOutOfDrafts", recurringLastPost: "2025-03-11T06:00:00Z" });
    const shown = calendarPosts([stopped, occurrence], drafts, march);
    expect(shown.map((p) => p.id)).toEqual([30]);
    expect(stoppedSeries([stopped, occurrence]).map((p) => p.id)).toEqual([7]);
  });
});

test("availableDrafts: a draft held by a post is taken, except by the post being edited", () => {
  // the drafts list says which post holds each draft, wherever that post lies in time
  const drafts = [draft(1, "A", 0, 1), draft(2, "B", 1), draft(3, "C", 2, 9)];
  expect(availableDrafts(drafts).map((d) => d.id)).toEqual([2]);
  expect(availableDrafts(drafts, 1).map((d) => d.id)).toEqual([1, 2]);
});

test("calendarPosts: occurrences skip the drafts the list says are held, with no held post in the range", () => {
  const drafts = [draft(1, "Held far ahead", 0, 55), draft(2, "Free", 1), draft(3, "Also free", 2)];
  const shown = calendarPosts([daily()], drafts, { ...march, until: new CalendarDate(2025, 3, 14) }).filter(isVirtualPost);
  expect(shown.map((p) => p.title)).toEqual(["Free", "Also free", ""]);
});

// The same cases run against the server's functions (tests/sql/posts.test.ts, "recurring rotation").
describe("shared with SQL: tests/cases/recurrence_cases.ts", () => {
  test.each(STEPPING_CASES)("$name", ({ timeZone, type, occurrences }) => {
    const series = post({ id: 3, isRecurring: true, recurringType: type, scheduledFor: occurrences[0] });
    const dayOf = (instant: string) => toCalendarDate(zonedAt(instant, timeZone));
    const shown = seriesOccurrences(series, { timeZone, today: dayOf(occurrences[0]), until: dayOf(occurrences.at(-1)!) });
    expect(shown.map((o) => o.at.toAbsoluteString())).toEqual(occurrences);
    expect(shown.map((o) => o.offset)).toEqual(occurrences.map((_, i) => i));
  });

  test.each(ENDING_CASES)("$name", (c) => {
    const series = post({
      id: 4, isRecurring: true, recurringType: c.type, scheduledFor: c.scheduledFor, recurringLastPost: c.recurringLastPost,
      endsAfter: c.endsAfter, endsOn: c.endsOn, occurrencesMade: c.occurrencesMade, skippedOccurrences: c.skipped,
    });
    const today = toCalendarDate(zonedAt(c.scheduledFor, c.timeZone));
    const shown = seriesOccurrences(series, { timeZone: c.timeZone, today, until: parseDate(c.until) });
    expect(shown.filter((o) => !o.skipped).map((o) => o.at.toAbsoluteString())).toEqual(c.upcoming);
    expect(shown.filter((o) => o.skipped).map((o) => o.at.toAbsoluteString()))
      .toEqual(c.skipped.filter((at) => at >= c.scheduledFor && shown.some((o) => o.at.toAbsoluteString() === at)));
  });
  // ROTATION_CASES: run through the API's drafts list and range read into calendarPosts,
  // tests/api/lean_reads.test.ts (which post holds a draft is the server's answer now).
});

test("a future repeat's details show the album and the buttons it will go out with: the draft's, unless the series has options of its own", () => {
  // as the schedule page picks it from the calendar's rows
  const [occurrence] = calendarPosts([daily()], [draft(1, "Album", 0)], { ...march, until: new CalendarDate(2025, 3, 12) })
    .filter(isVirtualPost) as unknown as Parameters<typeof wholeOccurrence>[0][];
  const buttons = [[{ text: "More", url: "https://example.com/more" }]];
  const album = {
    content: "Three photos", entities: [], imageUrl: "/uploads/a.png",
    imageUrls: ["/uploads/a.png", "/uploads/b.png", "/uploads/c.png"], options: { buttons, pin: true },
  };
  const shown = wholeOccurrence(occurrence, daily(), album);
  expect(shown.imageUrls).toHaveLength(3);
  expect(shown.options).toEqual({ buttons, pin: true });
  // a series with options of its own sends every repeat with them (spawn_series_occurrence)
  expect(wholeOccurrence(occurrence, daily({ options: { silent: true } }), album).options).toEqual({ silent: true });
});
