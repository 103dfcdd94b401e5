/*
 * The editor's schema: exactly what a Telegram post can carry (web/src/lib/postDocument.ts
 * maps it to entities). Pasted HTML is read through this schema, so whatever it has no
 * place for is dropped while the text stays: headings and list items become paragraphs,
 * images, tables' structure, colours and fonts go.
 *
 * Shortcuts: TipTap's own Mod-B, Mod-I, Mod-U, Mod-Shift-S (strikethrough), Mod-E (code),
 * Mod-Shift-B (quote), Mod-Alt-C (code block), Mod-Z / Mod-Shift-Z; and Telegram Desktop's
 * Mod-Shift-X (strikethrough), Mod-Shift-M (monospace), Mod-Shift-P (spoiler), Mod-K (link,
 * opens the link dialog). Firefox keeps Ctrl+Shift+P for a private window, so there the
 * spoiler is the toolbar's.
 */
import { Extension, Mark, mergeAttributes } from "@tiptap/core";
import { Blockquote } from "@tiptap/extension-blockquote";
import { Bold } from "@tiptap/extension-bold";
import { Code } from "@tiptap/extension-code";
import { CodeBlock } from "@tiptap/extension-code-block";
import { Document } from "@tiptap/extension-document";
import { HardBreak } from "@tiptap/extension-hard-break";
import { Italic } from "@tiptap/extension-italic";
import { Paragraph } from "@tiptap/extension-paragraph";
import { Strike } from "@tiptap/extension-strike";
import { Text } from "@tiptap/extension-text";
import { Underline } from "@tiptap/extension-underline";
import { Placeholder } from "@tiptap/extensions/placeholder";
import { UndoRedo } from "@tiptap/extensions/undo-redo";
import { Fragment, Slice } from "@tiptap/pm/model";
import { Plugin } from "@tiptap/pm/state";
import { isPostLink, MARK_NAMES, NODE_NAMES } from "../../lib/postDocument.ts";

declare module "@tiptap/core" {
  interface Commands<ReturnType> {
    postLink: {
      /** Links the selection (or the link the cursor is in) to an https:// or tg:// address. */
      setLink: (href: string) => ReturnType;
      unsetLink: () => ReturnType;
    };
    spoiler: {
      toggleSpoiler: () => ReturnType;
    };
    expandableQuote: {
      /** Collapses the quote the cursor is in (expandable_blockquote) or opens it again. */
      toggleExpandable: () => ReturnType;
    };
  }
}

/** Browsers' own CSS longhand (Safari and Telegram Web write `text-decoration-line`). */
const decorationRule = (word: string) => ({
  style: "text-decoration-line",
  consuming: false,
  getAttrs: (value: string | HTMLElement) => (String(value).includes(word) ? null : false),
});

const PostUnderline = Underline.extend({
  parseHTML() {
    return [...(this.parent?.() ?? []), decorationRule("underline")];
  },
});

const PostStrike = Strike.extend({
  parseHTML() {
    return [...(this.parent?.() ?? []), decorationRule("line-through")];
  },
  addKeyboardShortcuts() {
    return { ...this.parent?.(), "Mod-Shift-x": () => this.editor.commands.toggleStrike() };
  },
});

/** Code may sit inside bold, a link or a spoiler (Telegram allows it); nothing goes inside code. */
const PostCode = Code.extend({
  excludes: MARK_NAMES.code,
  addKeyboardShortcuts() {
    return { ...this.parent?.(), "Mod-Shift-m": () => this.editor.commands.toggleCode() };
  },
});

const Spoiler = Mark.create({
  name: MARK_NAMES.spoiler,
  parseHTML() {
    return [
      { tag: "tg-spoiler" },
      { tag: "span.tg-spoiler" },
      { tag: "span.spoiler" },
      { tag: "span[data-spoiler]" },
      { tag: '[data-entity-type="MessageEntitySpoiler"]' },
      // Telegram Web's composer marks a spoiler with this font name.
      { style: "font-family", getAttrs: (value) => (String(value).trim() === "spoiler" ? null : false) },
    ];
  },
  renderHTML({ HTMLAttributes }) {
    return ["span", mergeAttributes(HTMLAttributes, { "data-spoiler": "" }), 0];
  },
  addCommands() {
    return {
      toggleSpoiler: () => ({ commands }) => commands.toggleMark(this.name),
    };
  },
  addKeyboardShortcuts() {
    return { "Mod-Shift-p": () => this.editor.commands.toggleSpoiler() };
  },
});

const PostLink = Mark.create({
  name: MARK_NAMES.text_link,
  priority: 1000,
  // Typing at the end of a link does not lengthen it.
  inclusive: false,
  addAttributes() {
    return { href: { default: null, parseHTML: (element) => element.getAttribute("href") } };
  },
  parseHTML() {
    return [{ tag: "a[href]", getAttrs: (element) => (isPostLink(element.getAttribute("href") ?? "") ? null : false) }];
  },
  renderHTML({ HTMLAttributes }) {
    return ["a", mergeAttributes(HTMLAttributes, { rel: "noopener noreferrer nofollow" }), 0];
  },
  addCommands() {
    return {
      setLink: (href: string) => ({ chain }) => chain().setMark(this.name, { href }).run(),
      unsetLink: () => ({ chain }) => chain().unsetMark(this.name, { extendEmptyMarkRange: true }).run(),
    };
  },
  addProseMirrorPlugins() {
    const type = this.type;
    return [
      new Plugin({
        props: {
          // An address pasted over selected words links them instead of replacing them.
          handlePaste: (view, event) => {
            const pasted = event.clipboardData?.getData("text/plain").trim() ?? "";
            const { from, to, empty, $from } = view.state.selection;
            if (empty || !isPostLink(pasted) || !$from.parent.type.allowsMarkType(type)) return false;
            view.dispatch(view.state.tr.addMark(from, to, type.create({ href: pasted })));
            return true;
          },
        },
      }),
    ];
  },
});

/** A quote holds lines and code blocks; Telegram does not nest quotes. */
const PostBlockquote = Blockquote.extend({
  content: `(${NODE_NAMES.paragraph} | ${NODE_NAMES.codeBlock})+`,
  addAttributes() {
    return {
      expandable: {
        default: false,
        parseHTML: (element) => element.hasAttribute("expandable") || element.hasAttribute("data-expandable"),
        renderHTML: (attributes) => (attributes.expandable ? { "data-expandable": "" } : {}),
      },
    };
  },
  addCommands() {
    return {
      ...this.parent?.(),
      toggleExpandable: () => ({ editor, commands }) =>
        commands.updateAttributes(this.name, { expandable: !editor.isActive(this.name, { expandable: true }) }),
    };
  },
});

/**
 * Plain text pasted keeps every line, empty ones too (ProseMirror's default folds blank
 * lines), and HTML loses what only looks like text: emoji pictures become their emoji, and
 * list items keep their "•" or number as text, since the schema has no lists.
 */
const PostPaste = Extension.create({
  name: "postPaste",
  addProseMirrorPlugins() {
    return [
      new Plugin({
        props: {
          clipboardTextParser: (text, $context) => {
            const { schema } = $context.doc.type;
            const marks = $context.marks();
            const lines = text.replace(/\r\n?/g, "\n").split("\n");
            const paragraphs = lines.map((line) =>
              schema.nodes[NODE_NAMES.paragraph].create(null, line ? schema.text(line, marks) : undefined)
            );
            return Slice.maxOpen(Fragment.fromArray(paragraphs));
          },
          transformPastedHTML: (html) => textualHtml(html),
        },
      }),
    ];
  },
});

const EMOJI_ALT = /^\p{Extended_Pictographic}/u;

function textualHtml(html: string): string {
  const page = new DOMParser().parseFromString(html, "text/html");
  for (const image of page.querySelectorAll("img")) {
    const alt = image.getAttribute("alt") ?? "";
    if (/emoji/i.test(image.className) || EMOJI_ALT.test(alt)) image.replaceWith(alt);
  }
  for (const item of page.querySelectorAll("li")) {
    const list = item.parentElement;
    if (list?.tagName === "OL") {
      const start = Number(list.getAttribute("start") ?? 1) || 1;
      item.prepend(`${start + [...list.children].indexOf(item)}. `);
    } else {
      item.prepend("• ");
    }
  }
  return page.body.innerHTML;
}

export type PostExtensionOptions = {
  /** Read on every render of an empty editor, so it follows the interface language. */
  placeholder: () => string;
  /** Mod-K: the component opens its link dialog. */
  onLinkShortcut: () => void;
};

export function postExtensions({ placeholder, onLinkShortcut }: PostExtensionOptions) {
  const LinkShortcut = Extension.create({
    name: "postLinkShortcut",
    addKeyboardShortcuts() {
      return {
        "Mod-k": () => {
          onLinkShortcut();
          return true;
        },
      };
    },
  });
  return [
    Document,
    Paragraph,
    Text,
    HardBreak,
    Bold,
    Italic,
    PostUnderline,
    PostStrike,
    PostCode,
    Spoiler,
    PostLink,
    PostBlockquote,
    CodeBlock,
    UndoRedo,
    Placeholder.configure({ placeholder: () => placeholder() }),
    LinkShortcut,
    PostPaste,
  ];
}
