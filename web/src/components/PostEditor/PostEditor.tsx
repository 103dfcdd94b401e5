import { Input, Toolbar } from "@mantine/core";
import "@mantine/core/styles/Toolbar.layer.css";
import { EditorContent, useEditorState } from "@tiptap/react";
import { useId, useMemo, type ReactNode } from "react";
import { ENTITIES_MAX } from "../../../../contract/entities.ts";
import { useT } from "../../i18n/i18n.tsx";
import type { FormattedText } from "../../lib/postDocument.ts";
import { FormatTools, toolState } from "./FormatTools.tsx";
import { LengthCounter } from "./LengthCounter.tsx";
import { LinkTool } from "./LinkTool.tsx";
import classes from "./PostEditor.module.css";
import { usePostEditor } from "./usePostEditor.ts";

export type PostEditorProps = {
  /** The post's text as Telegram takes it: plain text and its entities (UTF-16 ranges). */
  value: FormattedText;
  onChange: (value: FormattedText) => void;
  /** Telegram's limit for this text: POST_CONTENT_MAX, or PHOTO_CAPTION_MAX for an image's caption. */
  limit: number;
  label: string;
  placeholder?: string;
  autoFocus?: boolean;
  error?: ReactNode;
  disabled?: boolean;
  /** The editable text's data-testid (default "post-editor-input"). */
  testId?: string;
};

/**
 * The rich-text editor of a post (issue 16 §2): Telegram's formatting only, with a toolbar,
 * the usual shortcuts (extensions.ts), a link dialog (Ctrl+K, LinkTool.tsx) and a counter in
 * Telegram's units. Controlled (usePostEditor.ts). Loaded lazily through LazyPostEditor.tsx.
 */
export function PostEditor(
  { value, onChange, limit, label, placeholder, autoFocus = false, error, disabled = false, testId = "post-editor-input" }: PostEditorProps,
) {
  const t = useT();
  const labelId = useId();
  const contentId = useId();
  const counterId = useId();
  const errorId = useId();
  const tooManyId = useId();
  const tooMany = value.entities.length > ENTITIES_MAX;
  const invalid = Boolean(error) || tooMany || value.text.length > limit;
  const describedBy = [error ? errorId : null, tooMany ? tooManyId : null, counterId].filter(Boolean).join(" ");
  const editorProps = useMemo(
    () => ({
      attributes: {
        id: contentId,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        "aria-describedby": describedBy,
        "aria-invalid": String(invalid),
        ...(placeholder ? { "aria-placeholder": placeholder } : {}),
        ...(disabled ? { "aria-disabled": "true" } : {}),
        "data-testid": testId,
      },
    }),
    [contentId, labelId, describedBy, invalid, placeholder, disabled, testId],
  );

  const { editor, openLinkRef } = usePostEditor({ value, onChange, placeholder, autoFocus, disabled, editorProps });
  const state = useEditorState({ editor, selector: ({ editor }) => toolState(editor) });

  return (
    <div className={classes.root}>
      <Input.Label id={labelId} labelElement="div" onClick={() => editor.commands.focus()}>
        {label}
      </Input.Label>
      <div className={classes.frame} data-invalid={invalid || undefined} data-disabled={disabled || undefined}>
        <Toolbar
          className={classes.toolbar}
          classNames={{ toggle: classes.toggle }}
          withBorder={false}
          aria-label={t("postEditor.toolbar")}
          aria-controls={contentId}
        >
          <FormatTools editor={editor} state={state} disabled={disabled} />
          <LinkTool editor={editor} state={state} disabled={disabled} openRef={openLinkRef} />
        </Toolbar>
        <EditorContent editor={editor} className={classes.content} />
      </div>
      <div className={classes.footer}>
        <div className={classes.messages}>
          {error && <Input.Error id={errorId}>{error}</Input.Error>}
          {tooMany && <Input.Error id={tooManyId}>{t("entities.tooMany", { max: ENTITIES_MAX })}</Input.Error>}
        </div>
        <LengthCounter id={counterId} length={value.text.length} limit={limit} />
      </div>
    </div>
  );
}

export default PostEditor;
