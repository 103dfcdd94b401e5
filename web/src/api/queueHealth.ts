import useSWR, { mutate } from "swr";
import type { QueueHealth } from "../../../contract/content_plans.ts";
import { BULK_ADD_MAX_LINES, GENERATED_TITLES } from "../../../contract/limits.ts";

export const queueHealthKey = (projectId: number) => `/api/projects/${projectId}/queue-health`;

/**
 * How long the drafts queue lasts at the current plan plus series (docs/autopilot-and-ai.md "Autopilot").
 * The worker uses drafts on its own (autopilot, series), so every screen showing it reads
 * it again when it opens rather than trusting the cache; mutations refresh it too.
 */
export function useQueueHealth(projectId: number | null) {
  const { data, error, isLoading, mutate } = useSWR<QueueHealth>(projectId === null ? null : queueHealthKey(projectId), {
    revalidateIfStale: true,
  });
  return { health: data, isLoading, error: error as unknown, mutate };
}

/**
 * Drafts, posts and content-plan slots change the forecast: each mutation calls this. The
 * change itself succeeded, so a failed read of the forecast is left to the screen showing it.
 */
export async function refreshQueueHealth(projectId: number): Promise<void> {
  await mutate(queueHealthKey(projectId)).catch(() => {});
}

/** Titles that keep the plan posting about two weeks, within what one generation and one bulk add take. */
export function titlesForTwoWeeks(postsPerWeek: number): number {
  const max = Math.min(GENERATED_TITLES.max, BULK_ADD_MAX_LINES);
  return Math.min(max, Math.max(GENERATED_TITLES.min, Math.ceil(postsPerWeek * 2)));
}
