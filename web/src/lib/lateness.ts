/*
 * A post past its time that the approver has not decided is late (docs/publishing.md, late
 * approvals): from the server's due time and state, worded here, never a time the server
 * words.
 */
import { fromDate, type ZonedDateTime } from "@internationalized/date";
import type { TFunction } from "../i18n/i18n.tsx";
import { zonedAt } from "./projectTime.ts";

/**
 * Whole minutes the post is past its time while it awaits approval (at least 1: a post just
 * late never reads "late by 0 min"); null when it is not late.
 */
export function minutesLate(post: { status: string; scheduledFor: string }, now: number = Date.now()): number | null {
  if (post.status !== "scheduled") return null;
  const late = now - Date.parse(post.scheduledFor);
  return late > 0 ? Math.max(1, Math.floor(late / 60_000)) : null;
}

/** How late: "21 min", "1 h 5 min". */
export function lateDuration(t: TFunction, minutes: number): string {
  return minutes < 60
    ? t("schedule.late.minutes", { minutes })
    : t("schedule.late.hours", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** "Late by 21 min", "Late by 1 h 5 min". */
export function lateText(t: TFunction, minutes: number): string {
  return t("schedule.late.by", { duration: lateDuration(t, minutes) });
}

/** The least time ahead a moved post's suggested time leaves to read the form and approve. */
export const MOVE_LEAD_MINUTES = 15;

/**
 * Where the move form starts, in `timeZone`: the post's own time while it is still ahead,
 * else the first round quarter hour (:00, :15, :30, :45 on the project's clock) at least
 * MOVE_LEAD_MINUTES from now, the time an owner would type.
 */
export function suggestedMoveTime(scheduledFor: string, timeZone: string, now: number = Date.now()): ZonedDateTime {
  if (Date.parse(scheduledFor) > now) return zonedAt(scheduledFor, timeZone);
  const earliest = fromDate(new Date(now + MOVE_LEAD_MINUTES * 60_000), timeZone);
  const minute = earliest.set({ second: 0, millisecond: 0 });
  const pastQuarter = minute.minute % 15;
  if (pastQuarter === 0 && minute.compare(earliest) === 0) return minute;
  return minute.add({ minutes: 15 - pastQuarter });
}
