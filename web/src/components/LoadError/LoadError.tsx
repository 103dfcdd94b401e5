import { Button, Card, Group, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import { IconAlert } from "../Icons/Icons.tsx";

/** A list that failed to load: what happened and a way to try again, in place of the list. */
export function LoadError(
  { message, retryLabel, onRetry }: { message: string; retryLabel: string; onRetry: () => void },
) {
  return (
    <Card padding="lg" role="alert" data-testid="load-error">
      <Group justify="space-between" gap="md">
        <Group gap="sm" wrap="nowrap">
          <Text c="var(--mantine-color-error)" style={{ display: "inline-flex" }}>
            <IconAlert size={20} />
          </Text>
          <Text c="var(--mantine-color-error)">{message}</Text>
        </Group>
        <Button variant="default" onClick={onRetry}>
          {retryLabel}
        </Button>
      </Group>
    </Card>
  );
}
