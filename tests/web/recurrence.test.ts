/*
 * The calendar's expansion of recurring posts (spec §3 Virtual occurrence, §4 Recurring
 * posts): where occurrences start, their ids, the drafts they will take, DST.
 */
import { CalendarDate } from "@internationalized/date";
import { describe, expect, test } from "vitest";
import type { Draft } from "../../api/contract/drafts.ts";
import type { Post } from "../../api/contract/posts.ts";
import { availableDrafts, calendarPosts, isVirtualPost, seriesOccurrences, stoppedSeries } from "../../web/src/lib/recurrence.ts";

const post = (fields: Partial<Post> & { id: number; scheduledFor: string }): Post => ({
  projectId: 1,
  draftId: null,
  seriesId: null,
  title: "",
  content: "",
  imageUrl: null,
  status: "draft",
  createdAt: "2025-03-01T00:00:00Z",
  isRecurring: false,
  recurringType: "none",
  recurringLastPost: null,
  approvalMessageIds: {},
  publishedLinks: {},
  publishedAt: null,
  lastError: null,
  ...fields,
});
const draft = (id: number, title: string, order: number): Draft => ({
  id, projectId: 1, title, content: `${title} text`, imageUrl: null, order, status: "draft", createdAt: "2025-03-01T00:00:00Z",
});

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

  test("weekly steps keep the wall-clock time across a DST change in the project's timezone", () => {
    // Berlin moves from UTC+1 to UTC+2 on 30 March 2025.
    const series = post({ id: 3, isRecurring: true, recurringType: "weekly", scheduledFor: "2025-03-25T08:00:00Z" });
    const window = { timeZone: "Europe/Berlin", today: new CalendarDate(2025, 3, 20), until: new CalendarDate(2025, 4, 10) };
    const occurrences = seriesOccurrences(series, window);
    expect(days(occurrences)).toEqual(["25 9:00", "1 9:00", "8 9:00"]);
    expect(occurrences.map((o) => o.at.toAbsoluteString())).toEqual([
      "2025-03-25T08:00:00.000Z",
      "2025-04-01T07:00:00.000Z",
      "2025-04-08T07:00:00.000Z",
    ]);
    expect(occurrences.map((o) => o.offset)).toEqual([0, 1, 2]);
  });

  test("the calendar day is the project's, not UTC's", () => {
    // 23:30 UTC on the 11th is 02:30 on the 12th in Moscow.
    const occurrences = seriesOccurrences(daily({ scheduledFor: "2025-03-11T23:30:00Z" }), march);
    expect(days(occurrences)[0]).toBe("12 2:30");
  });
});

describe("calendarPosts", () => {
  const drafts = [draft(1, "First", 0), draft(2, "Second", 1), draft(3, "Third", 2)];

  test("virtual occurrences get ids of original × 1,000,000 + offset and the free drafts in order", () => {
    const oneTime = post({ id: 20, draftId: 1, title: "First", scheduledFor: "2025-03-20T10:00:00Z" });
    const shown = calendarPosts([daily(), oneTime], drafts, { ...march, until: new CalendarDate(2025, 3, 14) });
    const virtual = shown.filter(isVirtualPost);
    expect(virtual.map((p) => p.id)).toEqual([7_000_000, 7_000_001, 7_000_002]);
    expect(virtual.every((p) => p.originalPostId === 7)).toBe(true);
    // draft 1 belongs to the one-time post, so the series takes 2, 3, then nothing is left
    expect(virtual.map((p) => p.draftId)).toEqual([2, 3, null]);
    expect(virtual.map((p) => p.title)).toEqual(["Second", "Third", ""]);
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
    const stopped = daily({ status: "failed", lastError: "schedule.seriesOutOfDrafts", recurringLastPost: "2025-03-11T06:00:00Z" });
    const shown = calendarPosts([stopped, occurrence], drafts, march);
    expect(shown.map((p) => p.id)).toEqual([30]);
    expect(stoppedSeries([stopped, occurrence]).map((p) => p.id)).toEqual([7]);
  });
});

test("availableDrafts: a live post claims its draft; a rejected or failed one gives it back", () => {
  const drafts = [draft(1, "A", 0), draft(2, "B", 1), draft(3, "C", 2)];
  const posts = [
    post({ id: 1, draftId: 1, status: "approved", scheduledFor: "2025-03-20T10:00:00Z" }),
    post({ id: 2, draftId: 2, status: "rejected", scheduledFor: "2025-03-20T10:00:00Z" }),
  ];
  expect(availableDrafts(drafts, posts).map((d) => d.id)).toEqual([2, 3]);
  // editing post 1 may keep its own draft
  expect(availableDrafts(drafts, posts, 1).map((d) => d.id)).toEqual([1, 2, 3]);
});
