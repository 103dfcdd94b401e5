import { useCallback, useEffect, useRef, useState } from "react";
import { JOB_BANNER_DISMISS_MS, JOB_POLL_MS } from "../lib/ui.ts";
import { isJobActive, startContentGeneration, useGenerationJob } from "../api/ai.ts";
import { useDrafts } from "../api/drafts.ts";
import { ApiRequestError, hasStatus } from "../api/fetcher.ts";
import { useT } from "../i18n/i18n.tsx";
import { generationFailureText, errorText } from "../lib/messages.ts";
import { toastError, toastSuccess, toastWarning } from "../lib/toast.ts";

// The job being watched survives a reload of the tab (not a new tab): the banner comes back.
const storageKey = (projectId: number) => `pressa.generationJob.${projectId}`;

function readStoredJob(projectId: number | null): number | null {
  if (projectId === null) return null;
  try {
    const stored = window.sessionStorage.getItem(storageKey(projectId));
    return stored && /^\d+$/.test(stored) ? Number(stored) : null;
  } catch {
    return null;
  }
}

function storeJob(projectId: number, jobId: number | null) {
  try {
    if (jobId === null) window.sessionStorage.removeItem(storageKey(projectId));
    else window.sessionStorage.setItem(storageKey(projectId), String(jobId));
  } catch {
    // Private mode may refuse storage: only the resume after a reload is lost.
  }
}

const quoted = (titles: string[]) => titles.map((title) => `«${title}»`).join(", ");

/**
 * Spec §2/§4 content generation for selected drafts: starts the job, polls it every second
 * while it runs (the page refetches the drafts as often meanwhile), and when it ends says so
 * once, refreshes the drafts and lets the banner go 5 seconds later.
 */
export function useContentGeneration(projectId: number | null) {
  const t = useT();
  const [jobId, setJobId] = useState<number | null>(() => readStoredJob(projectId));
  const [starting, setStarting] = useState(false);
  /** The job that ended here; its banner goes 5 seconds later. */
  const [endedJobId, setEndedJobId] = useState<number | null>(null);
  const { job, error } = useGenerationJob(projectId, jobId);

  // Another project's page (the same screen with another :id) watches that project's job.
  useEffect(() => setJobId(readStoredJob(projectId)), [projectId]);

  // A job seen running here is announced when it ends; one that had already ended before a
  // reload brought it back is dropped quietly (its drafts already show the result).
  const seenRunning = useRef(false);
  const announced = useRef<number | null>(null);

  const current = job && job.jobId === jobId ? job : undefined;
  const active = jobId !== null && isJobActive(current);

  // Spec §7: the drafts list is refetched every second while the job runs.
  const { drafts, mutate: refreshDrafts } = useDrafts(projectId, { refreshInterval: active ? JOB_POLL_MS : 0 });
  const draftsRef = useRef(drafts);
  draftsRef.current = drafts;
  const refreshRef = useRef(refreshDrafts);
  refreshRef.current = refreshDrafts;

  useEffect(() => {
    if (current && isJobActive(current)) seenRunning.current = true;
  }, [current]);

  useEffect(() => {
    if (projectId === null || jobId === null || !current || isJobActive(current) || announced.current === jobId) return;
    announced.current = jobId;
    storeJob(projectId, null);
    void refreshRef.current();
    if (!seenRunning.current) {
      setJobId(null);
      return;
    }
    const titleOf = (draftId: number) => draftsRef.current.find((draft) => draft.id === draftId)?.title;
    const failedTitles = (current.result.failed ?? []).map((item) => titleOf(item.draftId)).filter((title) => title !== undefined);
    const failedCount = current.result.failed?.length ?? 0;
    const { completed, total } = current.result.progress;
    if (current.status === "failed") {
      toastError(
        t("drafts.contentGenerationFailed"),
        current.errorCode ? errorText(t, current.errorCode) : t("drafts.contentGenerationFailedText"),
      );
    } else if (failedCount > 0) {
      toastWarning(
        t("drafts.contentGeneratedPartly", { done: completed - failedCount, total }),
        failedTitles.length > 0
          ? t("drafts.contentGenerationFailedDrafts", { titles: quoted(failedTitles) })
          : t("drafts.contentGenerationFailedCount", { count: failedCount }),
      );
    } else {
      toastSuccess(t("drafts.contentGenerated"), t("drafts.contentGeneratedText", { count: total }));
    }
    setEndedJobId(jobId);
  }, [current, jobId, projectId, t]);

  useEffect(() => {
    if (endedJobId === null) return;
    const timer = window.setTimeout(() => {
      setJobId((shown) => (shown === endedJobId ? null : shown));
      setEndedJobId(null);
    }, JOB_BANNER_DISMISS_MS);
    return () => window.clearTimeout(timer);
  }, [endedJobId]);

  // A job the server no longer knows (deleted with its project, another account) is forgotten.
  useEffect(() => {
    if (projectId !== null && jobId !== null && hasStatus(error, 404)) {
      storeJob(projectId, null);
      setJobId(null);
    }
  }, [error, jobId, projectId]);

  const start = useCallback(
    async (draftIds: number[]): Promise<boolean> => {
      if (projectId === null) return false;
      setStarting(true);
      try {
        const started = await startContentGeneration(projectId, draftIds);
        seenRunning.current = true;
        storeJob(projectId, started.jobId);
        setJobId(started.jobId);
        toastSuccess(t("drafts.contentGenerationStarted"), t("drafts.contentGenerationStartedText", { count: draftIds.length }));
        return true;
      } catch (failure) {
        // One job per project at a time (another tab started one): follow that job instead.
        const running = failure instanceof ApiRequestError && failure.body?.code === "drafts.generationRunning"
          ? (failure.body as { jobId?: unknown }).jobId
          : undefined;
        if (typeof running === "number") {
          seenRunning.current = true;
          storeJob(projectId, running);
          setJobId(running);
        }
        toastError(t("drafts.contentGenerationFailed"), generationFailureText(t, failure, "common.tryAgainLater"));
        return false;
      } finally {
        setStarting(false);
      }
    },
    [projectId, t],
  );

  /** What the banner shows: the job from its start until 5 s after it ended. */
  const banner = jobId === null ? null : (current ?? null);
  return { job: banner, active, starting, start };
}
