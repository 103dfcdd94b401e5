import { Modal } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { createProject, type ProjectUpdateInput } from "../../api/projects.ts";
import { useOpenedAfterMount } from "../../hooks/useOpenedAfterMount.ts";
import { useT } from "../../i18n/i18n.tsx";
import { failureText } from "../../lib/messages.ts";
import { projectPath } from "../../lib/projectSections.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { ProjectForm } from "../ProjectForm/ProjectForm.tsx";

type CreateProjectDialogProps = { opened: boolean; onClose: () => void };

export function CreateProjectDialog({ opened, onClose }: CreateProjectDialogProps) {
  const t = useT();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  // The shell mounts this dialog, in its own chunk, at the first open.
  const shown = useOpenedAfterMount(opened);

  const handleSubmit = async ({ language: _contentLanguage, ...input }: ProjectUpdateInput) => {
    setSubmitting(true);
    try {
      const project = await createProject(input);
      toastSuccess(t("projectDialog.created"), project.name);
      onClose();
      navigate(projectPath(project.id));
    } catch (error) {
      toastError(t("projectDialog.createFailed"), failureText(t, error, "common.tryAgainLater"));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      opened={shown}
      onClose={submitting ? () => {} : onClose}
      title={t("projectDialog.createTitle")}
      size="lg"
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <ProjectForm
        submitLabel={t("projectDialog.create")}
        submitting={submitting}
        onSubmit={(input) => void handleSubmit(input)}
        onCancel={onClose}
      />
    </Modal>
  );
}
