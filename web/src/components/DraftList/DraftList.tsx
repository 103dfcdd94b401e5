import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type Modifier,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ActionIcon, Checkbox, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Checkbox.layer.css";
import "@mantine/core/styles/CheckboxIndicator.layer.css";
import "@mantine/core/styles/InlineInput.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import { useMemo } from "react";
import type { Draft } from "../../../../api/contract/drafts.ts";
import { DRAFT_PREVIEW_LENGTH } from "../../../../api/contract/limits.ts";
import { useT } from "../../i18n/i18n.tsx";
import { IconGripVertical, IconPencil, IconTrash } from "../Icons/Icons.tsx";
import classes from "./DraftList.module.css";

/** Spec §2/§9: the first 100 characters (whole emoji, not halves), then an ellipsis. */
export function draftPreview(content: string): string {
  const characters = Array.from(content.trim());
  return characters.length > DRAFT_PREVIEW_LENGTH
    ? `${characters.slice(0, DRAFT_PREVIEW_LENGTH).join("").trimEnd()}…`
    : characters.join("");
}

// Rows only move up and down.
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

type DraftListProps = {
  drafts: Draft[];
  selected: ReadonlySet<number>;
  onToggle: (draftId: number, checked: boolean) => void;
  onEdit: (draft: Draft) => void;
  onDelete: (draft: Draft) => void;
  /** The whole list in its new order, right after a drop. */
  onReorder: (ordered: Draft[]) => void;
};

/**
 * The drafts in publishing order. Rows are dragged by their handle, with the mouse, a
 * finger, or the keyboard (Space to lift, arrows to move, Space to drop, Escape to cancel).
 */
export function DraftList({ drafts, selected, onToggle, onEdit, onDelete, onReorder }: DraftListProps) {
  const t = useT();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = useMemo(() => drafts.map((draft) => draft.id), [drafts]);

  const announcements = useMemo<Announcements>(() => {
    const titleOf = (id: UniqueIdentifier) => drafts.find((draft) => draft.id === id)?.title ?? "";
    const positionOf = (id: UniqueIdentifier) => ids.indexOf(id as number) + 1;
    const total = drafts.length;
    return {
      onDragStart: ({ active }) =>
        t("drafts.dnd.pickedUp", { title: titleOf(active.id), position: positionOf(active.id), total }),
      onDragOver: ({ active, over }) =>
        over ? t("drafts.dnd.movedTo", { title: titleOf(active.id), position: positionOf(over.id), total }) : undefined,
      onDragEnd: ({ active, over }) =>
        over ? t("drafts.dnd.dropped", { title: titleOf(active.id), position: positionOf(over.id), total }) : undefined,
      onDragCancel: ({ active }) => t("drafts.dnd.cancelled", { title: titleOf(active.id) }),
    };
  }, [drafts, ids, t]);

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(active.id as number);
    const to = ids.indexOf(over.id as number);
    if (from < 0 || to < 0) return;
    onReorder(arrayMove(drafts, from, to));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      onDragEnd={handleDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("drafts.dnd.instructions") } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul className={classes.list} aria-label={t("section.drafts")} data-testid="draft-list">
          {drafts.map((draft) => (
            <DraftRow
              key={draft.id}
              draft={draft}
              selected={selected.has(draft.id)}
              onToggle={onToggle}
              onEdit={onEdit}
              onDelete={onDelete}
            />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

type DraftRowProps = Pick<DraftListProps, "onToggle" | "onEdit" | "onDelete"> & { draft: Draft; selected: boolean };

function DraftRow({ draft, selected, onToggle, onEdit, onDelete }: DraftRowProps) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: draft.id,
  });
  const preview = draftPreview(draft.content);

  return (
    <li
      ref={setNodeRef}
      className={classes.row}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-dragging={isDragging || undefined}
      data-selected={selected || undefined}
      data-testid="draft-row"
      data-draft-id={draft.id}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className={classes.handle}
        {...attributes}
        {...listeners}
        aria-label={t("drafts.dragHandle", { title: draft.title })}
        data-testid="drag-handle"
      >
        <IconGripVertical size={18} />
      </button>
      <Checkbox
        className={classes.checkbox}
        checked={selected}
        onChange={(event) => onToggle(draft.id, event.currentTarget.checked)}
        aria-label={t("drafts.select", { title: draft.title })}
        data-testid="draft-checkbox"
      />
      {/* A click on the text opens the editor too; keyboard users have the edit button. */}
      <div className={classes.body} onClick={() => onEdit(draft)}>
        <div className={classes.title} title={draft.title} data-testid="draft-row-title">
          {draft.title}
        </div>
        <div className={classes.preview} data-empty={preview === "" || undefined} data-testid="draft-preview">
          {preview || t("drafts.noContent")}
        </div>
      </div>
      {draft.imageUrl && <img src={draft.imageUrl} alt="" className={classes.thumb} loading="lazy" />}
      <div className={classes.actions}>
        <Tooltip label={t("common.edit")}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t("drafts.editLabel", { title: draft.title })}
            onClick={() => onEdit(draft)}
            data-testid="edit-draft"
          >
            <IconPencil size={17} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t("common.delete")}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t("drafts.deleteLabel", { title: draft.title })}
            onClick={() => onDelete(draft)}
            data-testid="delete-draft"
          >
            <IconTrash size={17} />
          </ActionIcon>
        </Tooltip>
      </div>
    </li>
  );
}
