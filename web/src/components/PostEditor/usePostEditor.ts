import { useEditor, type Editor, type EditorOptions } from "@tiptap/react";
import { useEffect, useRef, useState, type MutableRefObject } from "react";
import { fromDocument, sameFormattedText, toDocument, type FormattedText } from "../../lib/postDocument.ts";
import { postExtensions } from "./extensions.ts";

/**
 * The editor of a controlled post text: `value` is the post's text and entities; the
 * document is reset only when `value` differs from what the editor last reported, so typing
 * never moves the cursor. Answers the editor and the ref its Ctrl+K calls.
 */
export function usePostEditor({ value, onChange, placeholder, autoFocus, disabled, editorProps }: {
  value: FormattedText;
  onChange: (value: FormattedText) => void;
  placeholder?: string;
  autoFocus: boolean;
  disabled: boolean;
  editorProps: EditorOptions["editorProps"];
}): { editor: Editor; openLinkRef: MutableRefObject<() => void> } {
  // What the editor shows, as last reported to onChange or taken from `value`.
  const shown = useRef(value);
  const placeholderRef = useRef(placeholder ?? "");
  const openLinkRef = useRef(() => {});
  const [extensions] = useState(() =>
    postExtensions({ placeholder: () => placeholderRef.current, onLinkShortcut: () => openLinkRef.current() })
  );
  const [content] = useState(() => toDocument(value.text, value.entities));

  const editor = useEditor({
    extensions,
    content,
    // Focused once made, unless the person is already typing in another field: on a slow
    // device the editor can be made after they moved on, and their typing would land here.
    onCreate: ({ editor }) => {
      if (!autoFocus) return;
      const active = document.activeElement;
      if (active instanceof HTMLElement && active.matches("input, textarea, select, [contenteditable='true']")) return;
      editor.commands.focus("end");
    },
    editable: !disabled,
    editorProps,
    shouldRerenderOnTransaction: false,
    onUpdate: ({ editor }) => {
      const next = fromDocument(editor.getJSON());
      if (sameFormattedText(next, shown.current)) return;
      shown.current = next;
      onChange(next);
    },
  });

  useEffect(() => {
    placeholderRef.current = placeholder ?? "";
  }, [placeholder]);

  // A value from outside (a generated post, a reset form) replaces the document.
  useEffect(() => {
    if (value === shown.current || sameFormattedText(value, shown.current)) return;
    shown.current = value;
    editor.commands.setContent(toDocument(value.text, value.entities), { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor.setEditable(!disabled, false);
  }, [editor, disabled]);

  return { editor, openLinkRef };
}
