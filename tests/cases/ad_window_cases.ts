/*
 * An ad's top window is weighed twice: the server refuses a one-off time and holds a post that
 * falls due inside one (app_private.ad_windows in sql/functions/ads.sql), and the schedule form
 * warns before the owner picks such a time (web/src/lib/adWindows.ts, from the calendar's rows).
 * One table of cases drives both: tests/sql/ad_window.test.ts and tests/web/ad_windows.test.ts.
 * Times are minutes from the instant the post is weighed at (minute 0).
 */

export type AdRow = {
  title: string;
  /** Its planned time. */
  plannedAt: number;
  /** When it went out, if it did: its window runs from there. */
  sentAt?: number;
  topMinutes: number;
  /** An ad that will never go out holds no window. */
  status?: "rejected" | "failed";
};

export type AdWindowCase = {
  name: string;
  ads: AdRow[];
  /**
   * What is weighed at minute 0. `schedule`: a one-off post or an ad (with its own window,
   * `topMinutes`) planned there, refused when it meets a window. `due`: a post falling due
   * there (a series occurrence, a content-plan post, a one-off post or an ad), held when it is
   * inside a window.
   */
  post: { act: "schedule"; kind: "oneOff" | "ad"; topMinutes?: number } | { act: "due"; kind: "occurrence" | "planSlot" | "oneOff" | "ad" };
  /** The ad in the way and where its window ends; null when the post is free. */
  expected: { title: string; until: number } | null;
};

export const AD_WINDOW_CASES: AdWindowCase[] = [
  {
    name: "a one-off post inside a planned ad's window is refused, naming the ad",
    ads: [{ title: "Coffee 1/24", plannedAt: -30, topMinutes: 60 }],
    post: { act: "schedule", kind: "oneOff" },
    expected: { title: "Coffee 1/24", until: 30 },
  },
  {
    name: "a one-off post at the ad's own minute is refused",
    ads: [{ title: "Coffee 1/24", plannedAt: 0, topMinutes: 60 }],
    post: { act: "schedule", kind: "oneOff" },
    expected: { title: "Coffee 1/24", until: 60 },
  },
  {
    name: "the minute a window ends is free",
    ads: [{ title: "Coffee 1/24", plannedAt: -60, topMinutes: 60 }],
    post: { act: "schedule", kind: "oneOff" },
    expected: null,
  },
  {
    name: "an ad with no minutes on top holds no window",
    ads: [{ title: "Kept", plannedAt: -10, topMinutes: 0 }],
    post: { act: "schedule", kind: "oneOff" },
    expected: null,
  },
  {
    name: "a rejected ad holds no window",
    ads: [{ title: "Refused", plannedAt: -10, topMinutes: 60, status: "rejected" }],
    post: { act: "schedule", kind: "oneOff" },
    expected: null,
  },
  {
    name: "overlapping ads: an ad whose window would reach a later ad's window is refused",
    ads: [{ title: "Shoes 2/48", plannedAt: 45, topMinutes: 120 }],
    post: { act: "schedule", kind: "ad", topMinutes: 60 },
    expected: { title: "Shoes 2/48", until: 165 },
  },
  {
    name: "overlapping ads: an ad starting inside another ad's window is refused",
    ads: [{ title: "Coffee 1/24", plannedAt: -30, topMinutes: 60 }],
    post: { act: "schedule", kind: "ad", topMinutes: 60 },
    expected: { title: "Coffee 1/24", until: 30 },
  },
  {
    name: "ads back to back do not overlap",
    ads: [{ title: "Before", plannedAt: -60, topMinutes: 60 }, { title: "After", plannedAt: 60, topMinutes: 60 }],
    post: { act: "schedule", kind: "ad", topMinutes: 60 },
    expected: null,
  },
  {
    name: "a series occurrence due inside a window is held until it ends",
    ads: [{ title: "Coffee 1/24", plannedAt: -20, sentAt: -20, topMinutes: 60 }],
    post: { act: "due", kind: "occurrence" },
    expected: { title: "Coffee 1/24", until: 40 },
  },
  {
    name: "a content-plan slot due inside a window is held until it ends",
    ads: [{ title: "Coffee 1/24", plannedAt: -5, sentAt: -5, topMinutes: 60 }],
    post: { act: "due", kind: "planSlot" },
    expected: { title: "Coffee 1/24", until: 55 },
  },
  {
    name: "a series occurrence due after the window goes out",
    ads: [{ title: "Coffee 1/24", plannedAt: -90, sentAt: -90, topMinutes: 60 }],
    post: { act: "due", kind: "occurrence" },
    expected: null,
  },
  {
    name: "a late ad moves its window to its real send: a post planned just after its planned window is held",
    ads: [{ title: "Late 1/24", plannedAt: -70, sentAt: -30, topMinutes: 60 }],
    post: { act: "due", kind: "oneOff" },
    expected: { title: "Late 1/24", until: 30 },
  },
  {
    name: "an ad that went out late holds from its real send, not from its planned time",
    ads: [{ title: "Late 1/24", plannedAt: -30, sentAt: 0, topMinutes: 60 }],
    post: { act: "due", kind: "planSlot" },
    expected: { title: "Late 1/24", until: 60 },
  },
  {
    name: "an approved ad that has not gone out yet keeps its planned window",
    ads: [{ title: "Waiting 1/24", plannedAt: -30, topMinutes: 60 }],
    post: { act: "due", kind: "occurrence" },
    expected: { title: "Waiting 1/24", until: 30 },
  },
  {
    name: "an ad due inside another ad's window (the first went out late) is held, its own window moving with it",
    ads: [{ title: "Late 1/24", plannedAt: -60, sentAt: -30, topMinutes: 60 }],
    post: { act: "due", kind: "ad" },
    expected: { title: "Late 1/24", until: 30 },
  },
  {
    name: "two windows over one instant hold until the later end",
    ads: [{ title: "First", plannedAt: -50, sentAt: -50, topMinutes: 60 }, { title: "Second", plannedAt: -5, sentAt: -5, topMinutes: 30 }],
    post: { act: "due", kind: "occurrence" },
    expected: { title: "Second", until: 25 },
  },
  {
    name: "a failed ad holds no window",
    ads: [{ title: "Failed", plannedAt: -10, topMinutes: 60, status: "failed" }],
    post: { act: "due", kind: "occurrence" },
    expected: null,
  },
];
