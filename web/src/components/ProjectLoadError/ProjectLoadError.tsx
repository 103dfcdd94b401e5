import { Button, Paper, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { useT } from "../../i18n/i18n.tsx";
import { IconAlert, IconArrowLeft } from "../Icons/Icons.tsx";

/** Spec §2: one generic text whether the project failed to load or does not exist. */
export function ProjectLoadError() {
  const t = useT();
  return (
    <Paper withBorder p="xl" ta="center" role="alert">
      <Text c="var(--mantine-color-error)" mb={6} style={{ display: "inline-flex" }}>
        <IconAlert size={28} />
      </Text>
      <Text fw={600}>{t("project.loadFailed")}</Text>
      <Text size="sm" c="dimmed" mt={4}>
        {t("project.loadFailedHint")}
      </Text>
      <Button component={Link} to="/" variant="default" mt="lg" leftSection={<IconArrowLeft size={16} />}>
        {t("common.backToDashboard")}
      </Button>
    </Paper>
  );
}
