/*
 * An ad's top window as the schedule form weighs it, from the calendar's rows (their adState):
 * the same rule as the server's (app_private.ad_windows, sql/functions/ads.sql; docs/ads.md "The top window"),
 * so the form warns before the owner submits a time the server refuses. A window runs from the
 * ad's send (its planned time until it goes out) for its minutes on top; none when it has no
 * minutes on top or will never go out (rejected, failed). tests/cases/ad_window_cases.ts holds
 * both to the same cases.
 */
import type { CalendarPostRow } from "../../../contract/posts.ts";

/** What of a calendar row the rule reads. */
export type AdWindowSource = Pick<CalendarPostRow, "id" | "title" | "status" | "adState">;

/** An ad's window: [from, until). */
export type AdWindow = { postId: number; title: string; from: Date; until: Date };

/** The rows' windows, the one that ends last first (as the server names them). */
export function adWindows(rows: readonly AdWindowSource[], exceptPostId?: number | null): AdWindow[] {
  return rows
    .filter((row) => row.adState && row.id !== exceptPostId && row.status !== "rejected" && row.status !== "failed")
    .map((row) => ({ postId: row.id, title: row.title, from: new Date(row.adState!.topFrom), until: new Date(row.adState!.topUntil) }))
    .filter((window) => window.until > window.from)
    .sort((a, b) => b.until.getTime() - a.until.getTime() || a.postId - b.postId);
}

/** The window a post at `time` would fall in (from its first minute, up to but not its end), or null. */
export function adWindowAt(time: Date, rows: readonly AdWindowSource[], exceptPostId?: number | null): AdWindow | null {
  return adWindows(rows, exceptPostId).find((window) => window.from <= time && time < window.until) ?? null;
}

/** The window that an ad of its own from `from` to `until` would meet, or null. */
export function adWindowOverlapping(from: Date, until: Date, rows: readonly AdWindowSource[], exceptPostId?: number | null): AdWindow | null {
  return adWindows(rows, exceptPostId).find((window) => window.from < until && from < window.until) ?? null;
}
