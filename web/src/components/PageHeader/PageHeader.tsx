import { Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

type PageHeaderProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Shown above the title, e.g. the project a sub-page belongs to. */
  eyebrow?: ReactNode;
  actions?: ReactNode;
  titleProps?: Record<`data-${string}`, string>;
};

export function PageHeader({ title, description, eyebrow, actions, titleProps }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-start" gap="md" mb="xl" wrap="wrap">
      <Stack gap={4} style={{ flex: "1 1 16rem", minWidth: 0 }}>
        {eyebrow}
        <Title order={1} {...titleProps} style={{ overflowWrap: "anywhere" }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="md" style={{ overflowWrap: "anywhere" }}>
            {description}
          </Text>
        )}
      </Stack>
      {actions && (
        <Group gap="sm" wrap="wrap">
          {actions}
        </Group>
      )}
    </Group>
  );
}
