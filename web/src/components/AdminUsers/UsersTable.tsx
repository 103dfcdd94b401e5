import { Badge, Card, EmptyState, Table, Text } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/Table.layer.css";
import type { AdminUserRow } from "../../../../contract/bug_reports.ts";
import { useT } from "../../i18n/i18n.tsx";
import { IconUsers } from "../Icons/Icons.tsx";

/** The Users tab's list: each account's counts, or why the list is empty (none, or no match). */
export function UsersTable({ users, search }: { users: AdminUserRow[]; search: string }) {
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
