import { Button, Group, Modal, Text } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import type { Project } from "../../../../contract/projects.ts";
import { deleteProject } from "../../api/projects.ts";
import { useT } from "../../i18n/i18n.tsx";
import { failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

type DeleteProjectDialogProps = { project: Project; opened: boolean; onClose: () => void };

export function DeleteProjectDialog({ project, opened, onClose }: DeleteProjectDialogProps) {
  const t = useT();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  const handleDelete = async () => {
    setDeleting(true);
    try {
      await deleteProject(project.id);
      toastSuccess(t("projectDialog.deleted"), project.name);
      navigate("/", { replace: true });
    } catch (error) {
      toastError(t("projectDialog.deleteFailed"), failureText(t, error, "common.tryAgainLater"));
      setDeleting(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={deleting ? () => {} : onClose}
      title={t("projectDialog.deleteTitle")}
      size="sm"
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
        {t("projectDialog.deleteText", { name: project.name })}
      </Text>
      <Group justify="flex-end" gap="sm" mt="lg">
        <Button variant="default" onClick={onClose} disabled={deleting} data-autofocus>
          {t("common.cancel")}
        </Button>
        <Button color="red" onClick={() => void handleDelete()} loading={deleting}>
          {t("common.delete")}
        </Button>
      </Group>
    </Modal>
  );
}
