import { useDisclosure } from "@mantine/hooks";
import { useRef, useState } from "react";
import type { DraftSummary } from "../../../contract/drafts.ts";
import { deleteDraft } from "../api/drafts.ts";
import { ApiRequestError } from "../api/fetcher.ts";
import { useT } from "../i18n/i18n.tsx";
import { batchDeleteOutcome } from "../lib/draftSelection.ts";
import { failureText } from "../lib/messages.ts";
import { toastError, toastSuccess, toastWarning } from "../lib/toast.ts";

const isScheduledGuard = (error: unknown) =>
  error instanceof ApiRequestError && error.body?.code === "drafts.cannotDeleteScheduled";

/**
 * Deleting drafts on the Drafts page: one draft after its confirmation, or the selection
 * (spec §2/§8: one DELETE per draft; drafts a planned post still uses are skipped and said
 * so). `afterDelete` is the row the focus goes to once a deleted row is gone.
 */
export function useDraftDeletion(projectId: number | null, drafts: readonly DraftSummary[], dropFromSelection: (ids: readonly number[]) => void) {
  const t = useT();
  const [toDelete, setToDelete] = useState<DraftSummary | null>(null);
  // What a confirmation names stays put while the dialog animates out.
  const lastToDelete = useRef<DraftSummary | null>(null);
  if (toDelete) lastToDelete.current = toDelete;
  const afterDelete = useRef<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [batchOpened, batchDialog] = useDisclosure(false);
  const [batchCount, setBatchCount] = useState(0);

  const confirmOne = async () => {
    if (!toDelete || projectId === null) return;
    const index = drafts.findIndex((draft) => draft.id === toDelete.id);
    setDeleting(true);
    try {
      await deleteDraft(projectId, toDelete.id);
      afterDelete.current = (drafts[index + 1] ?? drafts[index - 1])?.id ?? null;
      toastSuccess(t("drafts.deleteSuccess"), toDelete.title);
      setToDelete(null);
    } catch (failure) {
      toastError(t("drafts.deleteFailed"), failureText(t, failure, "common.tryAgainLater"));
    } finally {
      setDeleting(false);
    }
  };

  const confirmBatch = async (ids: number[]) => {
    if (projectId === null) return;
    setDeleting(true);
    const results = await Promise.allSettled(ids.map((id) => deleteDraft(projectId, id)));
    setDeleting(false);
    batchDialog.close();
    const { deleted, skipped, failed } = batchDeleteOutcome(ids, results, isScheduledGuard);
    dropFromSelection(deleted);
    if (deleted.length === 1) toastSuccess(t("drafts.deleteSuccess"));
    else if (deleted.length > 1) toastSuccess(t("drafts.batchDeleteSuccess", { count: deleted.length }));
    if (skipped > 0) toastWarning(t("drafts.batchDeleteSkipped", { count: skipped }), t("drafts.batchDeleteSkippedText"));
    if (failed > 0) toastError(t("drafts.batchDeleteFailed", { count: failed }), t("common.tryAgainLater"));
  };

  return {
    one: { draft: toDelete, title: lastToDelete.current?.title ?? "", ask: setToDelete, cancel: () => setToDelete(null), confirm: confirmOne, afterDelete },
    batch: {
      opened: batchOpened,
      count: batchCount,
      ask: (count: number) => {
        setBatchCount(count);
        batchDialog.open();
      },
      cancel: batchDialog.close,
      confirm: confirmBatch,
    },
    deleting,
  };
}
