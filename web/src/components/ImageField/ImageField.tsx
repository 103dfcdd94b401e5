import { Button, Input, Loader, Text } from "@mantine/core";
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { uploadImage } from "../../api/uploads.ts";
import { useT } from "../../i18n/i18n.tsx";
import { checkImageFile } from "../../lib/imageFile.ts";
import { failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconPhoto, IconTrash, IconUpload } from "../Icons/Icons.tsx";
import classes from "./ImageField.module.css";

type ImageFieldProps = {
  projectId: number;
  /** The stored image's URL, or null for none. */
  value: string | null;
  onChange: (imageUrl: string | null) => void;
  /** Saving waits while an upload runs. */
  onUploadingChange?: (uploading: boolean) => void;
  disabled?: boolean;
};

/**
 * A draft's image (spec §2/§5/§8): picked or dropped, checked here first, uploaded at once
 * and previewed; a failed upload clears the preview.
 */
export function ImageField({ projectId, value, onChange, onUploadingChange, disabled = false }: ImageFieldProps) {
  const t = useT();
  const labelId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [localPreview, setLocalPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);

  // An upload still running when the dialog closes is abandoned; local previews are freed.
  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    if (!localPreview) return;
    return () => URL.revokeObjectURL(localPreview);
  }, [localPreview]);

  const setBusy = (busy: boolean) => {
    setUploading(busy);
    onUploadingChange?.(busy);
  };

  const handleFile = async (file: File | undefined) => {
    if (!file || uploading) return;
    const problem = await checkImageFile(file);
    if (problem) {
      toastError(t("drafts.imageUploadFailed"), t(problem));
      return;
    }
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setLocalPreview(URL.createObjectURL(file));
    setBusy(true);
    try {
      const { imageUrl } = await uploadImage(projectId, file, controller.signal);
      onChange(imageUrl);
      toastSuccess(t("drafts.imageUploadSuccess"));
    } catch (error) {
      if (controller.signal.aborted) return;
      setLocalPreview(null);
      toastError(t("drafts.imageUploadFailed"), failureText(t, error, "common.tryAgainLater"));
    } finally {
      if (!controller.signal.aborted) setBusy(false);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) void handleFile(event.dataTransfer.files[0]);
  };

  const remove = () => {
    setLocalPreview(null);
    onChange(null);
  };

  // While uploading the local file shows; once stored, the saved image.
  const shown = uploading ? localPreview : value;

  return (
    <Input.Wrapper labelElement="div" label={t("drafts.image")} id={labelId}>
      <input
        ref={inputRef}
        type="file"
        accept="image/*"
        hidden
        onChange={(event) => {
          void handleFile(event.currentTarget.files?.[0]);
          event.currentTarget.value = "";
        }}
        data-testid="image-input"
      />
      {shown ? (
        <div className={classes.preview} data-testid="image-preview">
          <img src={shown} alt={t("drafts.imagePreview")} className={classes.image} data-uploading={uploading || undefined} />
          {uploading ? (
            <div className={classes.uploading} role="status">
              <Loader size="xs" />
              {t("drafts.imageUploading")}
            </div>
          ) : (
            <div className={classes.actions}>
              <Button
                size="compact-sm"
                variant="white"
                color="dark"
                leftSection={<IconUpload size={14} />}
                onClick={() => inputRef.current?.click()}
                disabled={disabled}
              >
                {t("drafts.imageReplace")}
              </Button>
              <Button
                size="compact-sm"
                variant="white"
                color="red"
                leftSection={<IconTrash size={14} />}
                onClick={remove}
                disabled={disabled}
                data-testid="image-remove"
              >
                {t("drafts.imageRemove")}
              </Button>
            </div>
          )}
        </div>
      ) : (
        <button
          type="button"
          className={classes.drop}
          onClick={() => inputRef.current?.click()}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
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
              {t("drafts.imageHint")}
            </Text>
          </span>
        </button>
      )}
    </Input.Wrapper>
  );
}
