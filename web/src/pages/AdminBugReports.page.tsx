import { Badge, Button, Card, EmptyState, Stack } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import { useAdminBugReports, useAdminStats } from "../api/admin.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { BugReportTable } from "../components/BugReportTable/BugReportTable.tsx";
import { IconBug, IconRefresh } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { TableSkeleton } from "../components/TableSkeleton/TableSkeleton.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

/** Spec §2: the separate bug-report screen, in Russian whatever the interface language. */
export default function AdminBugReportsPage() {
  const t = useT();
  usePageTitle(t("adminBugReports.title"));
  const { reports, isLoading, isValidating, error, mutate, hasMore, isLoadingMore, loadMore } =
    useAdminBugReports();
  // the list comes a page at a time; the total is counted on the server
  const stats = useAdminStats();
  const total = stats.stats?.bugReportCount;
  const loaded = !isLoading && !(error && reports.length === 0) && total !== undefined;
  const refresh = () => Promise.all([mutate(), stats.mutate()]);

  return (
    <div lang="ru">
      <PageHeader
        eyebrow={<BackLink to="/admin" label={t("adminBugReports.back")} />}
        title={
          <>
            {t("adminBugReports.title")}
            {loaded && (
              <Badge
                size="lg"
                variant="light"
                color="gray"
                radius="sm"
                tt="none"
                ml="sm"
                style={{ verticalAlign: "middle" }}
                data-testid="bug-report-total"
              >
                {t("adminBugReports.total", { count: total })}
              </Badge>
            )}
          </>
        }
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={isValidating || stats.isValidating}
            onClick={() => void refresh()}
            data-testid="bug-report-refresh"
          >
            {t("adminBugReports.refresh")}
          </Button>
        }
      />

      <Stack gap="md">
        {error !== undefined && (
          <LoadError
            message={t("adminBugReports.loadFailed")}
            retryLabel={t("adminBugReports.retry")}
            onRetry={() => void refresh()}
          />
        )}
        {isLoading ? <TableSkeleton /> : reports.length > 0
          ? (
            <div>
              <Card padding={0}>
                <BugReportTable reports={reports} texts="adminBugReports" />
              </Card>
              {hasMore && (
                <Button
                  variant="default"
                  mt="md"
                  mx="auto"
                  display="block"
                  loading={isLoadingMore}
                  onClick={() => void loadMore()}
                  data-testid="show-more"
                >
                  {t("adminBugReports.showMore")}
                </Button>
              )}
            </div>
          )
          : error === undefined
          ? (
            <Card padding="xl" style={{ borderStyle: "dashed" }}>
              <EmptyState
                py="lg"
                variant="light"
                icon={<IconBug size={26} />}
                title={t("adminBugReports.empty")}
              />
            </Card>
          )
          : null}
      </Stack>
    </div>
  );
}
