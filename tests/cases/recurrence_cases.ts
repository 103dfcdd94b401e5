/*
 * Recurring posts are computed twice: the server steps a series and hands out drafts
 * (sql/functions/series.sql), and the calendar shows the occurrences to come with the draft
 * each will take (web/src/lib/recurrence.ts). One table of cases drives both:
 * tests/sql/posts.test.ts ("recurring rotation") and tests/web/recurrence.test.ts; the rotation
 * cases reach the calendar through the API's drafts list and range read
 * (tests/api/lean_reads.test.ts), since the drafts list says which post holds each draft.
 */
import type { PostStatus } from "../../contract/posts.ts";

export type SteppingCase = {
  name: string;
  timeZone: string;
  type: "daily" | "weekly";
  /** The series' scheduled time, then each next occurrence, as instants. */
  occurrences: string[];
};

export const STEPPING_CASES: SteppingCase[] = [
  {
    name: "daily keeps the wall-clock time when the clocks go forward (10:00, Berlin)",
    timeZone: "Europe/Berlin",
    type: "daily",
    occurrences: ["2027-03-27T09:00:00.000Z", "2027-03-28T08:00:00.000Z", "2027-03-29T08:00:00.000Z"],
  },
  {
    name: "weekly keeps the wall-clock time when the clocks go forward (09:00, Berlin)",
    timeZone: "Europe/Berlin",
    type: "weekly",
    occurrences: ["2025-03-25T08:00:00.000Z", "2025-04-01T07:00:00.000Z", "2025-04-08T07:00:00.000Z"],
  },
  {
    name: "daily keeps the wall-clock time when the clocks go back (09:00, New York)",
    timeZone: "America/New_York",
    type: "daily",
    occurrences: ["2025-11-01T13:00:00.000Z", "2025-11-02T14:00:00.000Z", "2025-11-03T14:00:00.000Z"],
  },
  {
    name: "weekly keeps the wall-clock time when the clocks go back (09:00, Sydney)",
    timeZone: "Australia/Sydney",
    type: "weekly",
    occurrences: ["2025-03-29T22:00:00.000Z", "2025-04-05T23:00:00.000Z", "2025-04-12T23:00:00.000Z"],
  },
  {
    name: "a time the clocks skip becomes the hour after, and the series stays there (02:30, Berlin)",
    timeZone: "Europe/Berlin",
    type: "daily",
    occurrences: ["2025-03-29T01:30:00.000Z", "2025-03-30T01:30:00.000Z", "2025-03-31T01:30:00.000Z"],
  },
  {
    name: "a time the clocks pass twice is the later one, as in PostgreSQL (02:30, Berlin)",
    timeZone: "Europe/Berlin",
    type: "daily",
    occurrences: ["2025-10-25T00:30:00.000Z", "2025-10-26T01:30:00.000Z", "2025-10-27T01:30:00.000Z"],
  },
  {
    name: "days are the project's, across a month's end (00:30, Moscow)",
    timeZone: "Europe/Moscow",
    type: "daily",
    occurrences: ["2025-03-30T21:30:00.000Z", "2025-03-31T21:30:00.000Z", "2025-04-01T21:30:00.000Z"],
  },
];

export type RotationCase = {
  name: string;
  /** The project's drafts, in the order they were written. */
  drafts: { title: string; order: number }[];
  /** Posts that already hold a draft (by title). */
  posts: { draft: string; status: PostStatus }[];
  /** What a daily series' next occurrences take, in turn; null: no draft is left (the series stops). */
  takes: (string | null)[];
};

export const ROTATION_CASES: RotationCase[] = [
  {
    name: "occurrences take the drafts in order, then the series runs out",
    drafts: [{ title: "First", order: 0 }, { title: "Second", order: 1 }, { title: "Third", order: 2 }],
    posts: [],
    takes: ["First", "Second", "Third", null],
  },
  {
    name: "the drafts' order decides, not the order they were written in",
    drafts: [{ title: "Later", order: 2 }, { title: "First", order: 0 }, { title: "Middle", order: 1 }],
    posts: [],
    takes: ["First", "Middle", "Later", null],
  },
  {
    name: "a draft held by a live or published post is skipped; a rejected or failed post gives it back",
    drafts: ["Draft", "Scheduled", "Approved", "Sending", "Uncertain", "Published", "Rejected", "Failed"]
      .map((title, order) => ({ title, order })),
    posts: (["draft", "scheduled", "approved", "sending", "uncertain", "published", "rejected", "failed"] as const)
      .map((status) => ({ draft: status[0].toUpperCase() + status.slice(1), status })),
    takes: ["Rejected", "Failed", null],
  },
];

export type EndingCase = {
  name: string;
  timeZone: string;
  type: "daily" | "weekly";
  scheduledFor: string;
  recurringLastPost: string | null;
  endsAfter: number | null;
  /** A day in the project's zone, YYYY-MM-DD. */
  endsOn: string | null;
  occurrencesMade: number;
  skipped: string[];
  /** The occurrences still to make (skipped ones left out), up to the end or the case's last day. */
  upcoming: string[];
  /** The last day looked at (YYYY-MM-DD, the project's zone). */
  until: string;
};

/** A series' end and skipped dates (app_private.series_upcoming and seriesOccurrences). */
export const ENDING_CASES: EndingCase[] = [
  {
    name: "ends after 3 posts",
    timeZone: "Europe/Moscow", type: "daily", scheduledFor: "2027-01-04T06:00:00.000Z", recurringLastPost: null,
    endsAfter: 3, endsOn: null, occurrencesMade: 0, skipped: [], until: "2027-01-31",
    upcoming: ["2027-01-04T06:00:00.000Z", "2027-01-05T06:00:00.000Z", "2027-01-06T06:00:00.000Z"],
  },
  {
    name: "ends after 3 posts, one made: two to come",
    timeZone: "Europe/Moscow", type: "daily", scheduledFor: "2027-01-04T06:00:00.000Z", recurringLastPost: "2027-01-04T06:00:00.000Z",
    endsAfter: 3, endsOn: null, occurrencesMade: 1, skipped: [], until: "2027-01-31",
    upcoming: ["2027-01-05T06:00:00.000Z", "2027-01-06T06:00:00.000Z"],
  },
  {
    name: "a skipped date takes none of the 3 posts",
    timeZone: "Europe/Moscow", type: "daily", scheduledFor: "2027-01-04T06:00:00.000Z", recurringLastPost: null,
    endsAfter: 3, endsOn: null, occurrencesMade: 0, skipped: ["2027-01-05T06:00:00.000Z"], until: "2027-01-31",
    upcoming: ["2027-01-04T06:00:00.000Z", "2027-01-06T06:00:00.000Z", "2027-01-07T06:00:00.000Z"],
  },
  {
    name: "weekly, ends on a date: that day's occurrence is the last",
    timeZone: "Europe/Moscow", type: "weekly", scheduledFor: "2027-01-04T06:00:00.000Z", recurringLastPost: null,
    endsAfter: null, endsOn: "2027-01-18", occurrencesMade: 0, skipped: [], until: "2027-02-28",
    upcoming: ["2027-01-04T06:00:00.000Z", "2027-01-11T06:00:00.000Z", "2027-01-18T06:00:00.000Z"],
  },
  {
    name: "the end day is the project's: 23:30 in New York is the next day in UTC, and still that day there",
    timeZone: "America/New_York", type: "daily", scheduledFor: "2027-03-13T04:30:00.000Z", recurringLastPost: null,
    endsAfter: null, endsOn: "2027-03-14", occurrencesMade: 0, skipped: ["2027-03-13T04:30:00.000Z"], until: "2027-03-31",
    upcoming: ["2027-03-14T04:30:00.000Z", "2027-03-15T03:30:00.000Z"],
  },
];
