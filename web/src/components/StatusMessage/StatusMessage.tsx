import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router-dom";
import { IconArrowLeft } from "../Icons/Icons.tsx";

type StatusMessageProps = {
  /** The HTTP-style number shown large above the title (404, 403). */
  code: number;
  title: string;
  message: string;
  homeLabel: string;
  /** A page of its own (404) or the content area of the shell (403). */
  fullPage?: boolean;
  testId: string;
};

/** A page that can only say why there is nothing here, with the way back home. */
export function StatusMessage(
  { code, title, message, homeLabel, fullPage = false, testId }: StatusMessageProps,
) {
  return (
    <Center mih={fullPage ? "100dvh" : "60dvh"} p="md" bg={fullPage ? "gray.0" : undefined}>
      <Stack align="center" gap="xs" maw={420} ta="center">
        <Text fz={88} fw={800} lh={1} c="brand.1" aria-hidden="true" style={{ letterSpacing: "-0.04em" }}>
          {code}
        </Text>
        <Title order={1} data-testid={testId}>
          {title}
        </Title>
        <Text c="dimmed">{message}</Text>
        <Button component={Link} to="/" mt="md" leftSection={<IconArrowLeft size={16} />}>
          {homeLabel}
        </Button>
      </Stack>
    </Center>
  );
}
