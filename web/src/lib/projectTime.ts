/*
 * Dates and times of a project (spec §2 Schedule): "today", the calendar's days and every
 * post time are read in the PROJECT's timezone, never the browser's. All arithmetic goes
 * through @internationalized/date, so steps across DST changes keep the wall-clock time.
 */
import {
  CalendarDate,
  CalendarDateTime,
  DateFormatter,
  endOfMonth,
  endOfWeek,
  fromDate,
  now,
  startOfMonth,
  startOfWeek,
  toCalendarDate,
  toZoned,
  type ZonedDateTime,
} from "@internationalized/date";
import { TIME_PATTERN } from "../../../contract/posts.ts";

/** Spec §3: the schedule page reads a project without a timezone as UTC. */
export const FALLBACK_TIMEZONE = "UTC";

/** The project's timezone, or UTC when it has none (or one this browser doesn't know). */
export function projectTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return FALLBACK_TIMEZONE;
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return timeZone;
  } catch {
    return FALLBACK_TIMEZONE;
  }
}

/** An instant from the API (ISO text) as a wall-clock time in `timeZone`. */
export function zonedAt(iso: string, timeZone: string): ZonedDateTime {
  return fromDate(new Date(iso), timeZone);
}

const pad = (value: number) => String(value).padStart(2, "0");

/** "HH:mm", the form's and the calendar's 24-hour clock. */
export function clockText(time: { hour: number; minute: number }): string {
  return `${pad(time.hour)}:${pad(time.minute)}`;
}

/**
 * The instant of `time` ("HH:mm") on `date` in `timeZone`, or null for text that is not a
 * time. A time skipped by a DST change moves forward, as the clocks did.
 */
export function instantOn(date: CalendarDate, time: string, timeZone: string): ZonedDateTime | null {
  if (!TIME_PATTERN.test(time)) return null;
  const [hour, minute] = time.split(":").map(Number);
  return toZoned(new CalendarDateTime(date.year, date.month, date.day, hour, minute), timeZone);
}

/** The weeks shown for a month, each Monday to Sunday (spec §9: weeks start on Monday). */
export function monthGrid(month: CalendarDate): CalendarDate[][] {
  const first = startOfWeek(startOfMonth(month), "en-GB", "mon");
  const last = endOfWeek(endOfMonth(month), "en-GB", "mon");
  const weeks: CalendarDate[][] = [];
  for (let day = first; day.compare(last) <= 0; day = day.add({ days: 7 })) {
    weeks.push(Array.from({ length: 7 }, (_, index) => day.add({ days: index })));
  }
  return weeks;
}

/** "Март 2025" / "March 2025": the month's own name (not "марта") and the bare year (not "2025 г."). */
export function formatMonthYear(month: CalendarDate, locale: string): string {
  const name = new DateFormatter(locale, { month: "long", timeZone: "UTC" }).format(month.toDate("UTC"));
  return `${name.charAt(0).toLocaleUpperCase(locale)}${name.slice(1)} ${month.year}`;
}

/** Weekday names from Monday to Sunday: "Пн" … "Вс" / "Mon" … "Sun" (long: "Понедельник" / "Monday"). */
export function weekdayNames(locale: string, width: "short" | "narrow" | "long" = "short"): string[] {
  const formatter = new DateFormatter(locale, { weekday: width, timeZone: "UTC" });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, index) => {
    const text = formatter.format(new CalendarDate(2024, 1, 1 + index).toDate("UTC"));
    return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
  });
}

/** "среда, 12 марта" / "Wednesday 12 March", with the year when it is not `currentYear`. */
export function formatDayLong(date: CalendarDate, locale: string, currentYear?: number): string {
  const options: Intl.DateTimeFormatOptions = { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" };
  if (currentYear !== date.year) options.year = "numeric";
  return new DateFormatter(locale, options).format(date.toDate("UTC"));
}

/** "12 мар. 2025 г., 14:30" / "12 Mar 2025, 14:30": an instant read in `timeZone`. */
export function formatInstant(iso: string, locale: string, timeZone: string): string {
  return new DateFormatter(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(new Date(iso));
}

/**
 * "3 дек." / "3 Dec", with the year when it is not this year in `timeZone`, and with the
 * time when asked ("3 дек., 10:00" / "3 Dec, 10:00"): an instant read in `timeZone`.
 */
export function formatDayMonth(iso: string, locale: string, timeZone: string, { withTime = false } = {}): string {
  const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", timeZone };
  if (zonedAt(iso, timeZone).year !== now(timeZone).year) options.year = "numeric";
  if (withTime) Object.assign(options, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return new DateFormatter(locale, options).format(new Date(iso));
}

/**
 * A coming moment as the owner reads it, in `timeZone`: "Сегодня, 14:30" / "Today, 14:30",
 * "Завтра, 09:00" / "Tomorrow, 09:00", within the week "Пт, 09:00" / "Fri, 09:00", later
 * "3 дек., 09:00" / "3 Dec, 09:00" (with the year when it is not this one).
 */
export function formatUpcoming(iso: string, locale: string, timeZone: string, reference: ZonedDateTime = now(timeZone)): string {
  const at = zonedAt(iso, timeZone);
  const days = toCalendarDate(at).compare(toCalendarDate(reference));
  const time = clockText(at);
  if (days === 0 || days === 1) {
    const word = new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(days, "day");
    return `${word.charAt(0).toLocaleUpperCase(locale)}${word.slice(1)}, ${time}`;
  }
  if (days > 1 && days < 7) {
    const weekday = new DateFormatter(locale, { weekday: "short", timeZone }).format(new Date(iso));
    return `${weekday.charAt(0).toLocaleUpperCase(locale)}${weekday.slice(1)}, ${time}`;
  }
  return formatDayMonth(iso, locale, timeZone, { withTime: true });
}
