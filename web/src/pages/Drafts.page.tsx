import { Button, Card, EmptyState } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/EmptyState.layer.css";
import "@mantine/core/styles/InlineInput.layer.css";
import { useDisclosure } from "@mantine/hooks";
import { useRef, useState } from "react";
import type { DraftSummary } from "../../../contract/drafts.ts";
import { DRAFTS_PER_GENERATION_MAX } from "../../../contract/limits.ts";
import { moveDraft, useDrafts } from "../api/drafts.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { BulkAddDialog } from "../components/BulkAddDialog/BulkAddDialog.tsx";
import { ConfirmDialog } from "../components/ConfirmDialog/ConfirmDialog.tsx";
import { DraftDialog } from "../components/DraftDialog/DraftDialog.tsx";
import { DraftList, draftRowHandle } from "../components/DraftList/DraftList.tsx";
import { DraftsSkeleton, DraftsToolbar } from "../components/DraftList/DraftsToolbar.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { GenerationBanner } from "../components/GenerationBanner/GenerationBanner.tsx";
import { LoadError } from "../components/LoadError/LoadError.tsx";
import { IconFileText, IconListPlus, IconPlus } from "../components/Icons/Icons.tsx";
import { PageHeader } from "../components/PageHeader/PageHeader.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { QueueHealth } from "../components/QueueHealth/QueueHealth.tsx";
import { useContentGeneration } from "../hooks/useContentGeneration.ts";
import { useFocusFallback } from "../hooks/useFocusFallback.ts";
import { useDraftRoute } from "../hooks/useDraftRoute.ts";
import { useDraftDeletion } from "../hooks/useDraftDeletion.ts";
import { useDraftSelection } from "../hooks/useDraftSelection.ts";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { useT } from "../i18n/i18n.tsx";
import { generationPlan } from "../lib/draftSelection.ts";
import { serverMessage } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import { projectPath } from "../lib/projectSections.ts";
import { toastError, toastSuccess } from "../lib/toast.ts";
import classes from "./Drafts.module.css";

/**
 * Spec §2 Drafts: the project's unpublished drafts in publishing order. The edit dialog
 * belongs to the URL (/project/{id}/drafts/{draftId}), so other screens can link to a draft.
 */
export default function DraftsPage() {
  const t = useT();
  usePageTitle(t("section.drafts"));
  const { projectId, project, failed } = useRouteProject();
  const { drafts, isLoading, error, mutate } = useDrafts(projectId);
  const { editOpened, shown, openEditor, closeEditor } = useDraftRoute(projectId, { drafts, isLoading, error });
  // a viewer reads the queue; writing, ordering and the AI are for the roles that write
  const writes = useProjectRole(projectId).can("drafts.write");

  const { selected, allSelected, toggle, toggleAll, clear: clearSelection, drop: dropFromSelection } = useDraftSelection(drafts);
  const deletion = useDraftDeletion(projectId, drafts, dropFromSelection);
  const [createOpened, createDialog] = useDisclosure(false);
  const [bulkOpened, bulkDialog] = useDisclosure(false);
  /** Titles the bulk-add dialog asks the AI for as it opens (from the queue's forecast), if any. */
  const [titlesOnOpen, setTitlesOnOpen] = useState<number | undefined>(undefined);
  const generation = useContentGeneration(projectId);
  /** The selection waiting for "replace their text?" (spec §2 generate-titles-overwrite). */
  const [toGenerate, setToGenerate] = useState<{ ids: number[]; withContent: number } | null>(null);
  const lastToGenerate = useRef(toGenerate);
  if (toGenerate) lastToGenerate.current = toGenerate;

  // Where the focus goes when the control a dialog was opened from is gone once it closes: the
  // empty list's buttons have twins in the header, a deleted row's trash button the next row
  // (or the one before), a cleared selection's buttons the "select all" box.
  const newDraftRef = useRef<HTMLButtonElement>(null);
  const bulkAddRef = useRef<HTMLButtonElement>(null);
  const selectAllRef = useRef<HTMLInputElement>(null);
  const toList = () => selectAllRef.current ?? newDraftRef.current;
  useFocusFallback(createOpened, () => newDraftRef.current);
  useFocusFallback(bulkOpened, () => bulkAddRef.current);
  const { afterDelete } = deletion.one;
  useFocusFallback(deletion.one.draft !== null, () => (afterDelete.current === null ? null : draftRowHandle(afterDelete.current)) ?? toList());
  useFocusFallback(deletion.batch.opened, toList);
  useFocusFallback(toGenerate !== null, toList);

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;

  const handleMove = async (draft: DraftSummary, afterId: number | null, ordered: DraftSummary[]) => {
    try {
      await moveDraft(projectId, drafts, ordered, draft.id, afterId);
      toastSuccess(t("drafts.orderUpdated"));
    } catch (failure) {
      // The server's reason, unless it is the same sentence as the title.
      const detail = serverMessage(t, failure);
      toastError(t("drafts.reorderFailed"), detail === t("drafts.reorderFailed") ? undefined : detail);
    }
  };

  const startGeneration = async (ids: number[]) => {
    if (await generation.start(ids)) {
      setToGenerate(null);
      clearSelection();
    }
  };

  // Spec §2/§5: 1–30 selected drafts; drafts that already have text are replaced only after a yes.
  const handleGenerate = () => {
    const plan = generationPlan(drafts, selected, DRAFTS_PER_GENERATION_MAX);
    if (plan.kind === "none") return toastError(t("drafts.noSelectedDrafts"));
    if (plan.kind === "tooMany") {
      return toastError(t("drafts.tooManyDraftsSelected"), t("drafts.tooManyDraftsSelectedText", { max: DRAFTS_PER_GENERATION_MAX }));
    }
    if (plan.kind === "confirm") setToGenerate({ ids: plan.ids, withContent: plan.withContent });
    else void startGeneration(plan.ids);
  };

  const newDraftButton = (
    <Button ref={newDraftRef} leftSection={<IconPlus size={18} />} onClick={createDialog.open} data-testid="new-draft">
      {t("drafts.new")}
    </Button>
  );
  const openBulkAdd = (titles?: number) => {
    setTitlesOnOpen(titles);
    bulkDialog.open();
  };
  const bulkAddButton = (
    <Button ref={bulkAddRef} variant="default" leftSection={<IconListPlus size={18} />} onClick={() => openBulkAdd()} data-testid="bulk-add">
      {t("drafts.bulkAdd")}
    </Button>
  );

  return (
    <>
      <PageHeader
        eyebrow={<BackLink to={projectPath(project.id)} label={project.name} />}
        title={t("section.drafts")}
        description={t("drafts.description")}
        // With no drafts yet the empty state carries these two buttons instead.
        actions={
          writes && drafts.length > 0 ? (
            <>
              {bulkAddButton}
              {newDraftButton}
            </>
          ) : undefined
        }
      />

      <QueueHealth projectId={projectId} timeZone={project.timezone} variant="page" onAddTitles={writes ? openBulkAdd : undefined} />
      {generation.job && <GenerationBanner job={generation.job} />}

      {isLoading ? (
        <DraftsSkeleton className={classes.listCard} />
      ) : error ? (
        <LoadError message={t("drafts.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />
      ) : drafts.length === 0 ? (
        <Card padding="xl" style={{ borderStyle: "dashed" }} data-testid="drafts-empty">
          <EmptyState
            py="xl"
            variant="light"
            icon={<IconFileText size={26} />}
            title={t("drafts.emptyTitle")}
            description={t("drafts.emptyText")}
          >
            {writes && (
              <EmptyState.Actions>
                {bulkAddButton}
                {newDraftButton}
              </EmptyState.Actions>
            )}
          </EmptyState>
        </Card>
      ) : (
        <Card padding={0} className={classes.listCard}>
          {writes && <DraftsToolbar
            selectAllRef={selectAllRef}
            total={drafts.length}
            selectedCount={selected.size}
            allSelected={allSelected}
            onToggleAll={toggleAll}
            onGenerate={handleGenerate}
            generation={generation}
            onDelete={() => deletion.batch.ask(selected.size)}
          />}
          <DraftList
            readOnly={!writes}
            drafts={drafts}
            selected={selected}
            onToggle={toggle}
            onEdit={openEditor}
            onDelete={deletion.one.ask}
            onMove={(draft, afterId, ordered) => void handleMove(draft, afterId, ordered)}
          />
        </Card>
      )}

      <DraftDialog projectId={projectId} opened={writes && createOpened} onClose={createDialog.close} />
      <DraftDialog projectId={projectId} draft={shown} opened={writes && editOpened} onClose={closeEditor} />
      <BulkAddDialog projectId={projectId} opened={bulkOpened} generateOnOpen={titlesOnOpen} onClose={bulkDialog.close} />
      <ConfirmDialog
        // a role taken away meanwhile closes what it can no longer do
        opened={writes && deletion.one.draft !== null}
        title={t("drafts.deleteTitle")}
        message={t("drafts.deleteText", { title: deletion.one.title })}
        confirmLabel={t("common.delete")}
        busy={deletion.deleting}
        onConfirm={() => void deletion.one.confirm()}
        onClose={deletion.one.cancel}
      />
      <ConfirmDialog
        opened={writes && deletion.batch.opened}
        title={t("drafts.batchDeleteTitle")}
        message={t("drafts.batchDeleteText", { count: deletion.batch.count })}
        confirmLabel={t("drafts.deleteSelected")}
        busy={deletion.deleting}
        onConfirm={() => void deletion.batch.confirm([...selected])}
        onClose={deletion.batch.cancel}
      />
      <ConfirmDialog
        opened={toGenerate !== null}
        title={t("drafts.generateOverwriteTitle")}
        message={t("drafts.generateOverwriteText", {
          count: lastToGenerate.current?.withContent ?? 0,
          total: lastToGenerate.current?.ids.length ?? 0,
        })}
        confirmLabel={t("drafts.generateOverwriteConfirm")}
        busy={generation.starting}
        onConfirm={() => void (toGenerate && startGeneration(toGenerate.ids))}
        onClose={() => setToGenerate(null)}
      />
    </>
  );
}
