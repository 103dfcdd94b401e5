import useSWRInfinite from "swr/infinite";
import type { ActivityAction, ActivityPage } from "../../../contract/activity.ts";

export type ActivityFilter = { actor: number | null; action: ActivityAction | null };

/** Page `index` of a project's activity: the first, then each from the `next` the one before gave. */
const activityPageKey = (projectId: number, filter: ActivityFilter) => (index: number, previous: ActivityPage | null) => {
  const query = new URLSearchParams();
  if (filter.actor !== null) query.set("actor", String(filter.actor));
  if (filter.action !== null) query.set("action", filter.action);
  if (index > 0) {
    if (!previous?.next) return null; // that was the last page
    query.set("before", String(previous.next));
  }
  const text = query.toString();
  return `/api/projects/${projectId}/activity${text ? `?${text}` : ""}`;
};

/** A project's activity, newest first, a page at a time (docs/teams.md). */
export function useActivity(projectId: number | null, filter: ActivityFilter) {
  const { data, error, isLoading, mutate, size, setSize } = useSWRInfinite<ActivityPage>(
    projectId === null ? () => null : activityPageKey(projectId, filter),
  );
  return {
    items: data?.flatMap((page) => page.items) ?? [],
    isLoading,
    error: error as unknown,
    mutate,
    hasMore: data?.at(-1)?.next != null,
    isLoadingMore: data !== undefined && data.length < size,
    loadMore: () => setSize(size + 1),
  };
}
