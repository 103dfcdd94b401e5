import { Modal } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import { useState } from "react";
import type { Project } from "../../../../contract/projects.ts";
import { ApiRequestError } from "../../api/fetcher.ts";
import { updateProject, type ProjectUpdateInput } from "../../api/projects.ts";
import { type TFunction, useT } from "../../i18n/i18n.tsx";
import { failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { ProjectForm } from "../ProjectForm/ProjectForm.tsx";

/**
 * A new admin handle on a project with a channel is checked with Telegram (docs/trust-model.md); its refusals are said with the handle and the channel, and that nothing changed.
 */
function updateFailureText(t: TFunction, error: unknown, input: ProjectUpdateInput): string {
  const body = error instanceof ApiRequestError ? error.body : undefined;
  const code = body?.code;
  const handle = (input.adminHandle ?? "").trim().replace(/^@/, "");
  if (code === "channels.approverNotAdmin") {
    const channel = String(body?.params?.channel ?? "");
    return t("projectDialog.error.approverNotAdmin", { handle, channel });
  }
  if (code === "channels.adminNotRegistered") return t("projectDialog.error.adminNotRegistered", { handle });
  if (code === "projects.approverNotConfirmed") return t("projects.approverNotConfirmed");
  if (code === "telegram.unreachable") return t("telegram.unreachable");
  return failureText(t, error, "common.tryAgainLater");
}

type EditProjectDialogProps = { project: Project; opened: boolean; onClose: () => void };

export function EditProjectDialog({ project, opened, onClose }: EditProjectDialogProps) {
  const t = useT();
  const [submitting, setSubmitting] = useState(false);

  const handleSubmit = async (input: ProjectUpdateInput) => {
    setSubmitting(true);
    try {
      const saved = await updateProject(project.id, input);
      // A new approver of a connected channel is asked in Telegram; the old one stays till then.
      const asked = input.adminHandle?.trim().replace(/^@/, "");
      if (asked && asked.toLowerCase() !== saved.adminHandle.toLowerCase()) {
        toastSuccess(t("projectDialog.updated"), t("projectDialog.approverAsked", { handle: asked }));
      } else toastSuccess(t("projectDialog.updated"));
      onClose();
    } catch (error) {
      toastError(t("projectDialog.updateFailed"), updateFailureText(t, error, input));
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
