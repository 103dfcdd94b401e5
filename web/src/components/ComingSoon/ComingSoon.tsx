import { Paper, Text, ThemeIcon } from "@mantine/core";
import "@mantine/core/styles/ThemeIcon.layer.css";
import type { ReactNode } from "react";
import { useT } from "../../i18n/i18n.tsx";

type ComingSoonProps = { icon: ReactNode; title?: string; description?: string };

/** Placeholder body for a screen that arrives later in this release. */
export function ComingSoon({ icon, title, description }: ComingSoonProps) {
  const t = useT();
  return (
    <Paper withBorder p="xl" ta="center" style={{ borderStyle: "dashed", background: "transparent" }}>
      <ThemeIcon size={48} radius="xl" variant="light" mx="auto" mb="md">
        {icon}
      </ThemeIcon>
      <Text fw={600}>{title ?? t("comingSoon.title")}</Text>
      <Text size="sm" c="dimmed" maw={420} mx="auto" mt={4}>
        {description ?? t("comingSoon.text")}
      </Text>
    </Paper>
  );
}
