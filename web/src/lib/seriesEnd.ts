/*
 * A recurring series' end (docs/autopilot-and-ai.md "Autopilot", "Series end and skip"): never, after N posts
 * (the occurrences made so far count), or on a day in the project's zone. The schedule form
 * checks what it sends as the server will: the value schemas are the API's own
 * (contract/posts.ts), and the two rules SQL holds (app_private.assert_series_end: one
 * way at most, not before the first post's day) are mirrored here; the cases of
 * tests/cases/series_end_cases.ts drive both sides.
 */
import { DateFormatter, parseDate } from "@internationalized/date";
import * as v from "valibot";
import type { ErrorCode } from "../../../contract/error_codes.ts";
import { type Post, SeriesEndsAfterSchema, SeriesEndsOnSchema } from "../../../contract/posts.ts";

export type SeriesEnd = { endsAfter: number | null; endsOn: string | null };

/**
 * Why the server would refuse this end for a series whose first post is on `firstDay`
 * (YYYY-MM-DD in the project's zone), or null when it would take it.
 */
export function seriesEndProblem(end: SeriesEnd, firstDay: string): ErrorCode | null {
  for (const [schema, value] of [[SeriesEndsAfterSchema, end.endsAfter], [SeriesEndsOnSchema, end.endsOn]] as const) {
    const parsed = v.safeParse(schema, value);
    if (!parsed.success) return parsed.issues[0].message as ErrorCode;
  }
  if (end.endsAfter !== null && end.endsOn !== null) return "schedule.seriesEndsTwice";
  // Days as YYYY-MM-DD compare as text.
  if (end.endsOn !== null && end.endsOn < firstDay) return "schedule.seriesEndsBeforeStart";
  return null;
}

/** The form's "Ends" control: one way chosen, each way's field kept while another is shown. */
export type SeriesEndMode = "never" | "after" | "on";
export type SeriesEndForm = { mode: SeriesEndMode; after: number | string; on: string };

/** What the form shows for a series: its current end, or none for a new one. */
export function seriesEndForm(series: Pick<Post, "endsAfter" | "endsOn"> | null): SeriesEndForm {
  const endsAfter = series?.endsAfter ?? null;
  const endsOn = series?.endsOn ?? null;
  return { mode: endsAfter !== null ? "after" : endsOn !== null ? "on" : "never", after: endsAfter ?? "", on: endsOn ?? "" };
}

/** The end the form sends: only the chosen way's value (an empty field stays for the check to refuse). */
export function seriesEndOf(form: SeriesEndForm): SeriesEnd {
  const after = form.after === "" ? Number.NaN : Number(form.after);
  return { endsAfter: form.mode === "after" ? after : null, endsOn: form.mode === "on" ? form.on : null };
}

/** "3 дек." / "3 Dec" for a day (YYYY-MM-DD), with the year when it is not `currentYear`. */
export function formatEndDay(day: string, locale: string, currentYear: number): string {
  const date = parseDate(day);
  const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", timeZone: "UTC" };
  if (date.year !== currentYear) options.year = "numeric";
  return new DateFormatter(locale, options).format(date.toDate("UTC"));
}
