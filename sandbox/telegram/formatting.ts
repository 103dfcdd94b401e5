// Text formatting as Telegram applies it before storing a message: `parse_mode`
// (HTML, MarkdownV2, legacy Markdown) turns markup into plain text + entities, then
// leading/trailing whitespace is trimmed. Limits ("message is too long", 1024 for
// captions) are checked by the caller on the *resulting* text, as Telegram does.
//
// Entity offsets/lengths are in UTF-16 code units, which is what JS string indices
// are. Error messages follow TDLib's wording ("can't parse entities: ...", with byte
// offsets counted in UTF-8 of the original text). Only the commonly used subset of
// each syntax is implemented; see the README in this folder.

import type { MessageEntity } from "grammy/types";
import { badRequest } from "./errors.ts";

export interface FormattedText {
  text: string;
  entities: MessageEntity[];
}

/** Applies `parse_mode` (or explicit `entities`) and Telegram's whitespace trimming. */
export function formatText(
  source: string,
  parseMode: string | undefined,
  explicitEntities: MessageEntity[] | undefined,
): FormattedText {
  let parsed: FormattedText;
  if (parseMode) {
    try {
      parsed = parseWith(parseMode, source);
    } catch (error) {
      if (error instanceof EntityParseError) throw badRequest(`can't parse entities: ${error.message}`);
      throw error;
    }
  } else {
    parsed = { text: source, entities: explicitEntities ? [...explicitEntities] : [] };
  }
  return withDetectedEntities(trim(parsed));
}

function parseWith(parseMode: string, source: string): FormattedText {
  switch (parseMode.toLowerCase()) {
    case "html":
      return parseHtml(source);
    case "markdownv2":
      return parseMarkdownV2(source);
    case "markdown":
      return parseLegacyMarkdown(source);
    default:
      throw badRequest("unsupported parse_mode");
  }
}

class EntityParseError extends Error {}

const encoder = new TextEncoder();
const byteOffset = (source: string, index: number) => encoder.encode(source.slice(0, index)).length;

function sortEntities(entities: MessageEntity[]): MessageEntity[] {
  return entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
}

/** Telegram drops leading and trailing whitespace of texts and captions. */
function trim({ text, entities }: FormattedText): FormattedText {
  const start = text.length - text.trimStart().length;
  const trimmed = text.trim();
  const kept: MessageEntity[] = [];
  for (const entity of entities) {
    const from = Math.max(entity.offset - start, 0);
    const to = Math.min(entity.offset + entity.length - start, trimmed.length);
    if (to > from) kept.push({ ...entity, offset: from, length: to - from });
  }
  return { text: trimmed, entities: sortEntities(kept) };
}

/** Telegram normalises link URLs (`https://example.com` comes back as `https://example.com/`). */
function normaliseUrl(url: string): string | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `http://${url}`;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : url;
  } catch {
    return undefined;
  }
}

interface OpenEntity {
  type: MessageEntity["type"];
  /** Markup that opened it: an HTML tag name or a Markdown marker. */
  marker: string;
  /** Start in the output text (UTF-16). */
  offset: number;
  /** Start in the source (UTF-8 bytes), for error messages. */
  byte: number;
  attributes: Record<string, string>;
}

function toEntity(
  open: OpenEntity,
  end: number,
  extra: Partial<MessageEntity> = {},
): MessageEntity | undefined {
  const length = end - open.offset;
  if (length <= 0) return undefined;
  return { type: open.type, offset: open.offset, length, ...extra } as MessageEntity;
}

// ---------------------------------------------------------------------------- HTML

const HTML_TAGS: Record<string, MessageEntity["type"]> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
};

function parseHtml(source: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: OpenEntity[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (char === "&") {
      const [decoded, consumed] = decodeHtmlEntity(source, i);
      text += decoded;
      i += consumed;
    } else if (char !== "<") {
      text += char;
      i++;
    } else if (source[i + 1] === "/") {
      const end = source.indexOf(">", i);
      if (end < 0) throw new EntityParseError(`Unclosed end tag at byte offset ${byteOffset(source, i)}`);
      const name = source.slice(i + 2, end).trim().toLowerCase();
      const open = stack.pop();
      if (!open) throw new EntityParseError(`Unexpected end tag at byte offset ${byteOffset(source, i)}`);
      if (open.marker !== name) {
        throw new EntityParseError(
          `Unmatched end tag at byte offset ${
            byteOffset(source, i)
          }, expected "</${open.marker}>", found "</${name}>"`,
        );
      }
      closeHtmlEntity(open, text.length, stack, entities);
      i = end + 1;
    } else {
      const tag = readStartTag(source, i);
      if (!(tag.name in HTML_TAGS)) {
        throw new EntityParseError(
          `Unsupported start tag "${tag.name}" at byte offset ${byteOffset(source, i)}`,
        );
      }
      if (tag.name === "span" && tag.attributes.class !== "tg-spoiler") {
        throw new EntityParseError(
          `Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(source, i)}`,
        );
      }
      stack.push({
        type: HTML_TAGS[tag.name],
        marker: tag.name,
        offset: text.length,
        byte: byteOffset(source, i),
        attributes: tag.attributes,
      });
      i = tag.end;
    }
  }
  const unclosed = stack.pop();
  if (unclosed) {
    throw new EntityParseError(`Can't find end tag corresponding to start tag "${unclosed.marker}"`);
  }
  return { text, entities: sortEntities(entities) };
}

function closeHtmlEntity(open: OpenEntity, end: number, stack: OpenEntity[], entities: MessageEntity[]) {
  const { attributes } = open;
  // <pre><code class="language-x">…</code></pre> is one `pre` entity with a language.
  const parent = stack.at(-1);
  const language = attributes.class?.match(/^language-(.+)$/)?.[1];
  if (open.marker === "code" && parent?.marker === "pre" && language) {
    parent.attributes.language = language;
    return;
  }
  let entity: MessageEntity | undefined;
  switch (open.type) {
    case "text_link": {
      const url = attributes.href === undefined ? undefined : normaliseUrl(attributes.href);
      if (url !== undefined) entity = toEntity(open, end, { url } as Partial<MessageEntity>);
      break;
    }
    case "pre":
      entity = toEntity(open, end, attributes.language ? { language: attributes.language } : {});
      break;
    case "blockquote":
      entity = toEntity({
        ...open,
        type: "expandable" in attributes ? "expandable_blockquote" : "blockquote",
      }, end);
      break;
    case "custom_emoji":
      entity = toEntity(
        open,
        end,
        { custom_emoji_id: attributes["emoji-id"] ?? "" } as Partial<MessageEntity>,
      );
      break;
    default:
      entity = toEntity(open, end);
  }
  if (entity) entities.push(entity);
}

function readStartTag(source: string, start: number) {
  let i = start + 1;
  const nameStart = i;
  while (i < source.length && /[a-zA-Z0-9-]/.test(source[i])) i++;
  const name = source.slice(nameStart, i).toLowerCase();
  const attributes: Record<string, string> = {};
  const unclosed = () =>
    new EntityParseError(`Unclosed start tag at byte offset ${byteOffset(source, start)}`);
  if (name === "") {
    throw new EntityParseError(`Unsupported start tag "" at byte offset ${byteOffset(source, start)}`);
  }
  for (;;) {
    while (i < source.length && /\s/.test(source[i])) i++;
    if (i >= source.length) throw unclosed();
    if (source[i] === ">") return { name, attributes, end: i + 1 };
    if (source[i] === "/" && source[i + 1] === ">") return { name, attributes, end: i + 2 };
    const attrStart = i;
    while (i < source.length && /[a-zA-Z0-9_-]/.test(source[i])) i++;
    const attribute = source.slice(attrStart, i).toLowerCase();
    if (attribute === "") throw unclosed();
    let value = "";
    if (source[i] === "=") {
      i++;
      const quote = source[i];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, i + 1);
        if (close < 0) throw unclosed();
        value = decodeHtmlText(source.slice(i + 1, close));
        i = close + 1;
      } else {
        const valueStart = i;
        while (i < source.length && !/[\s>]/.test(source[i])) i++;
        value = decodeHtmlText(source.slice(valueStart, i));
      }
    }
    attributes[attribute] = value;
  }
}

const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** Decodes the HTML entity at `index` (only the four named ones and numeric ones, like Telegram). */
function decodeHtmlEntity(source: string, index: number): [string, number] {
  const match = /^&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/i.exec(source.slice(index, index + 12));
  if (!match) return ["&", 1];
  const body = match[1];
  if (body[0] === "#") {
    const codePoint = body[1] === "x" || body[1] === "X"
      ? parseInt(body.slice(2), 16)
      : parseInt(body.slice(1), 10);
    if (codePoint > 0 && codePoint <= 0x10ffff) return [String.fromCodePoint(codePoint), match[0].length];
    return ["&", 1];
  }
  const named = NAMED_ENTITIES[body.toLowerCase()];
  return named === undefined ? ["&", 1] : [named, match[0].length];
}

function decodeHtmlText(source: string): string {
  let out = "";
  for (let i = 0; i < source.length;) {
    if (source[i] === "&") {
      const [decoded, consumed] = decodeHtmlEntity(source, i);
      out += decoded;
      i += consumed;
    } else out += source[i++];
  }
  return out;
}

// ---------------------------------------------------------------------- MarkdownV2

const MARKDOWN_V2_RESERVED = "_*[]()~`>#+-=|{}.!";

const ENTITY_NAMES: Partial<Record<MessageEntity["type"], string>> = {
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strikethrough: "Strikethrough",
  spoiler: "Spoiler",
  code: "Code",
  pre: "Pre",
  text_link: "TextUrl",
  custom_emoji: "CustomEmoji",
};

/** The MarkdownV2 marker at `i`, longest first (``` before `, __ before _). */
function markdownV2Marker(
  source: string,
  i: number,
): { marker: string; type: MessageEntity["type"] } | undefined {
  if (source.startsWith("```", i)) return { marker: "```", type: "pre" };
  if (source.startsWith("__", i)) return { marker: "__", type: "underline" };
  if (source.startsWith("||", i)) return { marker: "||", type: "spoiler" };
  if (source.startsWith("![", i)) return { marker: "![", type: "custom_emoji" };
  switch (source[i]) {
    case "`":
      return { marker: "`", type: "code" };
    case "_":
      return { marker: "_", type: "italic" };
    case "*":
      return { marker: "*", type: "bold" };
    case "~":
      return { marker: "~", type: "strikethrough" };
    case "[":
      return { marker: "[", type: "text_link" };
  }
  return undefined;
}

function parseMarkdownV2(source: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const stack: OpenEntity[] = [];
  let quoteStart: number | undefined;
  const isEscapable = (index: number) => {
    const code = source.charCodeAt(index);
    return code >= 1 && code <= 126;
  };
  const push = (entity: MessageEntity | undefined) => entity && entities.push(entity);

  let i = 0;
  while (i < source.length) {
    const char = source[i];
    const top = stack.at(-1);

    if (char === "\\" && i + 1 < source.length && isEscapable(i + 1)) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    // Inside code and pre only the closing backticks mean something.
    if (top?.type === "pre" || top?.type === "code") {
      const closing = top.type === "pre" ? "```" : "`";
      if (source.startsWith(closing, i)) {
        stack.pop();
        push(
          toEntity(top, text.length, top.attributes.language ? { language: top.attributes.language } : {}),
        );
        i += closing.length;
      } else {
        text += char;
        i++;
      }
      continue;
    }
    // A block quote runs over consecutive lines starting with ">".
    if (char === "\n" && quoteStart !== undefined && source[i + 1] !== ">") {
      push(toEntity({ type: "blockquote", offset: quoteStart } as OpenEntity, text.length));
      quoteStart = undefined;
    }
    if (char === ">" && (i === 0 || source[i - 1] === "\n")) {
      quoteStart ??= text.length;
      i++;
      continue;
    }
    if ((top?.type === "text_link" || top?.type === "custom_emoji") && char === "]") {
      const { url, end } = readMarkdownUrl(source, i + 1, top);
      stack.pop();
      if (top.type === "custom_emoji") {
        const id = url.match(/^tg:\/\/emoji\?id=(\d+)$/)?.[1] ?? "";
        push(toEntity(top, text.length, { custom_emoji_id: id } as Partial<MessageEntity>));
      } else {
        const normalised = normaliseUrl(url);
        if (normalised !== undefined) {
          push(toEntity(top, text.length, { url: normalised } as Partial<MessageEntity>));
        }
      }
      i = end;
      continue;
    }
    if (!MARKDOWN_V2_RESERVED.includes(char)) {
      text += char;
      i++;
      continue;
    }
    const found = markdownV2Marker(source, i);
    if (!found) {
      throw new EntityParseError(
        `Character '${char}' is reserved and must be escaped with the preceding '\\'`,
      );
    }
    if (top && top.marker === found.marker) {
      stack.pop();
      push(toEntity(top, text.length));
      i += found.marker.length;
      continue;
    }
    const open: OpenEntity = {
      type: found.type,
      marker: found.marker,
      offset: text.length,
      byte: byteOffset(source, i),
      attributes: {},
    };
    i += found.marker.length;
    if (found.type === "pre") {
      // ```language\n…``` — the first line names the language when it is followed by a newline.
      const newline = source.indexOf("\n", i);
      const closing = source.indexOf("```", i);
      if (newline >= 0 && (closing < 0 || newline < closing)) {
        const language = source.slice(i, newline).trim();
        if (language) open.attributes.language = language;
        i = newline + 1;
      }
    }
    stack.push(open);
  }
  const unclosed = stack.pop();
  if (unclosed) {
    throw new EntityParseError(
      `Can't find end of ${
        ENTITY_NAMES[unclosed.type] ?? unclosed.type
      } entity at byte offset ${unclosed.byte}`,
    );
  }
  if (quoteStart !== undefined) {
    push(toEntity({ type: "blockquote", offset: quoteStart } as OpenEntity, text.length));
  }
  return { text, entities: sortEntities(entities) };
}

/** Reads `(url)` after a link's closing bracket; `\)` and `\\` are escapes inside it. */
function readMarkdownUrl(source: string, start: number, open: OpenEntity): { url: string; end: number } {
  if (source[start] !== "(") {
    throw new EntityParseError(
      `Can't find end of ${ENTITY_NAMES[open.type]} entity at byte offset ${open.byte}`,
    );
  }
  let url = "";
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === "\\" && i + 1 < source.length) url += source[++i];
    else if (source[i] === ")") return { url, end: i + 1 };
    else url += source[i];
  }
  throw new EntityParseError(`Can't find end of a url at byte offset ${byteOffset(source, start)}`);
}

// ------------------------------------------------------------------ legacy Markdown

function parseLegacyMarkdown(source: string): FormattedText {
  let text = "";
  const entities: MessageEntity[] = [];
  const fail = (index: number) =>
    new EntityParseError(`Can't find end of the entity starting at byte offset ${byteOffset(source, index)}`);
  const add = (type: MessageEntity["type"], content: string, extra: Partial<MessageEntity> = {}) => {
    if (content.length > 0) {
      entities.push({ type, offset: text.length, length: content.length, ...extra } as MessageEntity);
    }
    text += content;
  };

  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (char === "\\" && "_*`[".includes(source[i + 1] ?? "")) {
      text += source[i + 1];
      i += 2;
    } else if (source.startsWith("```", i)) {
      const end = source.indexOf("```", i + 3);
      if (end < 0) throw fail(i);
      let content = source.slice(i + 3, end);
      let language: string | undefined;
      const newline = content.indexOf("\n");
      if (newline >= 0 && content.slice(0, newline).trim() && !/\s/.test(content.slice(0, newline).trim())) {
        language = content.slice(0, newline).trim();
        content = content.slice(newline + 1);
      }
      add("pre", content, language ? { language } : {});
      i = end + 3;
    } else if (char === "`" || char === "*" || char === "_") {
      const end = source.indexOf(char, i + 1);
      if (end < 0) throw fail(i);
      add(char === "`" ? "code" : char === "*" ? "bold" : "italic", source.slice(i + 1, end));
      i = end + 1;
    } else if (char === "[") {
      const close = source.indexOf("]", i + 1);
      if (close < 0 || source[close + 1] !== "(") throw fail(i);
      const urlEnd = source.indexOf(")", close + 2);
      if (urlEnd < 0) throw fail(i);
      const url = normaliseUrl(source.slice(close + 2, urlEnd));
      const label = source.slice(i + 1, close);
      if (url === undefined) text += label;
      else add("text_link", label, { url } as Partial<MessageEntity>);
      i = urlEnd + 1;
    } else {
      text += char;
      i++;
    }
  }
  return { text, entities: sortEntities(entities) };
}

// ------------------------------------------------------------ automatic entities

/** Entities whose text is not scanned for links, mentions and commands. */
const OPAQUE: MessageEntity["type"][] = [
  "code",
  "pre",
  "text_link",
  "url",
  "mention",
  "hashtag",
  "bot_command",
];

const AUTO_PATTERNS: { type: MessageEntity["type"]; pattern: RegExp }[] = [
  // Only URLs with a scheme or "www.": Telegram also finds bare domains, which would
  // need its list of top-level domains.
  { type: "url", pattern: /(?<![\w@])(?:https?:\/\/|www\.)[^\s<>"]*[^\s<>".,;:!?)\]'}]/gi },
  { type: "mention", pattern: /(?<![\w@])@[a-zA-Z][a-zA-Z0-9_]{4,31}(?![\w@])/g },
  { type: "hashtag", pattern: /(?<![\p{L}\p{N}_#])#[\p{L}\p{N}_]*[\p{L}_][\p{L}\p{N}_]*/gu },
  {
    type: "bot_command",
    pattern: /(?<![\w/])\/[a-zA-Z0-9_]{1,32}(?:@[a-zA-Z][a-zA-Z0-9_]{2,31})?(?![\w/])/g,
  },
];

/**
 * Telegram detects links, @mentions, #hashtags and /commands in every text (also in
 * messages sent by bots) and adds them to `entities`.
 */
export function withDetectedEntities({ text, entities }: FormattedText): FormattedText {
  const taken = entities.filter((entity) => OPAQUE.includes(entity.type));
  const overlaps = (offset: number, length: number) =>
    taken.some((entity) => offset < entity.offset + entity.length && entity.offset < offset + length);
  const found: MessageEntity[] = [];
  for (const { type, pattern } of AUTO_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const entity = { type, offset: match.index!, length: match[0].length } as MessageEntity;
      if (overlaps(entity.offset, entity.length)) continue;
      taken.push(entity);
      found.push(entity);
    }
  }
  return { text, entities: sortEntities([...entities, ...found]) };
}

/** The entities Telegram finds by itself in a plain text (e.g. a message a user types). */
export const detectedEntities = (text: string): MessageEntity[] =>
  withDetectedEntities({ text, entities: [] }).entities;
