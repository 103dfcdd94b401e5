import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router-dom";
import { IconArrowLeft } from "../components/Icons/Icons.tsx";
import { useT } from "../i18n/i18n.tsx";
import { usePageTitle } from "../lib/pageTitle.ts";

export default function NotFoundPage() {
  const t = useT();
  usePageTitle(t("404"));
  return (
    <Center mih="100dvh" p="md" bg="gray.0">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <Text fz={88} fw={800} lh={1} c="brand.1" aria-hidden="true" style={{ letterSpacing: "-0.04em" }}>
          404
        </Text>
        <Title order={1} data-testid="not-found">
          {t("404")}
        </Title>
        <Text c="dimmed">{t("404.message")}</Text>
        <Button component={Link} to="/" mt="md" leftSection={<IconArrowLeft size={16} />}>
          {t("common.backHome")}
        </Button>
      </Stack>
    </Center>
  );
}
