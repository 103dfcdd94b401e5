import type { CalendarDate } from "@internationalized/date";
import { toCalendarDate } from "@internationalized/date";
import type { StatsRange } from "../../api/stats.ts";
import { zonedAt } from "../../lib/projectTime.ts";

/** The range presets, in days back from now: a week, a month, a quarter, a year. */
export const RANGE_PRESETS = [7, 30, 90, 365] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/**
 * The last `days` days up to the next whole minute: a sample taken this minute is inside, and
 * the key stays the same while the page is open (a new preset reads afresh).
 */
export function rangeOfDays(days: number, nowMs = Date.now()): StatsRange {
  const to = Math.ceil((nowMs + 1) / MINUTE_MS) * MINUTE_MS;
  return { from: new Date(to - days * DAY_MS).toISOString(), to: new Date(to).toISOString() };
}

/** Every day of the range in the project's timezone, as "YYYY-MM-DD" (the API leaves quiet days out). */
export function daysOf(range: StatsRange, timeZone: string): string[] {
  const last: CalendarDate = toCalendarDate(zonedAt(new Date(Date.parse(range.to) - 1).toISOString(), timeZone));
  const days: string[] = [];
  for (let day = toCalendarDate(zonedAt(range.from, timeZone)); day.compare(last) <= 0; day = day.add({ days: 1 })) {
    days.push(day.toString());
  }
  return days;
}

/** The instant's day in the project's timezone, "YYYY-MM-DD". */
export function dayOf(iso: string, timeZone: string): string {
  return toCalendarDate(zonedAt(iso, timeZone)).toString();
}
