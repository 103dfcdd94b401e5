import { describe, expect, test } from "vitest";
import { draftUse, isFreeDraft, postDetailsPath } from "../../web/src/lib/draftHolder.ts";

const free = { scheduledPostId: null, heldBySeriesId: null, heldByPlanId: null, nextForSeriesId: null };

describe("what a draft's row says holds it (web/src/lib/draftHolder.ts)", () => {
  test("free, or the next one a series takes, links to that series", () => {
    expect(draftUse(free)).toEqual({ kind: "free" });
    expect(draftUse({ ...free, nextForSeriesId: 7 })).toEqual({ kind: "nextForSeries", postId: 7 });
    const nextForSeries = { ...free, nextForSeriesId: 7 };
    expect(isFreeDraft(nextForSeries)).toBe(true);
  });

  test("held: a series' occurrence links to the series, a slot and a one-time post to the post", () => {
    expect(draftUse({ ...free, scheduledPostId: 11, heldBySeriesId: 7 })).toEqual({ kind: "series", postId: 7 });
    expect(draftUse({ ...free, scheduledPostId: 12, heldByPlanId: 3 })).toEqual({ kind: "plan", postId: 12 });
    expect(draftUse({ ...free, scheduledPostId: 13 })).toEqual({ kind: "post", postId: 13 });
    expect(isFreeDraft({ scheduledPostId: 13 })).toBe(false);
  });

  test("the link opens the post's details on the schedule page", () => {
    expect(postDetailsPath(5, 13)).toBe("/project/5/schedule?post=13");
  });
});
