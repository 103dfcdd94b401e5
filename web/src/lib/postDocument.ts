/*
 * A post's text as the editor holds it (TipTap's JSON document) and as Telegram takes it
 * (plain text plus MessageEntity ranges in UTF-16 code units, contract/entities.ts).
 * Pure, so both directions are unit-tested without a browser (tests/web/post_document.test.ts).
 *
 * The document: one paragraph per line, "\n" between them (a hard break is a "\n" too);
 * `blockquote` holds whole lines (`expandable` picks expandable_blockquote); `codeBlock`
 * holds whole lines of `pre` with its language; the marks bold, italic, underline, strike,
 * spoiler, code and link (text_link) format characters.
 *
 * Formatting is kept per character, and `fromDocument` writes it back as the fewest ranges
 * that nest as Telegram requires, so a round trip is exact for every (text, entities) that
 * `fromDocument` can give. The rules, with what the document cannot hold:
 * - A newline between two lines of running text carries the formatting that both characters
 *   next to it share: bold over two lines is one entity. A newline beside an empty line, or
 *   at the edge of a quote or code block, carries none, so a range over an empty line or out
 *   of a quote is cut there, and a range that ends on a newline ("a\n" of "a\nb") drops it.
 * - Ranges of one kind (one address, for links) that touch merge into one.
 * - Partly overlapping ranges are split to nest: the one running longer stays whole, and
 *   code is always the innermost, as nothing may be inside it.
 * - A quote that covers part of a line quotes its whole lines; quotes sharing a line, or a
 *   code block, grow into one quote (of the first one's kind).
 * - A pre that is not whole lines becomes inline code (its language is lost); a language or
 *   link address the API would refuse is dropped (the text stays).
 * - Ranges past the text and kinds the editor does not make are ignored; a quote inside a
 *   quote (pasted) is part of the outer one, its lines running on with the outer one's.
 * Whatever the document, `fromDocument` gives entities that pass `entitiesProblem`.
 */
import * as v from "valibot";
import {
  EntitySchema,
  isAllowedLink,
  type EntityType,
  type MessageEntity,
  sortEntities,
} from "../../../contract/entities.ts";

export type FormattedText = { text: string; entities: MessageEntity[] };

/** The editor's JSON (TipTap's JSONContent), as far as it is read here. */
export type DocMark = { type: string; attrs?: Record<string, unknown> };
export type DocNode = {
  type?: string;
  attrs?: Record<string, unknown>;
  content?: DocNode[];
  text?: string;
  marks?: DocMark[];
};

type InlineType = "text_link" | "bold" | "italic" | "underline" | "strikethrough" | "spoiler" | "code";

/** The editor's mark for each inline kind, in the order marks nest when ranges tie (outer first). */
export const MARK_NAMES: Record<InlineType, string> = {
  text_link: "link",
  bold: "bold",
  italic: "italic",
  underline: "underline",
  strikethrough: "strike",
  spoiler: "spoiler",
  code: "code",
};
const INLINE_TYPES = Object.keys(MARK_NAMES) as InlineType[];
const INLINE_OF_MARK = new Map(INLINE_TYPES.map((type) => [MARK_NAMES[type], type]));

export const NODE_NAMES = {
  paragraph: "paragraph",
  hardBreak: "hardBreak",
  blockquote: "blockquote",
  codeBlock: "codeBlock",
} as const;

/** A link the API accepts: https:// or tg://, no longer than an entity's url may be. */
export function isPostLink(url: string): boolean {
  return isAllowedLink(url) && v.is(EntitySchema, { type: "text_link", offset: 0, length: 1, url });
}

const isPreLanguage = (language: string) => v.is(EntitySchema, { type: "pre", offset: 0, length: 1, language });

/**
 * What the link dialog makes of what was typed: an address without a scheme ("t.me/x") is
 * taken as https://; null when the result is not a link a post may carry.
 */
export function normalizeLink(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === "" || /\s/.test(trimmed)) return null;
  const href = /^[a-z][a-z\d+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  return isPostLink(href) ? href : null;
}

/** Whether two values format the same text the same way (entity order aside). */
export function sameFormattedText(a: FormattedText, b: FormattedText): boolean {
  if (a.text !== b.text || a.entities.length !== b.entities.length) return false;
  const key = (entities: MessageEntity[]) =>
    JSON.stringify(sortEntities(entities).map((e) => [e.type, e.offset, e.length, e.url ?? null, e.language ?? null]));
  return key(a.entities) === key(b.entities);
}

type Format = { type: InlineType; url?: string; key: string };
const makeFormat = (type: InlineType, url?: string): Format => ({ type, url, key: url === undefined ? type : `${type} ${url}` });

// ---------------------------------------------------------------------------------------
// text + entities → document

type Line = { start: number; end: number };
type LineRange = { first: number; last: number };
type CodeLines = LineRange & { language: string | null };
type QuoteLines = LineRange & { expandable: boolean };

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf("\n", start);
    if (newline < 0) {
      lines.push({ start, end: text.length });
      return lines;
    }
    lines.push({ start, end: newline });
    start = newline + 1;
  }
}

/** The line that holds position `p` (its start ≤ p ≤ its end). */
function lineAt(lines: Line[], p: number): number {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lines[middle].start <= p) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The lines a range touches; a newline at its very start or end does not bring a line in. */
function touchedLines(lines: Line[], start: number, end: number): LineRange | null {
  let first = lineAt(lines, start);
  if (start === lines[first].end && start > lines[first].start) first += 1;
  let last = lineAt(lines, end);
  if (end === lines[last].start && end < lines[last].end) last -= 1;
  return first <= last ? { first, last } : null;
}

const overlaps = (a: LineRange, b: LineRange) => a.first <= b.last && b.first <= a.last;

/** Quotes grow to whole code blocks they cut and merge when they share a line. */
function settleQuotes(quotes: QuoteLines[], codeBlocks: CodeLines[]): QuoteLines[] {
  let settled = quotes.map((quote) => ({ ...quote }));
  for (let changed = true; changed; ) {
    changed = false;
    for (const quote of settled) {
      for (const block of codeBlocks) {
        if (!overlaps(quote, block)) continue;
        if (block.first < quote.first || block.last > quote.last) {
          quote.first = Math.min(quote.first, block.first);
          quote.last = Math.max(quote.last, block.last);
          changed = true;
        }
      }
    }
    const merged: QuoteLines[] = [];
    for (const quote of settled.sort((a, b) => a.first - b.first)) {
      const previous = merged.at(-1);
      if (previous && quote.first <= previous.last) {
        previous.last = Math.max(previous.last, quote.last);
        changed = true;
      } else {
        merged.push(quote);
      }
    }
    settled = merged;
  }
  return settled;
}

function textNode(text: string, formats: Format[]): DocNode {
  if (formats.length === 0) return { type: "text", text };
  const marks = [...formats]
    .sort((a, b) => INLINE_TYPES.indexOf(a.type) - INLINE_TYPES.indexOf(b.type))
    .map((f): DocMark => (f.url === undefined ? { type: MARK_NAMES[f.type] } : { type: MARK_NAMES[f.type], attrs: { href: f.url } }));
  return { type: "text", text, marks };
}

const formatsKey = (formats: Format[]) => formats.map((f) => f.key).sort().join("\u0000");

function paragraph(text: string, formats: Format[][], keys: string[], line: Line): DocNode {
  const content: DocNode[] = [];
  let runStart = line.start;
  for (let p = line.start + 1; p <= line.end; p++) {
    if (p === line.end || keys[p] !== keys[runStart]) {
      content.push(textNode(text.slice(runStart, p), formats[runStart]));
      runStart = p;
    }
  }
  return content.length > 0 ? { type: NODE_NAMES.paragraph, content } : { type: NODE_NAMES.paragraph };
}

/** The editor's document for a post's text and entities (any entities: see the rules above). */
export function toDocument(text: string, entities: readonly MessageEntity[]): DocNode {
  const lines = splitLines(text);
  const ranges = entities
    .map((entity) => ({
      entity,
      start: Math.max(0, Math.min(entity.offset, text.length)),
      end: Math.max(0, Math.min(entity.offset + entity.length, text.length)),
    }))
    .filter(({ start, end }) => end > start)
    .sort((a, b) => a.start - b.start || b.end - a.end);

  const codeBlocks: CodeLines[] = [];
  const inlineRanges: { format: Format; start: number; end: number }[] = [];
  const quotes: QuoteLines[] = [];
  for (const { entity, start, end } of ranges) {
    switch (entity.type) {
      case "pre": {
        const first = lineAt(lines, start);
        const last = lineAt(lines, end);
        const block = { first, last, language: entity.language && isPreLanguage(entity.language) ? entity.language : null };
        const wholeLines = lines[first].start === start && lines[last].end === end;
        if (wholeLines && !codeBlocks.some((other) => overlaps(other, block))) codeBlocks.push(block);
        else inlineRanges.push({ format: makeFormat("code"), start, end });
        break;
      }
      case "blockquote":
      case "expandable_blockquote": {
        const touched = touchedLines(lines, start, end);
        if (touched) quotes.push({ ...touched, expandable: entity.type === "expandable_blockquote" });
        break;
      }
      case "text_link":
        if (entity.url !== undefined && isPostLink(entity.url)) {
          inlineRanges.push({ format: makeFormat("text_link", entity.url), start, end });
        }
        break;
      default:
        if ((INLINE_TYPES as string[]).includes(entity.type)) {
          inlineRanges.push({ format: makeFormat(entity.type as InlineType), start, end });
        }
    }
  }

  const inCode = new Uint8Array(text.length);
  for (const block of codeBlocks) inCode.fill(1, lines[block.first].start, lines[block.last].end);
  const formats: Format[][] = Array.from({ length: text.length }, () => []);
  for (const { format, start, end } of inlineRanges) {
    for (let p = start; p < end; p++) {
      if (!inCode[p] && !formats[p].some((f) => f.type === format.type)) formats[p].push(format);
    }
  }

  const keys = formats.map(formatsKey);
  const blockAt = (index: number): [DocNode, number] => {
    const block = codeBlocks.find((b) => b.first === index);
    if (!block) return [paragraph(text, formats, keys, lines[index]), index + 1];
    const code = text.slice(lines[block.first].start, lines[block.last].end);
    const node: DocNode = { type: NODE_NAMES.codeBlock, attrs: { language: block.language } };
    if (code !== "") node.content = [{ type: "text", text: code }];
    return [node, block.last + 1];
  };
  const settledQuotes = settleQuotes(quotes, codeBlocks);
  const content: DocNode[] = [];
  for (let index = 0; index < lines.length; ) {
    const quote = settledQuotes.find((q) => q.first === index);
    if (!quote) {
      const [node, next] = blockAt(index);
      content.push(node);
      index = next;
      continue;
    }
    const inner: DocNode[] = [];
    while (index <= quote.last) {
      const [node, next] = blockAt(index);
      inner.push(node);
      index = next;
    }
    content.push({ type: NODE_NAMES.blockquote, attrs: { expandable: quote.expandable }, content: inner });
  }
  return { type: "doc", content };
}

// ---------------------------------------------------------------------------------------
// document → text + entities

/** A newline whose formatting comes from its neighbours (null) or that carries none ([]). */
type CharFormats = Format[] | null;

function formatsOfMarks(marks: DocMark[] | undefined): Format[] {
  const formats: Format[] = [];
  for (const mark of marks ?? []) {
    const type = INLINE_OF_MARK.get(mark.type);
    if (!type || formats.some((f) => f.type === type)) continue;
    if (type !== "text_link") {
      formats.push(makeFormat(type));
      continue;
    }
    const href = mark.attrs?.href;
    if (typeof href === "string" && isPostLink(href)) formats.push(makeFormat(type, href));
  }
  return formats;
}

const isRunningText = (node: DocNode) => node.type !== NODE_NAMES.blockquote && node.type !== NODE_NAMES.codeBlock;

/**
 * A quote's blocks, a quote inside it (pasted) opened up in place: Telegram does not nest
 * quotes, so the inner one's lines are the outer one's own, and the newlines at its edges
 * run between lines like any other.
 */
function quoteBlocks(quote: DocNode): DocNode[] {
  const content = quote.content?.length ? quote.content : [{ type: NODE_NAMES.paragraph }];
  return content.flatMap((node) => (node.type === NODE_NAMES.blockquote ? quoteBlocks(node) : [node]));
}

class TextWriter {
  text = "";
  formats: CharFormats[] = [];
  blocks: MessageEntity[] = [];

  write(piece: string, formats: Format[]) {
    for (const unit of piece.split(/(\n)/)) {
      if (unit === "\n") this.newline(true);
      else this.append(unit, formats);
    }
  }

  append(piece: string, formats: CharFormats) {
    this.text += piece;
    for (let i = 0; i < piece.length; i++) this.formats.push(formats);
  }

  newline(takesNeighbours: boolean) {
    this.append("\n", takesNeighbours ? null : []);
  }

  blockSequence(nodes: DocNode[]) {
    nodes.forEach((node, index) => {
      if (index > 0) this.newline(isRunningText(nodes[index - 1]) && isRunningText(node));
      this.block(node);
    });
  }

  block(node: DocNode) {
    const start = this.text.length;
    if (node.type === NODE_NAMES.blockquote) {
      this.blockSequence(quoteBlocks(node));
      if (this.text.length > start) {
        const type: EntityType = node.attrs?.expandable === true ? "expandable_blockquote" : "blockquote";
        this.blocks.push({ type, offset: start, length: this.text.length - start });
      }
    } else if (node.type === NODE_NAMES.codeBlock) {
      this.append(plainText(node), []);
      if (this.text.length > start) {
        const language = node.attrs?.language;
        const pre: MessageEntity = { type: "pre", offset: start, length: this.text.length - start };
        if (typeof language === "string" && isPreLanguage(language)) pre.language = language;
        this.blocks.push(pre);
      }
    } else {
      this.inline(node.content ?? []);
    }
  }

  inline(nodes: DocNode[]) {
    for (const node of nodes) {
      if (node.type === "text") this.write(node.text ?? "", formatsOfMarks(node.marks));
      else if (node.type === NODE_NAMES.hardBreak) this.newline(true);
      else this.inline(node.content ?? []);
    }
  }
}

function plainText(node: DocNode): string {
  return node.text ?? (node.content ?? []).map(plainText).join("");
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** A newline's formatting is what the characters on both sides of it share. */
function resolveNewlines(formats: CharFormats[]): Format[][] {
  return formats.map((own, p) => {
    if (own) return own;
    const before = formats[p - 1];
    const after = formats[p + 1];
    if (!before || !after) return [];
    return before.filter((f) => after.some((g) => g.key === f.key));
  });
}

// Characters of one text node share one formats array, which both loops below skip over.
function runEnd(formats: Format[][], key: string, from: number): number {
  let end = from;
  while (end < formats.length && (formats[end] === formats[end - 1] || formats[end].some((f) => f.key === key))) end++;
  return end;
}

/**
 * The fewest properly nested ranges for per-character formatting: at each character the
 * open ranges that stop there close (with every range opened inside them, which reopen if
 * they go on), and new ones open, the longest-running outermost and code innermost.
 */
function nestRanges(formats: Format[][]): MessageEntity[] {
  const entities: MessageEntity[] = [];
  const open: { format: Format; start: number }[] = [];
  for (let p = 0; p <= formats.length; p++) {
    if (p > 0 && formats[p] === formats[p - 1]) continue;
    const here = p < formats.length ? formats[p] : [];
    const keys = new Set(here.map((f) => f.key));
    const opening = here.filter((f) => !open.some((o) => o.format.key === f.key));
    let cut = open.findIndex((o) => !keys.has(o.format.key));
    if (opening.length > 0) {
      const code = open.findIndex((o) => o.format.type === "code");
      if (code >= 0 && (cut < 0 || code < cut)) cut = code;
    }
    if (cut >= 0) {
      for (const { format, start } of open.splice(cut).reverse()) {
        entities.push(format.url === undefined
          ? { type: format.type, offset: start, length: p - start }
          : { type: format.type, offset: start, length: p - start, url: format.url });
        if (keys.has(format.key)) opening.push(format);
      }
    }
    const ends = new Map(opening.map((f) => [f.key, runEnd(formats, f.key, p)]));
    opening.sort((a, b) =>
      Number(a.type === "code") - Number(b.type === "code") ||
      ends.get(b.key)! - ends.get(a.key)! ||
      INLINE_TYPES.indexOf(a.type) - INLINE_TYPES.indexOf(b.type)
    );
    for (const format of opening) open.push({ format, start: p });
  }
  return entities;
}

/** A post's text and entities from the editor's document (see the rules above). */
export function fromDocument(doc: DocNode): FormattedText {
  const writer = new TextWriter();
  writer.blockSequence(doc.content?.length ? doc.content : [{ type: NODE_NAMES.paragraph }]);
  const { text, formats, blocks } = writer;
  // An emoji outside the BMP is two code units; a range never starts or ends between them.
  for (let p = 1; p < text.length; p++) {
    if (formats[p] && formats[p - 1] && isLowSurrogate(text.charCodeAt(p)) && isHighSurrogate(text.charCodeAt(p - 1))) {
      formats[p] = formats[p - 1];
    }
  }
  return { text, entities: sortEntities([...blocks, ...nestRanges(resolveNewlines(formats))]) };
}
