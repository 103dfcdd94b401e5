import { Badge } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import type { BugReportStatus } from "../../../../contract/bug_reports.ts";
import { useT } from "../../i18n/i18n.tsx";

/** Spec §4 badge styles: new destructive, in_progress warning, resolved success, closed secondary. */
const STATUS_COLORS: Record<BugReportStatus, string> = {
  new: "red",
  in_progress: "yellow",
  resolved: "green",
  closed: "gray",
};

export function BugReportStatusBadge({ status }: { status: BugReportStatus }) {
  const t = useT();
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant={status === "new" ? "filled" : "light"}
      radius="sm"
      tt="none"
      style={{ flex: "none", maxWidth: "none", overflow: "visible" }}
      data-testid="bug-report-status"
      data-status={status}
    >
      {t(`bugReport.status.${status}`)}
    </Badge>
  );
}
