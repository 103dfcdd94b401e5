import { Text } from "@mantine/core";
import { type ReactNode, useId, useRef, useState } from "react";
import classes from "./ImageDropzone.module.css";

type ImageDropzoneProps = {
  /** Called with the picked or dropped file; the caller checks it. */
  onFile: (file: File | undefined) => void;
  title: string;
  hint: string;
  icon: ReactNode;
  disabled?: boolean;
  /** The id of the hidden file input, for a label elsewhere. */
  inputId?: string;
  inputTestId?: string;
};

/** A dashed area that picks an image on click or takes one dropped on it (images only). */
export function ImageDropzone(
  { onFile, title, hint, icon, disabled = false, inputId, inputTestId }: ImageDropzoneProps,
) {
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  return (
    <>
      <input
        ref={input}
        id={inputId}
        className={classes.input}
        type="file"
        accept="image/*"
        tabIndex={-1}
        disabled={disabled}
        onChange={(event) => {
          onFile(event.currentTarget.files?.[0]);
          event.currentTarget.value = ""; // the same file can be picked again after removing it
        }}
        data-testid={inputTestId}
      />
      <button
        type="button"
        className={classes.zone}
        onClick={() => input.current?.click()}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (!disabled) onFile(event.dataTransfer.files[0]);
        }}
        data-dragging={dragging || undefined}
        disabled={disabled}
        aria-describedby={hintId}
      >
        <span className={classes.icon}>{icon}</span>
        <span>
          <Text span size="sm" fw={500} display="block">
            {title}
          </Text>
          <Text span size="xs" c="dimmed" display="block" id={hintId}>
            {hint}
          </Text>
        </span>
      </button>
    </>
  );
}
