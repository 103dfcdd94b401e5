import { useEffect } from "react";
import useSWR, { mutate } from "swr";
import type { GenerationJob } from "../../../contract/ai.ts";
import type { MessageEntity } from "../../../contract/entities.ts";
import { JOB_POLL_MS } from "../lib/ui.ts";
import { apiFetch, hasStatus } from "./fetcher.ts";
import { pollingDedupe } from "./swrConfig.ts";


const projectApi = (projectId: number) => `/api/projects/${projectId}`;

type Options = { signal?: AbortSignal };

/** Spec §7: one title for the draft being edited. */
export async function generateTitle(projectId: number, { signal }: Options = {}): Promise<string> {
  const { title } = await apiFetch<{ title: string }>(`${projectApi(projectId)}/generate-title`, {
    method: "POST",
    body: {},
    signal,
  });
  return title;
}

export type GeneratePostInput = { title: string; postLength: number; language: string };

/** Spec §7: a post body for a title, about `postLength` characters long. */
/** The post as text plus its formatting (the model's Markdown, converted by the server). */
export async function generatePost(
  projectId: number,
  input: GeneratePostInput,
  { signal }: Options = {},
): Promise<{ content: string; entities: MessageEntity[] }> {
  const { content, entities } = await apiFetch<{ content: string; entities?: MessageEntity[] }>(`${projectApi(projectId)}/generate-post`, {
    method: "POST",
    body: input,
    signal,
  });
  return { content, entities: entities ?? [] };
}

/** Spec §7: `count` titles for the bulk-add dialog. */
export async function generateTitles(projectId: number, count: number, { signal }: Options = {}): Promise<string[]> {
  const { titles } = await apiFetch<{ titles: string[] }>(`${projectApi(projectId)}/generate-multiple-titles`, {
    method: "POST",
    body: { count },
    signal,
  });
  return titles;
}

const jobKey = (projectId: number, jobId: number) => `${projectApi(projectId)}/jobs/${jobId}`;

/** Spec §7: starts filling the selected drafts' content; answers the job to poll. */
export async function startContentGeneration(projectId: number, draftIds: number[]): Promise<GenerationJob> {
  const job = await apiFetch<GenerationJob>(`${projectApi(projectId)}/drafts/generate-content`, {
    method: "POST",
    body: { draftIds },
  });
  // The answer is the job's first state: the banner shows it before the first poll.
  await mutate(jobKey(projectId, job.jobId), job, { revalidate: false });
  return job;
}

export const isJobActive = (job: GenerationJob | undefined) =>
  job === undefined || job.status === "pending" || job.status === "processing";

/**
 * Spec §4: a job is polled every second until it completes or fails, then no more. SWR's
 * polling pauses for good after a failed read, so a failed poll is retried a second later.
 */
export function useGenerationJob(projectId: number | null, jobId: number | null) {
  const { data, error, mutate: refresh } = useSWR<GenerationJob>(
    projectId === null || jobId === null ? null : jobKey(projectId, jobId),
    { refreshInterval: (latest) => (isJobActive(latest) ? JOB_POLL_MS : 0), ...pollingDedupe(JOB_POLL_MS) },
  );
  const gone = hasStatus(error, 404);
  useEffect(() => {
    if (!error || gone) return;
    const timer = window.setTimeout(() => void refresh(), JOB_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [error, gone, refresh]);
  return { job: data, error: error as unknown };
}
