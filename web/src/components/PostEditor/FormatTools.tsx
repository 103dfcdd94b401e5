import { Toolbar, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Tooltip.layer.css";
import type { Editor } from "@tiptap/react";
import type { MouseEvent, ReactNode } from "react";
import { useT, type TranslationKey } from "../../i18n/i18n.tsx";
import { shortcut, toolEnabled, type ToolName, type ToolState } from "../../lib/editorTools.ts";
import classes from "./PostEditor.module.css";

/** The toolbar's reading of the editor's selection. */
export function toolState(editor: Editor): ToolState {
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
    canFormat: editor.can().toggleBold(),
    canQuote: editor.can().toggleBlockquote(),
  };
}

/** A toolbar press leaves the editor's focus and selection where they are. */
export const keepSelection = (event: MouseEvent) => event.preventDefault();

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

/** The formatting toggles of the toolbar, each with its name and shortcut in a tooltip. */
export function FormatTools({ editor, state, disabled }: { editor: Editor; state: ToolState; disabled: boolean }) {
  const t = useT();
  return TOOLS.map(({ name, label, keys, icon }) => {
    const keyHint = keys ? shortcut(keys) : null;
    return (
      <Tooltip
        key={name}
        label={keyHint ? `${t(label)} · ${keyHint.shown}` : t(label)}
        events={{ hover: true, focus: true, touch: false }}
        openDelay={400}
      >
        <Toolbar.Toggle
          active={state[name]}
          disabled={disabled || !toolEnabled(name, state)}
          aria-label={t(label)}
          aria-keyshortcuts={keyHint?.aria}
          onMouseDown={keepSelection}
          onClick={() => runTool(editor, name, state)}
          data-testid={`post-editor-${name}`}
        >
          {icon}
        </Toolbar.Toggle>
      </Tooltip>
    );
  });
}
