import type { DraftHolder } from "../../../contract/drafts.ts";
import { projectPath } from "./projectPaths.ts";

/**
 * What a draft's row says about its use (the API's DraftHolder, computed in SQL): free, held
 * by a one-time post, by a series' occurrence or by a content-plan slot, or free but the next
 * one a running series takes. `postId` is the post whose details the row links to.
 */
export type DraftUse =
  | { kind: "free" }
  | { kind: "post" | "series" | "plan" | "nextForSeries"; postId: number };

export function draftUse(holder: DraftHolder): DraftUse {
  if (holder.scheduledPostId === null) {
    return holder.nextForSeriesId === null ? { kind: "free" } : { kind: "nextForSeries", postId: holder.nextForSeriesId };
  }
  // an occurrence links to its series: that is what the owner set up and can change
  if (holder.heldBySeriesId !== null) return { kind: "series", postId: holder.heldBySeriesId };
  if (holder.heldByPlanId !== null) return { kind: "plan", postId: holder.scheduledPostId };
  return { kind: "post", postId: holder.scheduledPostId };
}

/** The schedule page with a post's details open (Schedule.page reads `?post=`). */
export const postDetailsPath = (projectId: number, postId: number) => `${projectPath(projectId, "schedule")}?post=${postId}`;

/** Free drafts by the queue's rule (the banner's count): no live post holds them. */
export const isFreeDraft = (holder: Pick<DraftHolder, "scheduledPostId">) => holder.scheduledPostId === null;
