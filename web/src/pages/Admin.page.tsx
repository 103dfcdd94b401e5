import { Badge, Button, Card, EmptyState, Loader, Tabs, TextInput } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Tabs.layer.css";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { ADMIN_USER_SEARCH_DEBOUNCE_MS, ADMIN_USER_SEARCH_MAX } from "../../../contract/admin.ts";
import { useAdminBugReports, useAdminStats, useAdminUsers } from "../api/admin.ts";
import { AdminStats } from "../components/AdminStats/AdminStats.tsx";
import { UsersTable } from "../components/AdminUsers/UsersTable.tsx";
import { BugReportTable } from "../components/BugReportTable/BugReportTable.tsx";
import { IconBug, IconChevronRight, IconHome, IconMail, IconUsers } from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ShowMore } from "../components/ShowMore/ShowMore.tsx";
import { TableSkeleton } from "../components/TableSkeleton/TableSkeleton.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

const TABS = ["dashboard", "users", "bug-reports"] as const;

type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => (TABS as readonly (string | null)[]).includes(value);

/** Spec §2 Admin screens: tabs Dashboard, Users and Bug Reports; the open tab is in the URL. */
export default function AdminPage() {
  const t = useT();
  usePageTitle(t("admin.title"));
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = isTab(requested) ? requested : "dashboard";
  const stats = useAdminStats();
  const [search, setSearch] = useState("");
  const [debouncedSearch] = useDebouncedValue(search, ADMIN_USER_SEARCH_DEBOUNCE_MS);
  const users = useAdminUsers(debouncedSearch);
  const bugReports = useAdminBugReports();
  // the list comes a page at a time, so the badge counts every new report on the server
  const newReports = stats.stats?.newBugReportCount ?? 0;

  // Spec §8: the dashboard's load failure is English in both languages; bug-report load
  // and update failures are Russian (the dictionaries hold them so).
  const loadFailed = (retry: () => void, message = t("admin.loadFailed")) => (
    <LoadError message={message} retryLabel={t("common.retry")} onRetry={retry} />
  );

  return (
    <>
      <PageHeader
        title={t("admin.title")}
        description={t("admin.description")}
        actions={
          <Button
            component={Link}
            to="/admin/bug-reports"
            variant="default"
            leftSection={<IconBug size={16} />}
            rightSection={<IconChevronRight size={14} />}
            data-testid="admin-bug-reports-link"
          >
            {t("admin.openBugReports")}
          </Button>
        }
      />

      <Tabs
        value={tab}
        onChange={(value) =>
          setParams(value && value !== "dashboard" ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List aria-label={t("admin.tabs")} mb="lg">
          <Tabs.Tab value="dashboard" leftSection={<IconHome size={16} />}>
            {t("admin.tab.dashboard")}
          </Tabs.Tab>
          <Tabs.Tab value="users" leftSection={<IconUsers size={16} />}>
            {t("admin.tab.users")}
          </Tabs.Tab>
          <Tabs.Tab
            value="bug-reports"
            leftSection={<IconBug size={16} />}
            rightSection={newReports > 0
              ? (
                <Badge size="sm" color="red" circle aria-label={`${newReports} ${t("bugReport.status.new")}`}>
                  {newReports}
                </Badge>
              )
              : null}
          >
            {t("admin.tab.bugReports")}
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="dashboard">
          {stats.error
            ? (
              loadFailed(() => void stats.mutate())
            )
            : (
              <AdminStats stats={stats.stats} />
            )}
        </Tabs.Panel>

        <Tabs.Panel value="users">
          <TextInput
            type="search"
            mb="md"
            maw={360}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            maxLength={ADMIN_USER_SEARCH_MAX}
            placeholder={t("admin.users.searchPlaceholder")}
            aria-label={t("admin.users.search")}
            leftSection={<IconMail size={16} />}
            rightSection={users.isSearching || search.trim() !== debouncedSearch.trim()
              ? <Loader size={14} />
              : null}
            data-testid="admin-user-search"
          />
          {users.error
            ? (
              loadFailed(() => void users.mutate())
            )
            : users.isLoading
            ? <TableSkeleton />
            : (
              <>
                <UsersTable users={users.users} search={debouncedSearch.trim()} />
                {users.hasMore && (
                  <ShowMore loading={users.isLoadingMore} onClick={() => void users.loadMore()}>
                    {t("admin.showMore")}
                  </ShowMore>
                )}
              </>
            )}
        </Tabs.Panel>

        <Tabs.Panel value="bug-reports">
          {bugReports.error
            ? (
              loadFailed(() => void bugReports.mutate(), t("adminBugReports.loadFailed"))
            )
            : bugReports.isLoading
            ? <TableSkeleton />
            : bugReports.reports.length === 0
            ? (
              <Card padding="xl" style={{ borderStyle: "dashed" }}>
                <EmptyState
                  py="lg"
                  variant="light"
                  icon={<IconBug size={26} />}
                  title={t("admin.reports.empty")}
                />
              </Card>
            )
            : (
              <>
                <Card padding={0}>
                  <BugReportTable reports={bugReports.reports} texts="admin.reports" />
                </Card>
                {bugReports.hasMore && (
                  <ShowMore loading={bugReports.isLoadingMore} onClick={() => void bugReports.loadMore()}>
                    {t("admin.showMore")}
                  </ShowMore>
                )}
              </>
            )}
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
