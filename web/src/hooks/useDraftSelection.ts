import { useEffect, useState } from "react";
import type { DraftSummary } from "../../../contract/drafts.ts";
import { keepPresent, toggled } from "../lib/draftSelection.ts";

/** The drafts ticked on the Drafts page; drafts that leave the list leave the selection. */
export function useDraftSelection(drafts: readonly DraftSummary[]) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());

  useEffect(() => {
    setSelected((current) => keepPresent(current, drafts));
  }, [drafts]);

  const allSelected = drafts.length > 0 && selected.size === drafts.length;
  return {
    selected,
    allSelected,
    toggle: (draftId: number, checked: boolean) => setSelected((current) => toggled(current, draftId, checked)),
    toggleAll: () => setSelected(allSelected ? new Set() : new Set(drafts.map((draft) => draft.id))),
    clear: () => setSelected(new Set()),
    /** Drops drafts the batch delete removed, keeping whatever was ticked meanwhile. */
    drop: (ids: readonly number[]) => setSelected((current) => new Set([...current].filter((id) => !ids.includes(id)))),
  };
}
