import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
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
import { memo, type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import type { DraftSummary } from "../../../../contract/drafts.ts";
import { DRAFT_PREVIEW_LENGTH } from "../../lib/ui.ts";
import { useT } from "../../i18n/i18n.tsx";
import { IconGripVertical, IconPencil, IconTrash } from "../Icons/Icons.tsx";
import classes from "./DraftList.module.css";
import { DraftUseBadge } from "./DraftUseBadge.tsx";
import { useWindowRows } from "./useWindowRows.ts";

/** Spec §2/§9: the first 100 characters (whole emoji, not halves), then an ellipsis. */
export function draftPreview(content: string): string {
  const characters = Array.from(content.trim());
  return characters.length > DRAFT_PREVIEW_LENGTH
    ? `${characters.slice(0, DRAFT_PREVIEW_LENGTH).join("").trimEnd()}…`
    : characters.join("");
}

/** The drag handle of a draft's row, when the row is rendered: the first control of the row. */
export function draftRowHandle(draftId: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-draft-id="${draftId}"] .${classes.handle}`);
}

// Rows only move up and down.
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/** Rows rendered beyond each edge of the screen, in px (about ten rows). */
const OVERSCAN_PX = 700;

type DraftListProps = {
  /** A viewer's list: the drafts in their order, without the handle, the checkbox or the buttons. */
  readOnly?: boolean;
  drafts: DraftSummary[];
  selected: ReadonlySet<number>;
  onToggle: (draftId: number, checked: boolean) => void;
  onEdit: (draft: DraftSummary) => void;
  onDelete: (draft: DraftSummary) => void;
  /** Right after a drop: the draft, the draft it now follows (null: first) and the whole list in its new order. */
  onMove: (draft: DraftSummary, afterId: number | null, ordered: DraftSummary[]) => void;
};

/**
 * The drafts in publishing order. Rows are dragged by their handle, with the mouse, a
 * finger, or the keyboard (Space to lift, arrows to move, Space to drop, Escape to cancel).
 * The list is virtualized against the page's scroll (useWindowRows): with thousands of
 * drafts only the rows on screen and some around them are in the DOM, plus the row being
 * dragged, whose node dnd-kit keeps using while the page scrolls away from it.
 */
export function DraftList({ readOnly = false, drafts, selected, onToggle, onEdit, onDelete, onMove }: DraftListProps) {
  const t = useT();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = useMemo(() => drafts.map((draft) => draft.id), [drafts]);
  const listRef = useRef<HTMLUListElement>(null);
  const [activeId, setActiveId] = useState<number | null>(null);
  const { indexes, offsetOf, rowRef } = useWindowRows(ids, listRef, {
    overscanPx: OVERSCAN_PX,
    pinned: activeId === null ? -1 : ids.indexOf(activeId),
  });

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

  const handleDragStart = ({ active }: DragStartEvent) => setActiveId(active.id as number);
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    setActiveId(null);
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(active.id as number);
    const to = ids.indexOf(over.id as number);
    if (from < 0 || to < 0) return;
    const ordered = arrayMove(drafts, from, to);
    onMove(drafts[from], to === 0 ? null : ordered[to - 1].id, ordered);
  };

  // The rendered rows, with a spacer standing for each run of rows left out.
  const items: ReactNode[] = [];
  let next = 0;
  const spacer = (from: number, to: number) => (
    <li
      // stable keys, so scrolling resizes the spacers instead of replacing them
      key={from === 0 ? "spacer-start" : to === drafts.length ? "spacer-end" : "spacer-middle"}
      className={classes.spacer}
      style={{ height: offsetOf(to) - offsetOf(from) }}
      role="presentation"
      aria-hidden="true"
      data-testid="draft-list-spacer"
    />
  );
  for (const index of indexes) {
    if (index > next) items.push(spacer(next, index));
    const draft = drafts[index];
    items.push(
      <DraftRow
        key={draft.id}
        draft={draft}
        position={index + 1}
        total={drafts.length}
        measureRef={rowRef(draft.id)}
        selected={selected.has(draft.id)}
        readOnly={readOnly}
        onToggle={onToggle}
        onEdit={onEdit}
        onDelete={onDelete}
      />,
    );
    next = index + 1;
  }
  if (next < drafts.length) items.push(spacer(next, drafts.length));

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      onDragStart={handleDragStart}
      onDragEnd={handleDragEnd}
      onDragCancel={() => setActiveId(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("drafts.dnd.instructions") } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul ref={listRef} className={classes.list} aria-label={t("section.drafts")} data-testid="draft-list">
          {items}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

type DraftRowProps = Pick<DraftListProps, "onToggle" | "onEdit" | "onDelete"> & {
  readOnly: boolean;
  draft: DraftSummary;
  selected: boolean;
  /** 1-based place in the whole list, and its length (rows left out of the DOM still count). */
  position: number;
  total: number;
  measureRef: (node: HTMLElement | null) => void;
};

function DraftRow({ draft, selected, readOnly, position, total, measureRef, onToggle, onEdit, onDelete }: DraftRowProps) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: draft.id,
  });
  const ref = useCallback(
    (node: HTMLLIElement | null) => {
      setNodeRef(node);
      measureRef(node);
    },
    [setNodeRef, measureRef],
  );

  return (
    <li
      ref={ref}
      aria-posinset={position}
      aria-setsize={total}
      className={classes.row}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-dragging={isDragging || undefined}
      data-selected={selected || undefined}
      data-testid="draft-row"
      data-draft-id={draft.id}
    >
      {!readOnly && <button
        type="button"
        ref={setActivatorNodeRef}
        className={classes.handle}
        {...attributes}
        {...listeners}
        aria-label={t("drafts.dragHandle", { title: draft.title })}
        data-testid="drag-handle"
      >
        <IconGripVertical size={18} />
      </button>}
      <DraftRowContent draft={draft} selected={selected} readOnly={readOnly} onToggle={onToggle} onEdit={onEdit} onDelete={onDelete} />
    </li>
  );
}

/**
 * What a row shows besides its handle. Memoized: the list re-renders every row's sortable
 * wrapper whenever rows scroll in or out (dnd-kit's context changes), and Mantine's checkbox
 * and tooltips were most of that time (profiled while scrolling 5,000 drafts).
 */
const DraftRowContent = memo(function DraftRowContent({
  draft,
  selected,
  readOnly,
  onToggle,
  onEdit,
  onDelete,
}: Pick<DraftRowProps, "draft" | "selected" | "readOnly" | "onToggle" | "onEdit" | "onDelete">) {
  const t = useT();
  const preview = draftPreview(draft.excerpt);
  return (
    <>
      {!readOnly && <Checkbox
        className={classes.checkbox}
        checked={selected}
        onChange={(event) => onToggle(draft.id, event.currentTarget.checked)}
        aria-label={t("drafts.select", { title: draft.title })}
        data-testid="draft-checkbox"
      />}
      {/* A click on the text opens the editor too; keyboard users have the edit button. */}
      <div className={classes.body} onClick={readOnly ? undefined : () => onEdit(draft)} data-read-only={readOnly || undefined}>
        <div className={classes.title} title={draft.title} data-testid="draft-row-title">
          {draft.title}
        </div>
        <div className={classes.preview} data-empty={preview === "" || undefined} data-testid="draft-preview">
          {preview || t("drafts.noContent")}
        </div>
        <DraftUseBadge projectId={draft.projectId} holder={draft} />
      </div>
      {draft.imageUrl && <img src={draft.imageUrl} alt="" className={classes.thumb} loading="lazy" />}
      {!readOnly && <div className={classes.actions}>
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
      </div>}
    </>
  );
});
