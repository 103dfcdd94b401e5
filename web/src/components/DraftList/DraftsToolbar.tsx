import { Button, Card, Checkbox, Skeleton, Stack, Text } from "@mantine/core";
import "@mantine/core/styles/Checkbox.layer.css";
import "@mantine/core/styles/CheckboxIndicator.layer.css";
import "@mantine/core/styles/InlineInput.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import type { Ref } from "react";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useT } from "../../i18n/i18n.tsx";
import { IconGripVertical, IconSparkles, IconTrash } from "../Icons/Icons.tsx";
import classes from "./DraftsToolbar.module.css";

/**
 * The drafts list's head: "select all" with the count, and for a selection its two acts
 * (write their text with the AI, delete them); with nothing selected, how to reorder.
 */
export function DraftsToolbar({ selectAllRef, total, selectedCount, allSelected, onToggleAll, onGenerate, generation, onDelete }: {
  selectAllRef: Ref<HTMLInputElement>;
  total: number;
  selectedCount: number;
  allSelected: boolean;
  onToggleAll: () => void;
  onGenerate: () => void;
  generation: { starting: boolean; active: boolean };
  onDelete: () => void;
}) {
  const t = useT();
  // On a phone the selection's buttons take a line of their own, with short labels.
  const isPhone = useIsPhone();
  return (
    <div className={classes.toolbar}>
      <Checkbox
        ref={selectAllRef}
        checked={allSelected}
        indeterminate={selectedCount > 0 && !allSelected}
        onChange={onToggleAll}
        label={selectedCount > 0 ? t("drafts.selectedCount", { count: selectedCount, total }) : t("drafts.selectAll")}
        fw={500}
        size="sm"
        data-testid="select-all"
      />
      {selectedCount > 0 ? (
        <div className={classes.toolbarActions}>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconSparkles size={15} />}
            onClick={onGenerate}
            loading={generation.starting}
            disabled={generation.active}
            title={generation.active ? t("drafts.generationBusy") : undefined}
            data-testid="generate-content"
          >
            {isPhone ? t("drafts.generateContentShort") : t("drafts.generateContent")}
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            color="red"
            leftSection={<IconTrash size={15} />}
            onClick={onDelete}
            data-testid="delete-selected"
          >
            {isPhone ? t("common.delete") : t("drafts.deleteSelected")}
          </Button>
        </div>
      ) : (
        <Text size="xs" c="dimmed" className={classes.hint}>
          <IconGripVertical size={14} />
          {t("drafts.dragHint")}
        </Text>
      )}
    </div>
  );
}

/** The list while it loads: its head and three rows' shapes. */
export function DraftsSkeleton({ className }: { className: string }) {
  const t = useT();
  return (
    <Card padding={0} className={className} role="status" aria-busy="true" aria-label={t("common.loading")}>
      <div className={classes.toolbar}>
        <Skeleton height={16} width={120} />
      </div>
      {[0, 1, 2].map((index) => (
        <div key={index} className={classes.skeletonRow}>
          <Skeleton height={18} width={18} radius="sm" />
          <Stack gap={8} style={{ flex: 1 }}>
            <Skeleton height={12} width="45%" />
            <Skeleton height={10} width="80%" />
          </Stack>
        </div>
      ))}
    </Card>
  );
}
