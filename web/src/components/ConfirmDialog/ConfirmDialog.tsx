import { Button, Group, Modal, Text } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import type { ReactNode } from "react";
import { useT } from "../../i18n/i18n.tsx";

type ConfirmDialogProps = {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** The action is running: buttons wait and the dialog cannot be dismissed. */
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/** "Are you sure?" before a destructive action; Cancel has the focus. */
export function ConfirmDialog({ opened, title, message, confirmLabel, busy = false, onConfirm, onClose }: ConfirmDialogProps) {
  const t = useT();
  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={title}
      size="sm"
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
        {message}
      </Text>
      <Group justify="flex-end" gap="sm" mt="lg">
        <Button variant="default" onClick={onClose} disabled={busy} data-autofocus>
          {t("common.cancel")}
        </Button>
        <Button color="red" onClick={onConfirm} loading={busy} data-testid="confirm-delete">
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
