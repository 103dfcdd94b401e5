import useSWR, { mutate } from "swr";
import type { Post } from "../../../contract/posts.ts";
import type { PostComment, ReviewDecision } from "../../../contract/review.ts";
import { POSTS_REFETCH_MS } from "../lib/ui.ts";
import { apiFetch } from "./fetcher.ts";
import { postsKey, refreshAfterChange } from "./posts.ts";

/** The posts waiting for review (docs/teams.md "Review"), the soonest due first. */
export const reviewQueueKey = (projectId: number) => `${postsKey(projectId)}/review`;
const commentsKey = (projectId: number, postId: number) => `${postsKey(projectId)}/${postId}/comments`;

/**
 * The review queue, for its page and the navigation's badge (null: not asked, a role that does
 * not review); read again every few seconds, as the schedule is, since authors add to it.
 */
export function useReviewQueue(projectId: number | null) {
  const { data, error, isLoading, mutate: reload } = useSWR<Post[]>(projectId === null ? null : reviewQueueKey(projectId), {
    refreshInterval: POSTS_REFETCH_MS,
  });
  return { queue: data ?? [], isLoaded: data !== undefined, isLoading, error: error as unknown, reload };
}

/** An editor's or owner's decision; a return carries its comment to the author. */
export async function reviewPost(projectId: number, postId: number, decision: ReviewDecision, comment?: string): Promise<Post> {
  const post = await apiFetch<Post>(`${postsKey(projectId)}/${postId}/review`, {
    method: "POST",
    body: comment?.trim() ? { decision, comment } : { decision },
  });
  await Promise.all([refreshAfterChange(projectId), mutate(reviewQueueKey(projectId)), mutate(commentsKey(projectId, postId))]);
  return post;
}

/** A post's comments, oldest first (null postId: none asked). */
export function useComments(projectId: number, postId: number | null) {
  const { data, error, isLoading } = useSWR<PostComment[]>(postId === null ? null : commentsKey(projectId, postId), {
    refreshInterval: POSTS_REFETCH_MS,
  });
  return { comments: data ?? [], isLoaded: data !== undefined, isLoading, error: error as unknown };
}

export async function addComment(projectId: number, postId: number, text: string): Promise<PostComment> {
  const comment = await apiFetch<PostComment>(commentsKey(projectId, postId), { method: "POST", body: { text } });
  await mutate(commentsKey(projectId, postId), (list: PostComment[] | undefined) => [...(list ?? []), comment], { revalidate: false });
  return comment;
}
