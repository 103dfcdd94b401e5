/*
 * The post editor's toolbar rules, apart from the editor itself: which formatting a tool
 * applies, when it may be used, and how its shortcut is written for people and for
 * assistive technology.
 */

export type ToolName = "bold" | "italic" | "underline" | "strike" | "spoiler" | "code" | "quote" | "expandable";

/** What the selection has and allows, as the toolbar reads it. */
export type ToolState = Record<ToolName | "link", boolean> & {
  /** Inline formatting may be applied here (nothing formats the inside of a code block). */
  canFormat: boolean;
  canQuote: boolean;
};

const IS_MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** "Ctrl+Shift+X" (⌘⇧X on a Mac) for people, "Control+Shift+X" for aria-keyshortcuts. */
export function shortcut(keys: string, mac = IS_MAC): { shown: string; aria: string } {
  const parts = keys.split("+");
  if (mac) {
    const symbols: Record<string, string> = { Mod: "⌘", Shift: "⇧", Alt: "⌥" };
    return { shown: parts.map((part) => symbols[part] ?? part).join(""), aria: keys.replace("Mod", "Meta") };
  }
  return { shown: keys.replace("Mod", "Ctrl"), aria: keys.replace("Mod", "Control") };
}

/**
 * A tool that is on can always be switched off; otherwise code and quote follow their own
 * rule, an expandable quote needs a quote, and the rest need a place that takes formatting.
 */
export function toolEnabled(name: ToolName, state: ToolState): boolean {
  if (name === "code") return state.canFormat || state.code;
  if (name === "quote") return state.canQuote || state.quote;
  if (name === "expandable") return state.quote;
  return state.canFormat;
}
