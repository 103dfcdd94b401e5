import useSWR, { mutate } from "swr";
import type { ContentPlan, SuggestedTimes } from "../../../contract/content_plans.ts";
import { apiFetch } from "./fetcher.ts";
import { anyPostsList } from "./posts.ts";
import { refreshQueueHealth } from "./queueHealth.ts";

export const contentPlansKey = (projectId: number) => `/api/projects/${projectId}/content-plans`;
const contentPlanKey = (projectId: number, planId: number) => `${contentPlansKey(projectId)}/${planId}`;
const suggestedTimesKey = (projectId: number) => `${contentPlansKey(projectId)}/suggested-times`;

/** A slot as the form sends it (spec §3 Content plan); the server fills in the rest. */
export type ContentPlanInput = Pick<ContentPlan, "dayOfWeek" | "time" | "timezone" | "postLength" | "active">;

/** Monday first (spec §9: weeks start on Monday), then by time: the order the grid shows. */
export function sortContentPlans(plans: ContentPlan[]): ContentPlan[] {
  const weekday = (day: number) => (day + 6) % 7;
  return [...plans].sort(
    (a, b) => weekday(a.dayOfWeek) - weekday(b.dayOfWeek) || a.time.localeCompare(b.time) || a.id - b.id,
  );
}

/** The project's weekly slots, Monday first and in time order. */
export function useContentPlans(projectId: number | null) {
  const { data, error, isLoading, mutate } = useSWR<ContentPlan[]>(projectId === null ? null : contentPlansKey(projectId));
  const plans = data ? sortContentPlans(data) : [];
  return { plans, isLoading, error: error as unknown, mutate };
}

/**
 * The times the best-times grid suggests (docs/statistics.md), read when the owner opens
 * them: reactions keep coming, so every opening reads them again, however soon.
 */
export function useSuggestedTimes(projectId: number) {
  const { data, error, isLoading, mutate } = useSWR<SuggestedTimes>(suggestedTimesKey(projectId), {
    revalidateIfStale: true,
    dedupingInterval: 0,
  });
  return { suggested: data, isLoading, error: error as unknown, mutate };
}

/**
 * The autopilot fills the calendar from the slots, so a changed slot changes the posts to
 * come: the calendar reads them again (and keeps polling while it waits for the new ones),
 * and so does the queue's forecast (how long the drafts last), and which suggested times
 * the plan has.
 */
function refreshPosts(projectId: number) {
  return Promise.all([
    mutate(anyPostsList(projectId)),
    refreshQueueHealth(projectId),
    mutate(suggestedTimesKey(projectId)).catch(() => {}),
  ]);
}

export async function createContentPlan(projectId: number, input: ContentPlanInput): Promise<ContentPlan> {
  const plan = await apiFetch<ContentPlan>(contentPlansKey(projectId), { method: "POST", body: input });
  await mutate<ContentPlan[]>(contentPlansKey(projectId), (list) => (list ? [...list, plan] : list), { revalidate: false });
  void refreshPosts(projectId);
  return plan;
}

/** Shows the change at once (the active switch flips as it is pressed) and puts it back if refused. */
export async function updateContentPlan(projectId: number, planId: number, changes: Partial<ContentPlanInput>): Promise<void> {
  const withChanges = (list: ContentPlan[] | undefined, changed: Partial<ContentPlan>) =>
    list?.map((plan) => (plan.id === planId ? { ...plan, ...changed } : plan));
  await mutate<ContentPlan[]>(
    contentPlansKey(projectId),
    async (list) => {
      const saved = await apiFetch<ContentPlan>(contentPlanKey(projectId, planId), { method: "PATCH", body: changes });
      return withChanges(list, saved);
    },
    { optimisticData: (list) => withChanges(list, changes) ?? [], rollbackOnError: true, populateCache: true, revalidate: false },
  );
  void refreshPosts(projectId);
}

export async function deleteContentPlan(projectId: number, planId: number): Promise<void> {
  await apiFetch(contentPlanKey(projectId, planId), { method: "DELETE" });
  await mutate<ContentPlan[]>(contentPlansKey(projectId), (list) => list?.filter((plan) => plan.id !== planId), {
    revalidate: false,
  });
  void refreshPosts(projectId);
}
