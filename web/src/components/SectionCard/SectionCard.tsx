import { Card, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import { type ReactNode, useId } from "react";

type SectionCardProps = { title: ReactNode; hint: ReactNode; children: ReactNode; testId?: string };

/** A card of its own on a settings-like page: a heading named for assistive technology, a line on what it is for, then its content. */
export function SectionCard({ title, hint, children, testId }: SectionCardProps) {
  const titleId = useId();
  return (
    <Card component="section" padding="lg" aria-labelledby={titleId} data-testid={testId}>
      <Text component="h2" fw={600} m={0} id={titleId}>
        {title}
      </Text>
      <Text size="sm" c="dimmed" mb="md">
        {hint}
      </Text>
      {children}
    </Card>
  );
}
