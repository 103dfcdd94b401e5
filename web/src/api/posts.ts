import useSWR, { mutate, preload } from "swr";
import useSWRInfinite, { unstable_serialize } from "swr/infinite";
import { PUBLISHED_PAGE_SIZE } from "../../../contract/limits.ts";
import { POSTS_REFETCH_MS } from "../lib/ui.ts";
import type { MessageEntity } from "../../../contract/entities.ts";
import type { PostOptions, UrlButton } from "../../../contract/post_options.ts";
import type { CalendarPostRow, Post } from "../../../contract/posts.ts";
import { draftsKey } from "./drafts.ts";
import { apiFetch, fetcher } from "./fetcher.ts";
import { refreshQueueHealth } from "./queueHealth.ts";

export const postsKey = (projectId: number) => `/api/projects/${projectId}/posts`;
export const publishedPostsKey = (projectId: number) => `${postsKey(projectId)}/published`;
const postKey = (projectId: number, postId: number) => `${postsKey(projectId)}/${postId}`;

/** An instant range [from, to) of the calendar, as ISO strings. */
export type PostsRange = { from: string; to: string };

/**
 * The posts the calendar needs for a range, in its lean view (docs/performance.md: the range
 * read; no text, the details dialog loads the whole post).
 */
export const postsRangeKey = (projectId: number, range: PostsRange) =>
  `${postsKey(projectId)}?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}&view=calendar`;

/** Every cached posts list of the project: the whole list and each range read. */
export const anyPostsList = (projectId: number) => (key: unknown) =>
  typeof key === "string" && (key === postsKey(projectId) || key.startsWith(`${postsKey(projectId)}?from=`));

/** Every whole post of the project cached for a details dialog. */
const anyWholePost = (projectId: number) => (key: unknown) =>
  typeof key === "string" && new RegExp(`^${postsKey(projectId)}/\\d+$`).test(key);

/**
 * The project's posts for a range of the calendar, as its grid reads them; the schedule page
 * refetches them every 5 seconds (spec §7), which costs a 304 while nothing changed.
 */
export function usePosts(projectId: number | null, range: PostsRange) {
  const key = projectId === null ? null : postsRangeKey(projectId, range);
  const { data, error, isLoading, mutate } = useSWR<CalendarPostRow[]>(key, {
    refreshInterval: POSTS_REFETCH_MS,
    // moving to the next month keeps the shown month until the new one arrives
    keepPreviousData: true,
  });
  return { posts: data ?? [], isLoaded: data !== undefined, isLoading, error: error as unknown, mutate };
}

/**
 * One whole post (text, formatting, options, links), for the details dialog: read when it
 * opens, and every 5 seconds while it stays open (a status moves on, an edit is decided).
 */
export function usePost(projectId: number | null, postId: number | null) {
  const { data } = useSWR<Post>(projectId === null || postId === null ? null : postKey(projectId, postId), {
    refreshInterval: POSTS_REFETCH_MS,
    revalidateOnMount: true,
  });
  return { post: data?.id === postId ? data : undefined };
}

/** Fetches a range ahead of time (the months before and after the shown one). */
export function prefetchPosts(projectId: number, range: PostsRange) {
  void preload(postsRangeKey(projectId, range), fetcher);
}

/** Page `index` of the Published list: the first, then each after the last post of the one before. */
const publishedPageKey = (projectId: number) => (index: number, previous: Post[] | null) => {
  const first = `${publishedPostsKey(projectId)}?limit=${PUBLISHED_PAGE_SIZE}`;
  if (index === 0 || !previous) return first;
  const last = previous.at(-1);
  if (previous.length < PUBLISHED_PAGE_SIZE || !last?.publishedAt) return null; // that was the last page
  return `${first}&before=${encodeURIComponent(last.publishedAt)}&beforeId=${last.id}`;
};

/**
 * Published posts, newest first (spec §2 Published), loaded a page at a time. With a
 * `refreshInterval` every page shown is read again that often (an edit decided in Telegram
 * may be on any of them); each costs a 304 while the project's posts are unchanged.
 */
export function usePublishedPosts(projectId: number | null, { refreshInterval = 0 }: { refreshInterval?: number } = {}) {
  const { data, error, isLoading, mutate, size, setSize } = useSWRInfinite<Post[]>(
    projectId === null ? () => null : publishedPageKey(projectId),
    { refreshInterval, revalidateAll: true },
  );
  const lastPage = data?.at(-1);
  return {
    posts: data?.flat() ?? [],
    isLoading,
    error: error as unknown,
    mutate,
    hasMore: lastPage !== undefined && lastPage.length === PUBLISHED_PAGE_SIZE,
    isLoadingMore: data !== undefined && data.length < size,
    loadMore: () => setSize(size + 1),
  };
}

/**
 * What the schedule form decides (spec §3 Schedule form), with the instant already computed.
 * `options`: a one-time post's own; left out, the post takes its draft's.
 */
export type PostWriteInput =
  /** draftId null with writeDraft: the post was written in the form, and its draft is made with it. */
  | { isRecurring: false; draftId: number | null; writeDraft?: boolean; scheduledFor: string; title: string; content: string; entities?: MessageEntity[]; options?: PostOptions }
  | { isRecurring: true; recurringType: "daily" | "weekly"; scheduledFor: string; title: string; content: string; endsAfter: number | null; endsOn: string | null };

/** Spec §7: draftId only for one-time posts, recurringType only for recurring ones. */
function writeBody(projectId: number, input: PostWriteInput) {
  const common = { projectId, scheduledFor: input.scheduledFor, isRecurring: input.isRecurring, title: input.title, content: input.content };
  // A series' end is always sent: a PUT replaces it, and one left out means no end.
  if (input.isRecurring) return { ...common, recurringType: input.recurringType, endsAfter: input.endsAfter, endsOn: input.endsOn };
  return {
    ...common,
    draftId: input.draftId,
    ...(input.writeDraft ? { writeDraft: true } : {}),
    ...(input.entities ? { entities: input.entities } : {}),
    ...(input.options ? { options: input.options } : {}),
  };
}

/**
 * A post changes what the drafts list and the Published page show, and which drafts the
 * queue has left (its forecast), so all of them refresh.
 */
export async function refreshAfterChange(projectId: number) {
  await Promise.all([
    mutate(anyPostsList(projectId)),
    mutate(anyWholePost(projectId)),
    mutate(draftsKey(projectId)),
    mutate(unstable_serialize(publishedPageKey(projectId))),
    refreshQueueHealth(projectId),
  ]);
}

export async function schedulePost(projectId: number, input: PostWriteInput): Promise<Post> {
  const post = await apiFetch<Post>(postsKey(projectId), { method: "POST", body: writeBody(projectId, input) });
  await refreshAfterChange(projectId);
  return post;
}

export async function updatePost(projectId: number, postId: number, input: PostWriteInput): Promise<Post> {
  const post = await apiFetch<Post>(postKey(projectId, postId), { method: "PUT", body: writeBody(projectId, input) });
  await refreshAfterChange(projectId);
  return post;
}

export type DeletePostOptions = { deleteFromChannels: boolean; deleteRecurringSeries: boolean };

export async function deletePost(projectId: number, postId: number, options: DeletePostOptions): Promise<number[]> {
  const answer = await apiFetch<{ ok: boolean; deleted: number[] }>(postKey(projectId, postId), { method: "DELETE", body: options });
  await refreshAfterChange(projectId);
  return answer.deleted;
}

/** The owner's answer for an uncertain post: it is in the channel (true), or send it again (false). */
export async function resolveUncertainPost(projectId: number, postId: number, inChannel: boolean): Promise<Post> {
  const post = await apiFetch<Post>(`${postKey(projectId, postId)}/resolve`, { method: "POST", body: { inChannel } });
  await refreshAfterChange(projectId);
  return post;
}

/**
 * Skips one future occurrence of a series, at its instant (it takes no draft; the series goes
 * on), or brings a skipped one back. The calendar and the drafts' forecast change with it.
 */
export async function skipOccurrence(projectId: number, seriesId: number, at: string, skip: boolean): Promise<Post> {
  const series = await apiFetch<Post>(`${postKey(projectId, seriesId)}/skip`, { method: "POST", body: { at, skip } });
  await refreshAfterChange(projectId);
  return series;
}

/** Sends the post to the channel admins for approval (spec §4); it comes back `scheduled`. */
export async function publishPost(projectId: number, postId: number): Promise<Post> {
  const post = await apiFetch<Post>(`${postKey(projectId, postId)}/publish`, { method: "POST" });
  await Promise.all([mutate(postKey(projectId, postId), post, { revalidate: false }), mutate(anyPostsList(projectId))]);
  return post;
}

/**
 * A post awaiting approval sent to the approver again, or moved to `scheduledFor`; either is a
 * new round, the old preview's buttons no longer count (docs/publishing.md, late approvals).
 */
export async function resendPost(projectId: number, postId: number, scheduledFor?: string): Promise<Post> {
  const post = await apiFetch<Post>(`${postKey(projectId, postId)}/resend`, { method: "POST", body: scheduledFor ? { scheduledFor } : {} });
  await Promise.all([mutate(postKey(projectId, postId), post, { revalidate: false }), mutate(anyPostsList(projectId))]);
  return post;
}

/** A published post's new text and buttons (docs/post-format.md "Editing a published post"). */
export type PostEditInput = { content: string; entities: MessageEntity[]; buttons: UrlButton[][] };

/**
 * Sends an edit of a published post to the approver: its time stays as it was, and the post
 * comes back unchanged but for `pendingEdit` until the approver decides in Telegram.
 */
export async function requestPostEdit(projectId: number, post: Post, input: PostEditInput): Promise<Post> {
  const body = {
    draftId: post.draftId,
    scheduledFor: post.scheduledFor,
    recurringType: "none",
    content: input.content,
    entities: input.entities,
    // Always the buttons, none included: without them the server keeps the post's own.
    options: { buttons: input.buttons },
  };
  const updated = await apiFetch<Post>(postKey(projectId, post.id), { method: "PUT", body });
  await refreshAfterChange(projectId);
  return updated;
}
