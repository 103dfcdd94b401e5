import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
  type Announcements,
} from "@dnd-kit/core";
import { arrayMove, rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ActionIcon, Input, Loader, Text } from "@mantine/core";
import { type DragEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { POST_IMAGES_MAX } from "../../../../contract/post_options.ts";
import { uploadImage } from "../../api/uploads.ts";
import { useT } from "../../i18n/i18n.tsx";
import { checkImageFile } from "../../lib/imageFile.ts";
import { failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconGripVertical, IconPhoto, IconPlus, IconTrash } from "../Icons/Icons.tsx";
import classes from "./ImageField.module.css";

type ImageFieldProps = {
  projectId: number;
  /** The album's stored image URLs, first (the cover) first; empty for none. */
  value: string[];
  onChange: (imageUrls: string[]) => void;
  /** Saving waits while an upload runs. */
  onUploadingChange?: (uploading: boolean) => void;
  error?: string;
  disabled?: boolean;
};

type Pending = { key: number; preview: string };

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes("Files");

/**
 * A draft's images (docs/post-format.md, Albums): up to 10, picked or dropped (several at
 * once), checked here first and uploaded one at a time; shown as thumbnails in order, the
 * first being the cover. Thumbnails are reordered by dragging their handle, with the mouse,
 * a finger or the keyboard (Space to lift, arrows to move, Space to drop, Escape to cancel).
 */
export function ImageField({ projectId, value, onChange, onUploadingChange, error, disabled = false }: ImageFieldProps) {
  const t = useT();
  const labelId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const valueRef = useRef(value);
  valueRef.current = value;
  const previews = useRef(new Set<string>());
  const nextKey = useRef(0);
  const [pending, setPending] = useState<Pending[]>([]);
  const [dragging, setDragging] = useState(false);
  const uploading = pending.length > 0;

  // An upload still running when the dialog closes is abandoned; local previews are freed.
  useEffect(() => () => {
    abortRef.current?.abort();
    for (const url of previews.current) URL.revokeObjectURL(url);
  }, []);

  const dropPending = (key: number) =>
    setPending((current) =>
      current.filter((item) => {
        if (item.key !== key) return true;
        URL.revokeObjectURL(item.preview);
        previews.current.delete(item.preview);
        return false;
      })
    );

  const handleFiles = async (picked: File[]) => {
    if (picked.length === 0 || uploading || disabled) return;
    const room = POST_IMAGES_MAX - valueRef.current.length;
    if (picked.length > room) toastError(t("drafts.imageUploadFailed"), t("drafts.tooManyImages", { max: POST_IMAGES_MAX }));
    const files: File[] = [];
    for (const file of picked.slice(0, Math.max(0, room))) {
      const problem = await checkImageFile(file);
      if (problem) toastError(t("drafts.imageUploadFailed"), t(problem));
      else files.push(file);
    }
    if (files.length === 0) return;
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    const queue = files.map((file) => {
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      return { file, key: nextKey.current++, preview };
    });
    setPending(queue.map(({ key, preview }) => ({ key, preview })));
    onUploadingChange?.(true);
    let uploaded = 0;
    try {
      for (const { file, key } of queue) {
        try {
          const { imageUrl } = await uploadImage(projectId, file, controller.signal);
          const next = [...valueRef.current, imageUrl];
          valueRef.current = next;
          onChange(next);
          uploaded += 1;
        } catch (error) {
          if (controller.signal.aborted) return;
          toastError(t("drafts.imageUploadFailed"), failureText(t, error, "common.tryAgainLater"));
        }
        dropPending(key);
      }
      if (uploaded === 1) toastSuccess(t("drafts.imageUploadSuccess"));
      else if (uploaded > 1) toastSuccess(t("drafts.imagesUploaded", { count: uploaded }));
    } finally {
      if (!controller.signal.aborted) onUploadingChange?.(false);
    }
  };

  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    void handleFiles(Array.from(event.dataTransfer.files));
  };
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(true);
  };

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const announcements = useMemo<Announcements>(() => {
    const total = value.length;
    const positionOf = (id: UniqueIdentifier) => value.indexOf(String(id)) + 1;
    return {
      onDragStart: ({ active }) => t("drafts.albumDnd.pickedUp", { position: positionOf(active.id), total }),
      onDragOver: ({ over }) => (over ? t("drafts.albumDnd.movedTo", { position: positionOf(over.id), total }) : undefined),
      onDragEnd: ({ over }) => (over ? t("drafts.albumDnd.dropped", { position: positionOf(over.id), total }) : undefined),
      onDragCancel: () => t("drafts.albumDnd.cancelled"),
    };
  }, [value, t]);
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = value.indexOf(String(active.id));
    const to = value.indexOf(String(over.id));
    if (from < 0 || to < 0) return;
    onChange(arrayMove(value, from, to));
  };

  const pick = () => inputRef.current?.click();
  const empty = value.length === 0 && pending.length === 0;

  return (
    <Input.Wrapper labelElement="div" label={t("drafts.image")} id={labelId} error={error}>
      <input
        ref={inputRef}
        type="file"
        accept="image/*"
        multiple
        hidden
        onChange={(event) => {
          void handleFiles(Array.from(event.currentTarget.files ?? []));
          event.currentTarget.value = ""; // the same file can be picked again after removing it
        }}
        data-testid="image-input"
      />
      {empty ? (
        <button
          type="button"
          className={classes.drop}
          onClick={pick}
          onDragOver={onDragOver}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-dragging={dragging || undefined}
          disabled={disabled}
          aria-describedby={`${labelId}-hint`}
          data-testid="image-pick"
        >
          <span className={classes.dropIcon}>
            <IconPhoto size={20} />
          </span>
          <span>
            <Text size="sm" fw={500} component="span" display="block">
              {t("drafts.imagePick")}
            </Text>
            <Text size="xs" c="dimmed" component="span" display="block" id={`${labelId}-hint`}>
              {t("drafts.imageHint", { max: POST_IMAGES_MAX })}
            </Text>
          </span>
        </button>
      ) : (
        <>
          <div
            className={classes.album}
            onDragOver={onDragOver}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-dragging={dragging || undefined}
            data-testid="image-preview"
          >
            <DndContext
              sensors={sensors}
              collisionDetection={closestCenter}
              onDragEnd={handleDragEnd}
              accessibility={{ announcements, screenReaderInstructions: { draggable: t("drafts.albumDnd.instructions") } }}
            >
              <SortableContext items={value} strategy={rectSortingStrategy}>
                {value.map((url, index) => (
                  <Thumb
                    key={url}
                    url={url}
                    position={index + 1}
                    total={value.length}
                    disabled={disabled || uploading}
                    onRemove={() => onChange(value.filter((_, i) => i !== index))}
                  />
                ))}
              </SortableContext>
            </DndContext>
            {pending.map((item) => (
              <div key={item.key} className={classes.thumb} data-testid="image-pending">
                <img src={item.preview} alt={t("drafts.imagePreview")} className={classes.thumbImage} data-uploading />
                <div className={classes.uploading} role="status">
                  <Loader size="xs" />
                  <span className={classes.uploadingText}>{t("drafts.imageUploading")}</span>
                </div>
              </div>
            ))}
            {value.length + pending.length < POST_IMAGES_MAX && (
              <button
                type="button"
                className={classes.add}
                onClick={pick}
                disabled={disabled || uploading}
                data-testid="image-add"
              >
                <IconPlus size={18} />
                <span>{t("drafts.imageAdd")}</span>
              </button>
            )}
          </div>
          <Text size="xs" c="dimmed" mt={6}>
            {t("drafts.albumHint", { max: POST_IMAGES_MAX })}
          </Text>
        </>
      )}
    </Input.Wrapper>
  );
}

type ThumbProps = { url: string; position: number; total: number; disabled: boolean; onRemove: () => void };

function Thumb({ url, position, total, disabled, onRemove }: ThumbProps) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: url,
    disabled,
  });
  return (
    <div
      ref={setNodeRef}
      className={classes.thumb}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-dragging={isDragging || undefined}
      data-testid="image-thumb"
    >
      <img src={url} alt={t("drafts.imagePreview")} className={classes.thumbImage} draggable={false} />
      <button
        type="button"
        ref={setActivatorNodeRef}
        className={classes.handle}
        {...attributes}
        {...listeners}
        onKeyDown={(event: KeyboardEvent) => {
          // Escape cancels the drag, not the dialog around it.
          if (event.key === "Escape" && isDragging) event.stopPropagation();
          listeners?.onKeyDown?.(event);
        }}
        aria-label={t("drafts.albumImage", { position, total })}
        data-testid="image-handle"
      >
        <span className={classes.grip} aria-hidden="true">
          <IconGripVertical size={14} />
        </span>
      </button>
      {position === 1 && <span className={classes.cover}>{t("drafts.albumCover")}</span>}
      <ActionIcon
        className={classes.remove}
        size="sm"
        variant="white"
        color="red"
        onClick={onRemove}
        disabled={disabled}
        aria-label={t("drafts.albumRemove", { position })}
        data-testid="image-remove"
      >
        <IconTrash size={14} />
      </ActionIcon>
    </div>
  );
}
