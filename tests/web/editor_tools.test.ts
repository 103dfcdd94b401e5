/* The post editor's toolbar rules (web/src/lib/editorTools.ts): when a tool may be used, and how shortcuts read. */
import { expect, test } from "vitest";
import { shortcut, toolEnabled, type ToolState } from "../../web/src/lib/editorTools.ts";

const plain: ToolState = {
  bold: false, italic: false, underline: false, strike: false, spoiler: false, code: false, link: false,
  quote: false, expandable: false, canFormat: true, canQuote: true,
};

test("inside a code block only code itself can be switched off; an expandable quote needs a quote", () => {
  const inCodeBlock = { ...plain, code: true, canFormat: false, canQuote: false };
  expect(toolEnabled("bold", inCodeBlock)).toBe(false);
  expect(toolEnabled("quote", inCodeBlock)).toBe(false);
  expect(toolEnabled("code", inCodeBlock)).toBe(true);
  expect(toolEnabled("expandable", plain)).toBe(false);
  expect(toolEnabled("expandable", { ...plain, quote: true })).toBe(true);
  // a quote that is on can be switched off even where a new one could not start
  expect(toolEnabled("quote", { ...plain, quote: true, canQuote: false })).toBe(true);
});

test("shortcuts read as the keyboard shows them, and as assistive technology names the keys", () => {
  expect(shortcut("Mod+Shift+X", false)).toEqual({ shown: "Ctrl+Shift+X", aria: "Control+Shift+X" });
  expect(shortcut("Mod+Shift+X", true)).toEqual({ shown: "⌘⇧X", aria: "Meta+Shift+X" });
});
