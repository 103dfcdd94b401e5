import { Loader, Progress, Text } from "@mantine/core";
import "@mantine/core/styles/Progress.layer.css";
import type { GenerationJob } from "../../../../contract/ai.ts";
import { isJobActive } from "../../api/ai.ts";
import { useT } from "../../i18n/i18n.tsx";
import { IconAlert, IconCheck } from "../Icons/Icons.tsx";
import classes from "./GenerationBanner.module.css";

/** Spec §2: the state of a content-generation job, with its completed/total progress. */
export function GenerationBanner({ job }: { job: GenerationJob }) {
  const t = useT();
  const { completed, total } = job.result.progress;
  const failedCount = job.result.failed?.length ?? 0;
  const running = isJobActive(job);
  const tone = running ? "running" : job.status === "failed" ? "failed" : failedCount > 0 ? "partial" : "done";
  const percent = total > 0 ? Math.round((completed / total) * 100) : 0;

  const title = running
    ? job.status === "pending"
      ? t("drafts.generationQueued")
      : t("drafts.generationWriting")
    : job.status === "failed"
      ? t("drafts.contentGenerationFailed")
      : t("drafts.contentGenerated");
  const detail = running
    ? t("drafts.generationRunningHint")
    : failedCount > 0
      ? t("drafts.contentGenerationFailedCount", { count: failedCount })
      : t("drafts.generationDoneHint");

  return (
    <div className={classes.banner} data-tone={tone} role="status" aria-live="polite" data-testid="generation-banner">
      <span className={classes.icon} aria-hidden="true">
        {running ? <Loader size={18} color="brand" /> : tone === "done" ? <IconCheck size={18} /> : <IconAlert size={18} />}
      </span>
      <div className={classes.body}>
        <div className={classes.heading}>
          <Text size="sm" fw={600}>
            {title}
          </Text>
          <Text
            size="sm"
            fw={600}
            className={classes.count}
            aria-label={t("drafts.generationCount", { completed, total })}
            data-testid="generation-count"
          >
            {completed}/{total}
          </Text>
        </div>
        <Progress
          value={percent}
          size="sm"
          radius="xl"
          animated={running}
          striped={running}
          color={tone === "done" ? "teal" : tone === "running" ? "brand" : tone === "partial" ? "yellow" : "red"}
          aria-label={t("drafts.generationCount", { completed, total })}
          mt={8}
        />
        <Text size="xs" c="dimmed" mt={6}>
          {detail}
        </Text>
      </div>
    </div>
  );
}
