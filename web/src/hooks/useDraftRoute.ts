import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router-dom";
import type { Draft, DraftSummary } from "../../../contract/drafts.ts";
import { useDraft } from "../api/drafts.ts";
import { useT } from "../i18n/i18n.tsx";
import { projectPath } from "../lib/projectSections.ts";
import { toastError } from "../lib/toast.ts";

/** Opened from the list (so Back closes the editor) rather than from a link elsewhere. */
type EditLocationState = { fromList?: boolean } | null;

type DraftList = { drafts: readonly DraftSummary[]; isLoading: boolean; error: unknown };

/**
 * The Drafts page's edit dialog belongs to the URL (/project/{id}/drafts/{draftId}), so other
 * screens can link to a draft: it opens the draft the URL names, or says it is gone.
 */
export function useDraftRoute(projectId: number | null, { drafts, isLoading, error }: DraftList) {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const { draftId: draftParam } = useParams();
  // The draft the URL names, once the list has it; the editor reads it whole (the list has
  // excerpts only) and opens when this opening's read has answered.
  const [editing, setEditing] = useState<DraftSummary | undefined>(undefined);

  const draftsPath = projectId === null ? "" : projectPath(projectId, "drafts");
  const editId = draftParam && /^\d+$/.test(draftParam) ? Number(draftParam) : null;
  const { draft: wholeDraft, ready: wholeReady } = useDraft(projectId, editing?.id === editId ? editId : null);
  const editOpened = editId !== null && editing?.id === editId && wholeReady && wholeDraft?.id === editId;
  // The draft shown in the edit dialog stays while the dialog animates out.
  const lastWhole = useRef<Draft | undefined>(undefined);
  if (wholeDraft && wholeDraft.id === editId) lastWhole.current = wholeDraft;

  // Follow the URL: open the named draft once the list has it, or say it is gone.
  useEffect(() => {
    if (draftParam === undefined || isLoading || error || projectId === null) return;
    const draft = editId === null ? undefined : drafts.find((item) => item.id === editId);
    if (draft) {
      setEditing(draft);
    } else {
      toastError(t("drafts.notFound"));
      navigate(draftsPath, { replace: true });
    }
  }, [draftParam, editId, drafts, isLoading, error, projectId, draftsPath, navigate, t]);

  return {
    editOpened,
    /** The whole draft the dialog shows (kept while it closes). */
    shown: lastWhole.current,
    openEditor: (draft: DraftSummary) => navigate(`${draftsPath}/${draft.id}`, { state: { fromList: true } }),
    closeEditor: () => {
      if ((location.state as EditLocationState)?.fromList) navigate(-1);
      else navigate(draftsPath, { replace: true });
    },
  };
}
