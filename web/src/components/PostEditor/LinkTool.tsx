import { Button, Group, Popover, TextInput, Toolbar, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Popover.layer.css";
import type { Editor } from "@tiptap/react";
import { useEffect, useState, type KeyboardEvent, type MutableRefObject } from "react";
import { isUnsafeLink } from "../../../../contract/entities.ts";
import { useT } from "../../i18n/i18n.tsx";
import { shortcut, type ToolState } from "../../lib/editorTools.ts";
import { normalizeLink } from "../../lib/postDocument.ts";
import { IconLink } from "../Icons/Icons.tsx";
import { keepSelection } from "./FormatTools.tsx";

/**
 * The toolbar's link button and its dialog: a link on the selection, or a new linked text
 * where nothing is selected, or the link under the cursor changed or removed. `openRef` is
 * what the editor's Ctrl+K calls.
 */
export function LinkTool({ editor, state, disabled, openRef }: {
  editor: Editor;
  state: ToolState;
  disabled: boolean;
  openRef: MutableRefObject<() => void>;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);

  const openLink = () => {
    if (disabled || !editor.can().toggleBold()) return;
    setDraft(editor.getAttributes("link").href ?? "");
    setError(null);
    setOpen(true);
  };
  useEffect(() => {
    openRef.current = openLink;
  });

  const close = () => {
    setOpen(false);
    editor.commands.focus();
  };
  const apply = () => {
    const href = normalizeLink(draft);
    if (!href) {
      // a Telegram action the API refuses says which rule it met, not "not a link"
      const typed = draft.trim();
      setError(t(isUnsafeLink(typed) || isUnsafeLink(`https://${typed}`) ? "posts.unsafeLink" : "entities.badLink"));
      return;
    }
    const chain = editor.chain().focus();
    if (editor.state.selection.empty && !editor.isActive("link")) {
      chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] }).run();
    } else {
      chain.extendMarkRange("link").setLink(href).run();
    }
    setOpen(false);
  };
  const remove = () => {
    editor.chain().focus().extendMarkRange("link").unsetLink().run();
    setOpen(false);
  };
  const handleKey = (event: KeyboardEvent<HTMLInputElement>) => {
    // The dialog sits in a portal, but React bubbles its keys to the form around the editor.
    if (event.nativeEvent.isComposing) return;
    if (event.key === "Enter") {
      event.preventDefault();
      event.stopPropagation();
      apply();
    } else if (event.key === "Escape") {
      event.stopPropagation();
      close();
    }
  };

  const keys = shortcut("Mod+K");
  return (
    <Popover
      opened={open}
      // A click outside or Escape; the cursor goes back to the text on Escape only (handleKey).
      onChange={(opened) => opened || setOpen(false)}
      trapFocus
      returnFocus={false}
      position="bottom-start"
      shadow="md"
      width={320}
    >
      <Popover.Target>
        <Tooltip label={`${t("postEditor.link")} · ${keys.shown}`} events={{ hover: true, focus: true, touch: false }} openDelay={400}>
          <Toolbar.Toggle
            active={state.link}
            disabled={disabled || !state.canFormat}
            aria-label={t("postEditor.link")}
            aria-keyshortcuts={keys.aria}
            onMouseDown={keepSelection}
            onClick={() => (open ? close() : openLink())}
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
          value={draft}
          onChange={(event) => {
            setDraft(event.currentTarget.value);
            setError(null);
          }}
          onKeyDown={handleKey}
          error={error}
          inputMode="url"
          autoComplete="off"
          data-testid="post-editor-link-input"
        />
        <Group gap="xs" justify="flex-end" mt="sm">
          {state.link && (
            <Button variant="subtle" color="red" size="xs" onClick={remove}>
              {t("postEditor.linkRemove")}
            </Button>
          )}
          <Button size="xs" onClick={apply} data-testid="post-editor-link-apply">
            {t("postEditor.linkApply")}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
