/*
 * A post's formatting as Telegram's own MessageEntity objects (docs/post-format.md): the
 * text stays plain and literal, and each entity marks a range of it. Offsets and lengths
 * count UTF-16 code units, as Telegram does and as a JavaScript string's indices do, so
 * "😀 bold" has its "bold" at offset 3. Messages go out with `entities` /
 * `caption_entities`, never with a parse_mode, so no character is ever read as markup.
 *
 * Shared by the API (which refuses bad entities), the worker (which sends them) and the
 * web app's editor (which makes them).
 */
import * as v from "valibot";

/** The kinds a Pressa post may carry: what channels use, and what the editor can make. */
export const ENTITY_TYPES = [
  "bold",
  "italic",
  "underline",
  "strikethrough",
  "spoiler",
  "code",
  "pre",
  "text_link",
  "blockquote",
  "expandable_blockquote",
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export type MessageEntity = {
  type: EntityType;
  offset: number;
  length: number;
  /** text_link only: an https:// address or a safe tg:// action (isAllowedLink). */
  url?: string;
  /** pre only: the code's language, for highlighting in Telegram's apps. */
  language?: string;
};

/** Telegram's own cap on the entities of one message; more are dropped silently there. */
export const ENTITIES_MAX = 100;
export const ENTITY_URL_MAX = 2048;
const LANGUAGE_PATTERN = /^[A-Za-z0-9_+#.-]{1,32}$/;

export const EntitySchema = v.object({
  type: v.picklist(ENTITY_TYPES, "entities.unknownType"),
  offset: v.pipe(v.number("entities.invalid"), v.integer("entities.invalid"), v.minValue(0, "entities.invalid")),
  length: v.pipe(v.number("entities.invalid"), v.integer("entities.invalid"), v.minValue(1, "entities.invalid")),
  url: v.optional(v.pipe(v.string("entities.badLink"), v.maxLength(ENTITY_URL_MAX, "entities.badLink"))),
  language: v.optional(v.pipe(v.string("entities.invalid"), v.regex(LANGUAGE_PATTERN, "entities.invalid"))),
});
export const EntitiesSchema = v.pipe(v.array(EntitySchema, "entities.invalid"), v.maxLength(ENTITIES_MAX, "entities.tooMany"));

/**
 * A body's formatting checked against its text (schemas' last step): entities come with the
 * content they format, and must fit it. Content sent without entities is plain.
 */
export function formattingFits<T extends { content?: string; entities?: MessageEntity[] }>() {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.value.entities === undefined) return;
    if (dataset.value.content === undefined) return addIssue({ message: "entities.withoutContent" });
    const problem = entitiesProblem(dataset.value.content, dataset.value.entities);
    if (problem) addIssue({ message: problem });
  });
}

/**
 * The tg:// actions a post's link or button may open (docs/trust-model.md). Each only shows
 * the reader something (a chat or channel, a post, a folder to add, a boost page, the share
 * sheet with a prepared text) and each has an https://t.me twin that any link may carry
 * anyway; the reader still decides what to do there. Everything else is refused, among
 * them the actions a stranger's post must never offer one tap away: `login` accepts a
 * sign-in token (another device gets the reader's account), `proxy` and `socks` route the
 * reader's Telegram through the link's server, `passport` hands over identity documents,
 * and the rest (payments, phone confirmation, settings, language, stickers) by default.
 */
export const SAFE_TG_ACTIONS = ["resolve", "join", "addlist", "privatepost", "boost", "msg_url"] as const;
/** The same actions in their https form (t.me/proxy?server=… is a proxy link too). */
const UNSAFE_TME_ACTIONS = new Set(["login", "proxy", "socks", "passport", "confirmphone"]);
const TME_HOST = /^(www\.)?(t\.me|telegram\.me|telegram\.dog)$/i;

/**
 * A link to a Telegram action a post must not offer (code posts.unsafeLink): any tg: link
 * but tg://<a safe action>, in whatever case or spelling Telegram's apps would still open
 * (tg:login, TG://LOGIN, tg:///login, tg://resolve@login, tg://%6Cogin), and the unsafe
 * actions' https://t.me forms. The action is read from the raw text, letter by letter,
 * not through a URL parser whose idea of the host an app may not share.
 */
export function isUnsafeLink(url: string): boolean {
  if (/^\s*tg:/i.test(url)) {
    const action = /^tg:\/\/([a-z_]+)\/?(?:[?#]|$)/i.exec(url)?.[1].toLowerCase();
    return action === undefined || !(SAFE_TG_ACTIONS as readonly string[]).includes(action) || /[\s\\]/.test(url);
  }
  try {
    const parsed = new URL(url);
    // a fully qualified name ends in a dot (t.me.), and resolves to the same host
    return TME_HOST.test(parsed.hostname.replace(/\.+$/, "")) && UNSAFE_TME_ACTIONS.has(tmeAction(parsed.pathname));
  } catch {
    return false;
  }
}

/**
 * The action of a t.me path as Telegram's apps read it, normalised before it is judged:
 * percent-escapes of ASCII decoded until none is left (%70roxy, %2570roxy and %2Fproxy are
 * proxy), empty segments skipped (//proxy), then the segment's leading name, in lower case
 * (proxy;x is proxy). Judged raw, each of these slipped past as no action at all.
 */
function tmeAction(pathname: string): string {
  let path = pathname;
  for (;;) { // each pass shortens the path, so this ends
    const decoded = path.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === path) break;
    path = decoded;
  }
  const segment = path.split(/[/\\]/).find((part) => part !== "") ?? "";
  return (/^[a-z0-9_]*/i.exec(segment)?.[0] ?? "").toLowerCase();
}

/** Links a channel post may carry: the web over TLS, or Telegram's own safe tg:// actions. */
export function isAllowedLink(url: string): boolean {
  if (!/^(https|tg):\/\//i.test(url) || isUnsafeLink(url)) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "tg:" || parsed.hostname.length > 0;
  } catch {
    return false;
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** A boundary inside a surrogate pair would cut an emoji in half. */
const splitsPair = (text: string, index: number) =>
  index > 0 && index < text.length && isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index));

const CONTAINS_NOTHING: ReadonlySet<EntityType> = new Set(["code", "pre"]);
const QUOTES: ReadonlySet<EntityType> = new Set(["blockquote", "expandable_blockquote"]);

/** Of two entities on the same range, which holds the other: quotes outermost, code innermost. */
const DEPTH: Record<EntityType, number> = {
  blockquote: 0,
  expandable_blockquote: 0,
  text_link: 1,
  bold: 2,
  italic: 2,
  underline: 2,
  strikethrough: 2,
  spoiler: 2,
  code: 3,
  pre: 3,
};

/** Entities in Telegram's order: by offset, the longer (outer) one first, then outer kinds first. */
export function sortEntities(entities: readonly MessageEntity[]): MessageEntity[] {
  return [...entities].sort((a, b) =>
    a.offset - b.offset || b.length - a.length || DEPTH[a.type] - DEPTH[b.type] || a.type.localeCompare(b.type)
  );
}

/**
 * Why these entities cannot format this text, as an error code (null when they can):
 * every range inside the text and on whole characters, the fields each kind needs and no
 * others, links only to https:// or a safe tg:// action, and ranges that nest as Telegram allows (no
 * partial overlaps; nothing inside code or pre; no quote inside a quote).
 */
export function entitiesProblem(text: string, entities: readonly MessageEntity[]): string | null {
  for (const entity of entities) {
    const end = entity.offset + entity.length;
    if (end > text.length) return "entities.outOfRange";
    if (splitsPair(text, entity.offset) || splitsPair(text, end)) return "entities.splitsCharacter";
    if (entity.type === "text_link" && entity.url !== undefined && isUnsafeLink(entity.url)) return "posts.unsafeLink";
    if (entity.type === "text_link" ? !entity.url || !isAllowedLink(entity.url) : entity.url !== undefined) {
      return "entities.badLink";
    }
    if (entity.language !== undefined && entity.type !== "pre") return "entities.unexpectedLanguage";
  }
  const open: MessageEntity[] = [];
  for (const entity of sortEntities(entities)) {
    while (open.length > 0 && open.at(-1)!.offset + open.at(-1)!.length <= entity.offset) open.pop();
    const end = entity.offset + entity.length;
    for (const outer of open) {
      if (end > outer.offset + outer.length) return "entities.overlap";
      if (CONTAINS_NOTHING.has(outer.type)) return "entities.badNesting";
      if (QUOTES.has(outer.type) && QUOTES.has(entity.type)) return "entities.badNesting";
      if (outer.type === entity.type) return "entities.badNesting";
    }
    open.push(entity);
  }
  return null;
}
