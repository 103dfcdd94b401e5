/*
 * A post past its time that the approver has not decided is late (docs/publishing.md, late
 * approvals): from the server's due time and state, worded here, never a time the server
 * words.
 */
import type { TFunction } from "../i18n/i18n.tsx";

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
