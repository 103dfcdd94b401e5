import { Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/SimpleGrid.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import "@mantine/core/styles/ThemeIcon.layer.css";
import type { ReactNode } from "react";
import type { AdminStats as Stats } from "../../../../contract/bug_reports.ts";
import { type TranslationKey, useT } from "../../i18n/i18n.tsx";
import { IconCalendar, IconFileText, IconUsers } from "../Icons/Icons.tsx";

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
  key: keyof Stats;
  icon: typeof IconUsers;
  label: TranslationKey;
  hint: TranslationKey;
  testId: string;
}>;
/** The Dashboard tab: each counter in its card, a placeholder until the counts arrive. */
export function AdminStats({ stats }: { stats: Stats | undefined }) {
  const t = useT();
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      {STAT_CARDS.map(({ key, icon: Icon, label, hint, testId }) => (
        <StatCard
          key={key}
          icon={<Icon size={22} />}
          label={t(label)}
          hint={t(hint)}
          value={stats?.[key]}
          testId={testId}
        />
      ))}
    </SimpleGrid>
  );
}

type StatCardProps = {
  icon: ReactNode;
  label: string;
  hint: string;
  value: number | undefined;
  testId: string;
};

export function StatCard({ icon, label, hint, value, testId }: StatCardProps) {
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
