import { Anchor, NativeSelect, Table, Text } from "@mantine/core";
import "@mantine/core/styles/Table.layer.css";
import { useState } from "react";
import {
  BUG_REPORT_STATUSES,
  type BugReport,
  type BugReportStatus,
  isWebAddress,
} from "../../../../contract/bug_reports.ts";
import { updateBugReportStatus } from "../../api/admin.ts";
import { type TranslationKey, useT } from "../../i18n/i18n.tsx";
import { formatAdminDateTime } from "../../lib/formatDate.ts";
import { serverMessage } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { BugReportStatusBadge } from "./BugReportStatusBadge.tsx";
import classes from "./BugReportTable.module.css";

type TextSuffix =
  | "id"
  | "user"
  | "unknownUser"
  | "description"
  | "screenshot"
  | "openScreenshot"
  | "noScreenshot"
  | "status"
  | "date"
  | "changeStatus"
  | "statusOf"
  | "statusChanged"
  | "statusChangedText"
  | "statusFailed";

/**
 * The table of both admin screens (spec §2). Their words differ: the dashboard tab speaks
 * the interface language, the separate screen is always Russian; `texts` picks the set.
 */
type BugReportTableProps = { reports: BugReport[]; texts: "admin.reports" | "adminBugReports" };

export function BugReportTable({ reports, texts }: BugReportTableProps) {
  const t = useT();
  const text = (suffix: TextSuffix, params?: Record<string, string | number>) =>
    t(`${texts}.${suffix}` satisfies TranslationKey, params);
  const [saving, setSaving] = useState<ReadonlySet<number>>(new Set());

  const changeStatus = async (report: BugReport, status: BugReportStatus) => {
    setSaving((ids) => new Set(ids).add(report.id));
    try {
      await updateBugReportStatus(report.id, status);
      toastSuccess(
        text("statusChanged"),
        text("statusChangedText", { id: report.id, status: t(`bugReport.status.${status}`) }),
      );
    } catch (error) {
      toastError(text("statusFailed"), serverMessage(t, error));
    } finally {
      setSaving((ids) => {
        const next = new Set(ids);
        next.delete(report.id);
        return next;
      });
    }
  };

  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover data-testid="bug-report-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={64} pl="md">{text("id")}</Table.Th>
            <Table.Th w={190}>{text("user")}</Table.Th>
            <Table.Th miw={220}>{text("description")}</Table.Th>
            <Table.Th w={96}>{text("screenshot")}</Table.Th>
            <Table.Th w={112}>{text("status")}</Table.Th>
            <Table.Th w={140}>{text("date")}</Table.Th>
            <Table.Th w={148} pr="md">{text("changeStatus")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reports.map((report) => (
            <Table.Tr key={report.id} data-testid="bug-report-row" data-report-id={report.id}>
              <Table.Td className={classes.cellTop} pl="md">
                <Text size="sm" c="dimmed" ff="monospace">
                  #{report.id}
                </Text>
              </Table.Td>
              <Table.Td className={classes.cellTop}>
                {report.user
                  ? (
                    <Text size="sm" style={{ overflowWrap: "anywhere" }} data-testid="bug-report-user">
                      <EmailWithBreak email={report.user.email} />
                    </Text>
                  )
                  : (
                    <Text size="sm" c="dimmed" fs="italic" data-testid="bug-report-user">
                      {text("unknownUser")}
                    </Text>
                  )}
              </Table.Td>
              <Table.Td className={classes.cellTop}>
                <Text size="sm" lineClamp={6} className={classes.description} title={report.description}>
                  {report.description}
                </Text>
                {report.pageUrl && isWebAddress(report.pageUrl) && (
                  <Anchor
                    href={report.pageUrl}
                    target="_blank"
                    rel="noreferrer"
                    size="xs"
                    c="dimmed"
                    display="block"
                    mt={4}
                    truncate="end"
                    maw={420}
                  >
                    {report.pageUrl}
                  </Anchor>
                )}
              </Table.Td>
              <Table.Td className={classes.cellTop}>
                {report.screenshotUrl
                  ? (
                    <Anchor
                      href={report.screenshotUrl}
                      target="_blank"
                      rel="noreferrer"
                      className={classes.thumbnailLink}
                      aria-label={text("openScreenshot")}
                      title={text("openScreenshot")}
                    >
                      <img src={report.screenshotUrl} alt="" loading="lazy" className={classes.thumbnail} />
                    </Anchor>
                  )
                  : (
                    <Text size="sm" c="dimmed">
                      {text("noScreenshot")}
                    </Text>
                  )}
              </Table.Td>
              <Table.Td className={classes.cellTop}>
                <BugReportStatusBadge status={report.status} />
              </Table.Td>
              <Table.Td className={classes.cellTop}>
                <Text size="sm" style={{ whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" }}>
                  {formatAdminDateTime(report.createdAt)}
                </Text>
              </Table.Td>
              <Table.Td className={classes.cellTop} pr="md">
                <NativeSelect
                  size="xs"
                  value={report.status}
                  disabled={saving.has(report.id)}
                  aria-label={text("statusOf", { id: report.id })}
                  data={BUG_REPORT_STATUSES.map((status) => ({
                    value: status,
                    label: t(`bugReport.status.${status}`),
                  }))}
                  onChange={(event) =>
                    void changeStatus(report, event.currentTarget.value as BugReportStatus)}
                  data-testid="bug-report-status-select"
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Long addresses wrap after the at-sign rather than mid-word. */
function EmailWithBreak({ email }: { email: string }) {
  const at = email.indexOf("@");
  if (at < 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
