import type { BugReportStatus } from "../../../contract/bug_reports.ts";
import { refreshBugReports } from "./admin.ts";
import { apiFetch } from "./fetcher.ts";

export type BugReportInput = { description: string; screenshot: File | null; pageUrl: string };

/** Spec §7: multipart with the description, the optional screenshot and the page it came from. */
export async function submitBugReport({ description, screenshot, pageUrl }: BugReportInput) {
  const form = new FormData();
  form.append("description", description);
  form.append("pageUrl", pageUrl);
  if (screenshot) form.append("screenshot", screenshot);
  const created = await apiFetch<{ id: number; status: BugReportStatus }>("/api/bug-reports", {
    method: "POST",
    body: form,
  });
  // An admin reporting from an admin screen sees the new report there (no request otherwise).
  void refreshBugReports();
  return created;
}
