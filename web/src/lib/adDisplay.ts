/*
 * How an advertising post reads outside its editor (issue 37): where it stands in its format in
 * the post's details, whether deleting it now breaks the format, and the calendar's top windows
 * day by day. The API's adState (contract/ads.ts) is the source; these only read it.
 */
import { type Ad, AD_BOT_DELETE_LIMIT_MINUTES, type AdState } from "../../../contract/ads.ts";
import { clockText, zonedAt } from "./projectTime.ts";

/**
 * Where the ad stands at its feed term:
 *   removed       the bot deleted it (adState.removedAt);
 *   dueByHand     the term came for a post the bot may not delete (48 hours and longer) and the
 *                 owner was reminded: it waits for them;
 *   byHand        such a term is still ahead: the owner will be reminded then;
 *   willBeRemoved the bot deletes it at `at`;
 *   kept          sold without removal.
 */
export type AdStanding =
  | { kind: "removed"; at: string }
  | { kind: "dueByHand"; at: string | null }
  | { kind: "byHand"; at: string }
  | { kind: "willBeRemoved"; at: string }
  | { kind: "kept" };

export function adStanding(ad: Pick<Ad, "feedMinutes">, state: AdState): AdStanding {
  if (state.removedAt) return { kind: "removed", at: state.removedAt };
  if (state.removalRemindedAt) return { kind: "dueByHand", at: state.removeAt };
  if (state.removeAt === null || ad.feedMinutes === 0) return { kind: "kept" };
  if (ad.feedMinutes >= AD_BOT_DELETE_LIMIT_MINUTES) return { kind: "byHand", at: state.removeAt };
  return { kind: "willBeRemoved", at: state.removeAt };
}

/**
 * Deleting the post now breaks the sold format: it is an ad, still in its term (its removal
 * ahead, or kept for good) and not removed yet. A sent ad leaves the channel early; a planned
 * one never runs.
 */
export function deletingBreaksFormat(post: { ad?: Ad | null; adState?: AdState | null }, now: Date = new Date()): boolean {
  const { ad, adState } = post;
  if (!ad || !adState || adState.removedAt) return false;
  return adState.removeAt === null || new Date(adState.removeAt).getTime() > now.getTime();
}

/** One day's part of an ad's top window, on the project's clock ("24:00" when it runs past midnight). */
export type TopWindow = { postId: number; from: string; until: string; startsHere: boolean };

const dayKey = (at: { year: number; month: number; day: number }) =>
  `${at.year}-${String(at.month).padStart(2, "0")}-${String(at.day).padStart(2, "0")}`;

/**
 * The top windows of the ads among these posts, by the day (YYYY-MM-DD in the project's
 * timezone) each part falls on: a window past midnight shows on both days.
 */
export function topWindowsByDay(posts: readonly { id: number; adState?: AdState | null }[], timeZone: string): Map<string, TopWindow[]> {
  const byDay = new Map<string, TopWindow[]>();
  const add = (key: string, window: TopWindow) => byDay.set(key, [...(byDay.get(key) ?? []), window]);
  for (const post of posts) {
    const state = post.adState;
    if (!state) continue;
    const start = zonedAt(state.topFrom, timeZone);
    const end = zonedAt(state.topUntil, timeZone);
    if (end.compare(start) <= 0) continue;
    let day = start.set({ hour: 0, minute: 0, second: 0, millisecond: 0 });
    // a window is a day long at most, so this runs twice at most
    while (day.compare(end) < 0) {
      const next = day.add({ days: 1 });
      const startsHere = start.compare(day) >= 0;
      add(dayKey(day), {
        postId: post.id,
        from: startsHere ? clockText(start) : "00:00",
        until: end.compare(next) < 0 ? clockText(end) : "24:00",
        startsHere,
      });
      day = next;
    }
  }
  return byDay;
}
