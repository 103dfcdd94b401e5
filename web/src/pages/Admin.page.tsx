import {
  Badge,
  Button,
  Card,
  EmptyState,
  Group,
  Loader,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  ThemeIcon,
} from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/SimpleGrid.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/Table.layer.css";
import "@mantine/core/styles/Tabs.layer.css";
import "@mantine/core/styles/ThemeIcon.layer.css";
import { useDebouncedValue } from "@mantine/hooks";
import { type ReactNode, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { ADMIN_USER_SEARCH_DEBOUNCE_MS, ADMIN_USER_SEARCH_MAX } from "../../../contract/admin.ts";
import type { AdminStats, AdminUserRow } from "../../../contract/bug_reports.ts";
import { useAdminBugReports, useAdminStats, useAdminUsers } from "../api/admin.ts";
import { BugReportTable } from "../components/BugReportTable/BugReportTable.tsx";
import {
  IconBug,
  IconCalendar,
  IconChevronRight,
  IconFileText,
  IconHome,
  IconMail,
  IconUsers,
} from "../components/Icons/Icons.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { TableSkeleton } from "../components/TableSkeleton/TableSkeleton.tsx";
import { type TranslationKey, useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

const TABS = ["dashboard", "users", "bug-reports"] as const;

/** Spec §2: the Dashboard tab's three counters. */
const STAT_CARDS = [
  {
    key: "userCount",
    icon: IconUsers,
    label: "admin.stats.users",
    hint: "admin.stats.usersHint",
    testId: "stat-users",
  },
  {
    key: "postCount",
    icon: IconFileText,
    label: "admin.stats.posts",
    hint: "admin.stats.postsHint",
    testId: "stat-posts",
  },
  {
    key: "scheduledTodayCount",
    icon: IconCalendar,
    label: "admin.stats.scheduledToday",
    hint: "admin.stats.scheduledTodayHint",
    testId: "stat-scheduled-today",
  },
] as const satisfies ReadonlyArray<{
  key: keyof AdminStats;
  icon: typeof IconUsers;
  label: TranslationKey;
  hint: TranslationKey;
  testId: string;
}>;
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
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
                {STAT_CARDS.map(({ key, icon: Icon, label, hint, testId }) => (
                  <StatCard
                    key={key}
                    icon={<Icon size={22} />}
                    label={t(label)}
                    hint={t(hint)}
                    value={stats.stats?.[key]}
                    testId={testId}
                  />
                ))}
              </SimpleGrid>
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

type StatCardProps = {
  icon: ReactNode;
  label: string;
  hint: string;
  value: number | undefined;
  testId: string;
};

function StatCard({ icon, label, hint, value, testId }: StatCardProps) {
  return (
    <Card padding="lg">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={44} radius="md" variant="light">
          {icon}
        </ThemeIcon>
        <Stack gap={2}>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          {value === undefined ? <Skeleton height={30} width={64} mt={4} /> : (
            <Text
              fz={30}
              fw={700}
              lh={1.2}
              style={{ fontVariantNumeric: "tabular-nums" }}
              data-testid={testId}
            >
              {value.toLocaleString()}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** The next page of a list, as on the Published page. */
function ShowMore(
  { loading, onClick, children }: { loading: boolean; onClick: () => void; children: ReactNode },
) {
  return (
    <Button
      variant="default"
      mt="md"
      mx="auto"
      display="block"
      loading={loading}
      onClick={onClick}
      data-testid="show-more"
    >
      {children}
    </Button>
  );
}

function UsersTable({ users, search }: { users: AdminUserRow[]; search: string }) {
  const t = useT();
  const count = (value: number) => (
    <Table.Td
      ta="right"
      style={{ fontVariantNumeric: "tabular-nums" }}
      c={value === 0 ? "dimmed" : undefined}
    >
      {value}
    </Table.Td>
  );
  if (users.length === 0) {
    return (
      <Card padding="xl" style={{ borderStyle: "dashed" }}>
        <EmptyState
          py="lg"
          variant="light"
          icon={<IconUsers size={26} />}
          title={search ? t("admin.users.noMatches", { search }) : t("admin.users.empty")}
        />
      </Card>
    );
  }
  return (
    <Card padding={0}>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover data-testid="admin-users-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={72}>{t("admin.reports.id")}</Table.Th>
              <Table.Th>{t("admin.users.email")}</Table.Th>
              <Table.Th w={90}>{t("admin.users.admin")}</Table.Th>
              <Table.Th w={100} ta="right">{t("admin.users.projects")}</Table.Th>
              <Table.Th w={100} ta="right">{t("admin.users.channels")}</Table.Th>
              <Table.Th w={100} ta="right">{t("admin.users.posts")}</Table.Th>
              <Table.Th w={110} ta="right">{t("admin.users.drafts")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((user) => (
              <Table.Tr key={user.id} data-testid="admin-user-row">
                <Table.Td c="dimmed" ff="monospace" fz="sm">
                  {user.id}
                </Table.Td>
                <Table.Td style={{ overflowWrap: "anywhere" }}>{user.email}</Table.Td>
                <Table.Td>
                  {user.isAdmin
                    ? (
                      <Badge color="brand" variant="light" radius="sm" tt="none">
                        {t("admin.yes")}
                      </Badge>
                    )
                    : (
                      <Text size="sm" c="dimmed">
                        {t("admin.no")}
                      </Text>
                    )}
                </Table.Td>
                {count(user.projectCount)}
                {count(user.channelCount)}
                {count(user.postCount)}
                {count(user.draftCount)}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
