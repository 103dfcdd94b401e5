/*
 * The AI writes Markdown, which models write best; a channel gets plain text plus
 * Telegram entities (contract/entities.ts). markdown-it parses (CommonMark, so every
 * escape and edge case is its job, not a regex's); this walks its tokens and writes the
 * text, recording each span's UTF-16 range. Headings become bold lines, lists get "•" or
 * "1." markers, quotes and fenced code keep their kind. Links other than https:// and tg://
 * stay as their words only. Nothing of the markup reaches the channel: a stray "**" that
 * Markdown does not pair is dropped too. Blocks and list items keep the source's spacing:
 * one written right under the previous (a list after "Ideas:") starts on the next line,
 * one after blank lines gets one blank line, so plain text comes out as it went in.
 *
 * One converter for every AI text: posts (here on the server) and the assistant's
 * replies (in the browser, web/src/lib/assistantReply.ts, which says why there).
 */
import MarkdownIt from "markdown-it";
import { ENTITIES_MAX, isAllowedLink, type MessageEntity, sortEntities } from "./entities.ts";

type Token = ReturnType<MarkdownIt["parse"]>[number];

const parser = new MarkdownIt({ html: false, linkify: false, typographer: false });

const INLINE_PAIRS: Record<string, MessageEntity["type"]> = { strong: "bold", em: "italic", s: "strikethrough" };
const SPOILER = /\|\|(.+?)\|\|/g;
const STRAY_MARKUP = /\*\*|__/g;

export type FormattedText = { text: string; entities: MessageEntity[] };

export function markdownToEntities(markdown: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  let pendingBreak = "";
  const lists: { ordered: boolean; next: number }[] = [];
  const open: { type: MessageEntity["type"]; start: number; url?: string }[] = [];
  const quoteStarts: number[] = [];

  const write = (piece: string) => {
    if (piece === "") return;
    if (text !== "") text += pendingBreak;
    pendingBreak = "";
    text += piece;
  };
  /** A block starts: what separates it from the one before is written now, so ranges start after it. */
  const startBlock = () => {
    if (text !== "") text += pendingBreak;
    pendingBreak = "";
  };
  const endBlock = () => {
    pendingBreak = lists.length > 0 || quoteStarts.length > 0 ? "\n" : "\n\n";
  };
  const mark = (type: MessageEntity["type"], start: number, extra: Partial<MessageEntity> = {}) => {
    if (text.length > start) entities.push({ type, offset: start, length: text.length - start, ...extra });
  };
  const writeText = (content: string) => {
    let last = 0;
    for (const match of content.matchAll(SPOILER)) {
      write(content.slice(last, match.index).replace(STRAY_MARKUP, ""));
      startBlock();
      const start = text.length;
      write(match[1].replace(STRAY_MARKUP, ""));
      mark("spoiler", start);
      last = match.index! + match[0].length;
    }
    write(content.slice(last).replace(STRAY_MARKUP, ""));
  };

  const inline = (children: Token[]) => {
    for (const token of children) {
      const pair = /^(strong|em|s)_(open|close)$/.exec(token.type);
      if (pair) {
        if (pair[2] === "open") {
          startBlock();
          open.push({ type: INLINE_PAIRS[pair[1]], start: text.length });
        } else {
          const span = open.pop();
          if (span) mark(span.type, span.start);
        }
        continue;
      }
      switch (token.type) {
        case "text":
          writeText(token.content);
          break;
        case "softbreak":
        case "hardbreak":
          write("\n");
          break;
        case "code_inline": {
          startBlock();
          const start = text.length;
          write(token.content);
          mark("code", start);
          break;
        }
        case "link_open": {
          startBlock();
          const href = token.attrGet("href") ?? "";
          open.push({ type: "text_link", start: text.length, url: isAllowedLink(href) ? href : undefined });
          break;
        }
        case "link_close": {
          const span = open.pop();
          if (span?.url) mark("text_link", span.start, { url: span.url });
          break;
        }
        case "image":
          writeText(token.content);
          break;
        default:
          if (token.content) writeText(token.content);
      }
    }
  };

  const sourceLines = markdown.split("\n");
  const blankLineBefore = (line: number) => line > 0 && sourceLines[line - 1].trim() === "";
  let headingStart = 0;
  for (const token of parser.parse(markdown, {})) {
    // a block (or list item) keeps the source's spacing: a blank line before it, or none
    if (token.map && pendingBreak !== "" && (token.level === 0 || token.type === "list_item_open")) {
      pendingBreak = blankLineBefore(token.map[0]) ? "\n\n" : "\n";
    }
    switch (token.type) {
      case "heading_open":
        startBlock();
        headingStart = text.length;
        break;
      case "heading_close":
        mark("bold", headingStart);
        endBlock();
        break;
      case "paragraph_open":
        startBlock();
        break;
      case "paragraph_close":
        endBlock();
        break;
      case "bullet_list_open":
      case "ordered_list_open":
        startBlock();
        lists.push({ ordered: token.type === "ordered_list_open", next: Number(token.attrGet("start") ?? 1) });
        break;
      case "bullet_list_close":
      case "ordered_list_close":
        lists.pop();
        endBlock();
        break;
      case "list_item_open": {
        startBlock();
        const list = lists.at(-1)!;
        const marker = list.ordered ? `${list.next++}. ` : "• ";
        write("  ".repeat(lists.length - 1) + marker);
        break;
      }
      case "list_item_close":
        pendingBreak = "\n";
        break;
      case "blockquote_open":
        startBlock();
        quoteStarts.push(text.length);
        break;
      case "blockquote_close": {
        const start = quoteStarts.pop()!;
        // a quote inside a quote is written as part of the outer one (Telegram does not nest them)
        if (quoteStarts.length === 0) mark("blockquote", start);
        endBlock();
        break;
      }
      case "fence":
      case "code_block": {
        startBlock();
        const start = text.length;
        write(token.content.replace(/\n$/, ""));
        const language = token.info.trim().split(/\s+/)[0];
        mark("pre", start, /^[A-Za-z0-9_+#.-]{1,32}$/.test(language) ? { language } : {});
        endBlock();
        break;
      }
      case "hr":
        write("———");
        endBlock();
        break;
      case "inline":
        inline(token.children ?? []);
        break;
    }
  }
  return trimmed(text, entities);
}

/**
 * A post the AI wrote in Markdown, as text and entities within Telegram's limit: a reply
 * wrapped in a code fence is unwrapped, and a text over `max` is cut at the last line or
 * sentence end before it (its formatting cut with it).
 */
export function formattedPost(answer: string, max: number): FormattedText {
  const { text, entities } = markdownToEntities(answer.trim().replace(/^```[a-z]*\n([\s\S]*)\n```$/, "$1"));
  if (text.length <= max) return { text, entities };
  // never half an emoji
  const cut = text.slice(0, /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max);
  const end = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(". "), cut.lastIndexOf("! "), cut.lastIndexOf("? "));
  return trimmed(end > max * 0.6 ? cut.slice(0, end + 1) : cut, entities);
}

/**
 * Trailing whitespace goes, every range is cut to what is left of the text, and what the
 * API would refuse is left out (docs/post-format.md): a range inside one of its own kind
 * (a bold word in a bold heading) adds nothing, and past Telegram's ENTITIES_MAX the
 * first ones stay.
 */
function trimmed(text: string, entities: MessageEntity[]): FormattedText {
  const end = text.trimEnd().length;
  const cut = entities
    .map((entity) => ({ ...entity, length: Math.min(entity.offset + entity.length, end) - entity.offset }))
    .filter((entity) => entity.length > 0);
  const kept: MessageEntity[] = [];
  const open: MessageEntity[] = [];
  for (const entity of sortEntities(cut)) {
    while (open.length > 0 && open.at(-1)!.offset + open.at(-1)!.length <= entity.offset) open.pop();
    if (open.some((outer) => outer.type === entity.type)) continue;
    kept.push(entity);
    open.push(entity);
  }
  return { text: text.slice(0, end), entities: kept.slice(0, ENTITIES_MAX) };
}
