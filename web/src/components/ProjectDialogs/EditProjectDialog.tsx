import { Modal } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import { useState } from "react";
import type { Project } from "../../../../api/contract/projects.ts";
import { updateProject, type ProjectUpdateInput } from "../../api/projects.ts";
import { useT } from "../../i18n/i18n.tsx";
import { failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { ProjectForm } from "../ProjectForm/ProjectForm.tsx";

type EditProjectDialogProps = { project: Project; opened: boolean; onClose: () => void };

export function EditProjectDialog({ project, opened, onClose }: EditProjectDialogProps) {
  const t = useT();
  const [submitting, setSubmitting] = useState(false);

  const handleSubmit = async (input: ProjectUpdateInput) => {
    setSubmitting(true);
    try {
      await updateProject(project.id, input);
      toastSuccess(t("projectDialog.updated"));
      onClose();
    } catch (error) {
      toastError(t("projectDialog.updateFailed"), failureText(t, error, "common.tryAgainLater"));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={submitting ? () => {} : onClose}
      title={t("projectDialog.editTitle")}
      size="lg"
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <ProjectForm
        project={project}
        submitLabel={t("common.save")}
        submitting={submitting}
        onSubmit={(input) => void handleSubmit(input)}
        onCancel={onClose}
      />
    </Modal>
  );
}
