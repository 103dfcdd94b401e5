/*
 * The times and days a request may carry (a schedule, a skip, a series' last day, a range of
 * the calendar or the statistics, a page's cursor), checked once for every route. A time is
 * ISO 8601 with its zone; its calendar day must exist (2027-02-30 does not) and its year lie
 * within TIME_YEARS. Outside them PostgreSQL either refuses the value (the year 0000, which
 * answered 500) or takes a date the product can do nothing useful with.
 */
import * as v from "valibot";
import { TIME_YEARS } from "./limits.ts";

/** A refusal for a year outside TIME_YEARS, the same on every route (its params are the bounds). */
export const YEAR_OUT_OF_RANGE = "time.yearOutOfRange";

/** YYYY-MM-DD, then hours and minutes, optional seconds and fraction, and a zone (Z or an offset). */
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z| ?[+-]([01]\d|2[0-3])(:?[0-5]\d)?)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The day of YYYY-MM-DD is on the calendar (a month 1–12, a day that month has). */
function dayExists(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const last = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= last;
}

const yearWithin = (year: number) => year >= TIME_YEARS.min && year <= TIME_YEARS.max;

/**
 * An instant with its zone, answered as the API prints times (UTC, milliseconds), so SQL
 * always receives one form. `code` refuses what is no such time (`missingCode` what is no
 * text at all); a year out of TIME_YEARS
 * (of the instant, in UTC) is refused with YEAR_OUT_OF_RANGE.
 */
export const isoInstant = (code: string, missingCode = code) =>
  v.pipe(
    v.string(missingCode),
    v.regex(INSTANT, code),
    v.check(dayExists, code),
    v.transform((text) => Date.parse(text)),
    v.check((ms) => !Number.isNaN(ms), code),
    v.check((ms) => yearWithin(new Date(ms).getUTCFullYear()), YEAR_OUT_OF_RANGE),
    v.transform((ms) => new Date(ms).toISOString()),
  );

/** A calendar day, YYYY-MM-DD (a day in a project's zone), within TIME_YEARS. */
export const isoDay = (code: string) =>
  v.pipe(
    v.string(code),
    v.regex(DAY, code),
    v.check(dayExists, code),
    v.check((day) => yearWithin(Number(day.slice(0, 4))), YEAR_OUT_OF_RANGE),
  );
