import useSWR from "swr";
import type { AdReport } from "../../../contract/ads.ts";
import type { StatsRange } from "./stats.ts";

export const adReportKey = (projectId: number, range: StatsRange) =>
  `/api/projects/${projectId}/ads?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;

/** The ads of a period with their totals (docs/ads.md, "Ad report"); another period keeps the shown rows until its own arrive. */
export function useAdReport(projectId: number | null, range: StatsRange) {
  const { data, error, isLoading, mutate } = useSWR<AdReport>(projectId === null ? null : adReportKey(projectId, range), {
    keepPreviousData: true,
  });
  return { report: data, isLoading, error: error as unknown, mutate };
}
