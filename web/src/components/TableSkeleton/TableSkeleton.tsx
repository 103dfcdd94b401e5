import { Card, Skeleton, Stack } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { useT } from "../../i18n/i18n.tsx";

/** Placeholder rows while a table's data loads. */
export function TableSkeleton({ rows = 4 }: { rows?: number }) {
  const t = useT();
  return (
    <Card padding="lg" role="status" aria-busy="true" aria-label={t("common.loading")}>
      <Stack gap="md">
        {Array.from(
          { length: rows },
          (_, row) => <Skeleton key={row} height={18} width={row % 2 ? "85%" : "100%"} />,
        )}
      </Stack>
    </Card>
  );
}
