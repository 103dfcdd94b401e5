import { Button, Group, Input, Popover, TextInput, Toolbar, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Popover.layer.css";
import "@mantine/core/styles/Toolbar.layer.css";
import "@mantine/core/styles/Tooltip.layer.css";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { ENTITIES_MAX, isUnsafeLink } from "../../../../contract/entities.ts";
import { useT, type TranslationKey } from "../../i18n/i18n.tsx";
import { fromDocument, normalizeLink, sameFormattedText, toDocument, type FormattedText } from "../../lib/postDocument.ts";
import { IconLink } from "../Icons/Icons.tsx";
import { postExtensions } from "./extensions.ts";
import { LengthCounter } from "./LengthCounter.tsx";
import classes from "./PostEditor.module.css";

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

type ToolState = ReturnType<typeof toolState>;

function toolState(editor: Editor) {
  return {
    bold: editor.isActive("bold"),
    italic: editor.isActive("italic"),
    underline: editor.isActive("underline"),
    strike: editor.isActive("strike"),
    spoiler: editor.isActive("spoiler"),
    code: editor.isActive("code") || editor.isActive("codeBlock"),
    link: editor.isActive("link"),
    quote: editor.isActive("blockquote"),
    expandable: editor.isActive("blockquote", { expandable: true }),
    // Nothing formats the inside of a code block.
    canFormat: editor.can().toggleBold(),
    canQuote: editor.can().toggleBlockquote(),
  };
}

const IS_MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** "Ctrl+Shift+X" (⌘⇧X on a Mac) for people, "Control+Shift+X" for aria-keyshortcuts. */
function shortcut(keys: string): { shown: string; aria: string } {
  const parts = keys.split("+");
  if (IS_MAC) {
    const symbols: Record<string, string> = { Mod: "⌘", Shift: "⇧", Alt: "⌥" };
    return { shown: parts.map((part) => symbols[part] ?? part).join(""), aria: keys.replace("Mod", "Meta") };
  }
  return { shown: keys.replace("Mod", "Ctrl"), aria: keys.replace("Mod", "Control") };
}

type ToolName = "bold" | "italic" | "underline" | "strike" | "spoiler" | "code" | "quote" | "expandable";

const glyph = (name: string, letter: string) => (
  <span className={classes.glyph} data-glyph={name}>
    {letter}
  </span>
);
const lineIcon = (path: string) => (
  <svg viewBox="0 0 24 24" className={classes.icon} aria-hidden="true">
    <path d={path} />
  </svg>
);

const TOOLS: { name: ToolName; label: TranslationKey; keys?: string; icon: ReactNode }[] = [
  { name: "bold", label: "postEditor.bold", keys: "Mod+B", icon: glyph("bold", "B") },
  { name: "italic", label: "postEditor.italic", keys: "Mod+I", icon: glyph("italic", "I") },
  { name: "underline", label: "postEditor.underline", keys: "Mod+U", icon: glyph("underline", "U") },
  { name: "strike", label: "postEditor.strike", keys: "Mod+Shift+X", icon: glyph("strike", "S") },
  {
    name: "spoiler",
    label: "postEditor.spoiler",
    keys: "Mod+Shift+P",
    icon: lineIcon(
      "M3 3l18 18M10.6 10.6a2 2 0 0 0 2.8 2.8M9.9 5.2A9.5 9.5 0 0 1 12 5c5 0 8.5 4.5 9.5 7a13 13 0 0 1-2.7 3.8M6.6 6.6A13 13 0 0 0 2.5 12c1 2.5 4.5 7 9.5 7a9.5 9.5 0 0 0 5.4-1.6",
    ),
  },
  { name: "code", label: "postEditor.code", keys: "Mod+Shift+M", icon: lineIcon("M8.5 7 3.5 12l5 5M15.5 7l5 5-5 5") },
  {
    name: "quote",
    label: "postEditor.quote",
    keys: "Mod+Shift+B",
    icon: lineIcon("M10 7H6.5A1.5 1.5 0 0 0 5 8.5V12h4v2.5L7.5 17M19 7h-3.5A1.5 1.5 0 0 0 14 8.5V12h4v2.5L16.5 17"),
  },
  { name: "expandable", label: "postEditor.expandable", icon: lineIcon("M4.5 6h15M4.5 10h9M8.5 15l3.5 3.5 3.5-3.5") },
];

function runTool(editor: Editor, name: ToolName, state: ToolState) {
  const chain = editor.chain().focus();
  switch (name) {
    case "bold":
      return chain.toggleBold().run();
    case "italic":
      return chain.toggleItalic().run();
    case "underline":
      return chain.toggleUnderline().run();
    case "strike":
      return chain.toggleStrike().run();
    case "spoiler":
      return chain.toggleSpoiler().run();
    case "code":
      return editor.isActive("codeBlock") ? chain.toggleCodeBlock().run() : chain.toggleCode().run();
    case "quote":
      return chain.toggleBlockquote().run();
    case "expandable":
      return state.quote && chain.toggleExpandable().run();
  }
}

/** A toolbar press leaves the editor's focus and selection where they are. */
const keepSelection = (event: MouseEvent) => event.preventDefault();

function toolEnabled(name: ToolName, state: ToolState): boolean {
  if (name === "code") return state.canFormat || state.code;
  if (name === "quote") return state.canQuote || state.quote;
  if (name === "expandable") return state.quote;
  return state.canFormat;
}

/**
 * The rich-text editor of a post (issue 16 §2): Telegram's formatting only, with a toolbar,
 * the usual shortcuts (extensions.ts), a link dialog (Ctrl+K) and a counter in Telegram's
 * units. Controlled: `value` is the post's text and entities; the editor's document is reset
 * only when `value` differs from what the editor last reported, so typing never moves the
 * cursor. Loaded lazily through LazyPostEditor.tsx.
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
  // What the editor shows, as last reported to onChange or taken from `value`.
  const shown = useRef(value);
  const placeholderRef = useRef(placeholder ?? "");
  const openLinkRef = useRef(() => {});
  const [extensions] = useState(() =>
    postExtensions({ placeholder: () => placeholderRef.current, onLinkShortcut: () => openLinkRef.current() })
  );
  const [content] = useState(() => toDocument(value.text, value.entities));

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
  const state = useEditorState({ editor, selector: ({ editor }) => toolState(editor) });

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

  const [linkOpen, setLinkOpen] = useState(false);
  const [linkDraft, setLinkDraft] = useState("");
  const [linkError, setLinkError] = useState<string | null>(null);

  const openLink = () => {
    if (disabled || !editor.can().toggleBold()) return;
    setLinkDraft(editor.getAttributes("link").href ?? "");
    setLinkError(null);
    setLinkOpen(true);
  };
  useEffect(() => {
    openLinkRef.current = openLink;
  });

  const closeLink = () => {
    setLinkOpen(false);
    editor.commands.focus();
  };
  const applyLink = () => {
    const href = normalizeLink(linkDraft);
    if (!href) {
      // a Telegram action the API refuses says which rule it met, not "not a link"
      const typed = linkDraft.trim();
      setLinkError(t(isUnsafeLink(typed) || isUnsafeLink(`https://${typed}`) ? "posts.unsafeLink" : "entities.badLink"));
      return;
    }
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive("link")) {
      chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] }).run();
    } else {
      chain.extendMarkRange("link").setLink(href).run();
    }
    setLinkOpen(false);
  };
  const removeLink = () => {
    editor.chain().focus().extendMarkRange("link").unsetLink().run();
    setLinkOpen(false);
  };
  const handleLinkKey = (event: KeyboardEvent<HTMLInputElement>) => {
    // The dialog sits in a portal, but React bubbles its keys to the form around the editor.
    if (event.nativeEvent.isComposing) return;
    if (event.key === "Enter") {
      event.preventDefault();
      event.stopPropagation();
      applyLink();
    } else if (event.key === "Escape") {
      event.stopPropagation();
      closeLink();
    }
  };

  const linkKeys = shortcut("Mod+K");
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
          {TOOLS.map(({ name, label: toolLabel, keys, icon }) => {
            const keyHint = keys ? shortcut(keys) : null;
            const active = state[name];
            return (
              <Tooltip
                key={name}
                label={keyHint ? `${t(toolLabel)} · ${keyHint.shown}` : t(toolLabel)}
                events={{ hover: true, focus: true, touch: false }}
                openDelay={400}
              >
                <Toolbar.Toggle
                  active={active}
                  disabled={disabled || !toolEnabled(name, state)}
                  aria-label={t(toolLabel)}
                  aria-keyshortcuts={keyHint?.aria}
                  onMouseDown={keepSelection}
                  onClick={() => runTool(editor, name, state)}
                  data-testid={`post-editor-${name}`}
                >
                  {icon}
                </Toolbar.Toggle>
              </Tooltip>
            );
          })}
          <Popover
            opened={linkOpen}
            // A click outside or Escape; the cursor goes back to the text on Escape only (handleLinkKey).
            onChange={(opened) => opened || setLinkOpen(false)}
            trapFocus
            returnFocus={false}
            position="bottom-start"
            shadow="md"
            width={320}
          >
            <Popover.Target>
              <Tooltip
                label={`${t("postEditor.link")} · ${linkKeys.shown}`}
                events={{ hover: true, focus: true, touch: false }}
                openDelay={400}
              >
                <Toolbar.Toggle
                  active={state.link}
                  disabled={disabled || !state.canFormat}
                  aria-label={t("postEditor.link")}
                  aria-keyshortcuts={linkKeys.aria}
                  onMouseDown={keepSelection}
                  onClick={() => (linkOpen ? closeLink() : openLink())}
                  data-testid="post-editor-link"
                >
                  <IconLink size={18} />
                </Toolbar.Toggle>
              </Tooltip>
            </Popover.Target>
            <Popover.Dropdown aria-label={t("postEditor.link")}>
              <TextInput
                data-autofocus
                data-mantine-stop-propagation
                label={t("postEditor.linkLabel")}
                placeholder={t("postEditor.linkPlaceholder")}
                value={linkDraft}
                onChange={(event) => {
                  setLinkDraft(event.currentTarget.value);
                  setLinkError(null);
                }}
                onKeyDown={handleLinkKey}
                error={linkError}
                inputMode="url"
                autoComplete="off"
                data-testid="post-editor-link-input"
              />
              <Group gap="xs" justify="flex-end" mt="sm">
                {state.link && (
                  <Button variant="subtle" color="red" size="xs" onClick={removeLink}>
                    {t("postEditor.linkRemove")}
                  </Button>
                )}
                <Button size="xs" onClick={applyLink} data-testid="post-editor-link-apply">
                  {t("postEditor.linkApply")}
                </Button>
              </Group>
            </Popover.Dropdown>
          </Popover>
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
