/*
 * A series' end is checked twice: the server refuses a bad one (the API's schemas, then
 * app_private.assert_series_end), and the schedule form refuses it first
 * (web/src/lib/seriesEnd.ts). One table of cases drives both: tests/sql/posts.test.ts
 * ("a series' end") and tests/web/schedule_form.test.ts.
 */
import type { ErrorCode } from "../../contract/error_codes.ts";

export type SeriesEndCase = {
  name: string;
  timeZone: string;
  /** The series' first post, an instant; `firstDay` is its day in `timeZone`. */
  firstAt: string;
  firstDay: string;
  endsAfter: number | null;
  endsOn: string | null;
  /** The refusal, or null when the end is taken. */
  refused: ErrorCode | null;
  /** Checked by the API's schemas before SQL sees it (the SQL side leaves these out). */
  bySchema?: true;
};

// 22:30 UTC on 10 January is already 01:30 on the 11th in Moscow.
const lateEvening = { timeZone: "Europe/Moscow", firstAt: "2027-01-10T22:30:00.000Z", firstDay: "2027-01-11" };

export const SERIES_END_CASES: SeriesEndCase[] = [
  { name: "no end is taken", ...lateEvening, endsAfter: null, endsOn: null, refused: null },
  { name: "after 1 post is taken", ...lateEvening, endsAfter: 1, endsOn: null, refused: null },
  { name: "after 1000 posts is taken", ...lateEvening, endsAfter: 1000, endsOn: null, refused: null },
  { name: "on the first post's own day (in the project's zone) is taken", ...lateEvening, endsAfter: null, endsOn: "2027-01-11", refused: null },
  {
    name: "on the day before, the first post's day in UTC but not in the project's zone, is refused",
    ...lateEvening, endsAfter: null, endsOn: "2027-01-10", refused: "schedule.seriesEndsBeforeStart",
  },
  { name: "both ways at once are refused", ...lateEvening, endsAfter: 3, endsOn: "2027-02-01", refused: "schedule.seriesEndsTwice" },
  { name: "after 0 posts is refused", ...lateEvening, endsAfter: 0, endsOn: null, refused: "schedule.seriesEndsAfterInvalid", bySchema: true },
  { name: "after 1001 posts is refused", ...lateEvening, endsAfter: 1001, endsOn: null, refused: "schedule.seriesEndsAfterInvalid", bySchema: true },
  { name: "after 2.5 posts is refused", ...lateEvening, endsAfter: 2.5, endsOn: null, refused: "schedule.seriesEndsAfterInvalid", bySchema: true },
  { name: "a day that does not exist is refused", ...lateEvening, endsAfter: null, endsOn: "2027-02-30", refused: "schedule.seriesEndsOnInvalid", bySchema: true },
  { name: "an empty day is refused", ...lateEvening, endsAfter: null, endsOn: "", refused: "schedule.seriesEndsOnInvalid", bySchema: true },
];
