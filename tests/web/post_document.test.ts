/*
 * The post editor's conversions (web/src/lib/postDocument.ts): Telegram's text + entities to
 * the editor's document and back. Round trips are exact for what the document can hold,
 * every answer passes the API's own check (entitiesProblem), and what the document cannot
 * hold degrades as the module documents. The document is checked against the editor's
 * real schema (web/src/components/PostEditor/extensions.ts).
 */
import { getSchema } from "@tiptap/core";
import { describe, expect, test } from "vitest";
import { entitiesProblem, ENTITY_TYPES, type MessageEntity, sortEntities } from "../../contract/entities.ts";
import { postExtensions } from "../../web/src/components/PostEditor/extensions.ts";
import {
  type DocNode,
  type FormattedText,
  fromDocument,
  normalizeLink,
  sameFormattedText,
  toDocument,
} from "../../web/src/lib/postDocument.ts";

const schema = getSchema(postExtensions({ placeholder: () => "", onLinkShortcut: () => {} }));

const e = (type: MessageEntity["type"], offset: number, length: number, extra: Partial<MessageEntity> = {}): MessageEntity => ({
  type,
  offset,
  length,
  ...extra,
});

/** text + entities → document → text + entities, with the document checked by the editor's schema. */
function roundTrip(text: string, entities: MessageEntity[]): FormattedText {
  const doc = toDocument(text, entities);
  schema.nodeFromJSON(doc).check();
  return fromDocument(doc);
}

function expectExact(text: string, entities: MessageEntity[]) {
  expect(entitiesProblem(text, entities)).toBeNull();
  expect(roundTrip(text, entities)).toEqual({ text, entities: sortEntities(entities) });
}

const p = (...content: DocNode[]): DocNode => ({ type: "paragraph", content });
const t = (text: string, ...marks: string[]): DocNode =>
  marks.length === 0 ? { type: "text", text } : { type: "text", text, marks: marks.map((type) => ({ type })) };
const doc = (...content: DocNode[]): DocNode => ({ type: "doc", content });

describe("exact round trips", () => {
  test("plain text keeps every line: empty lines, a leading and a trailing newline", () => {
    for (const text of ["", "one line", "a\nb", "a\n\nb", "a\n", "\n", "\n\nx\n\n", "😀\n\n👍🏽 ok\n"]) expectExact(text, []);
  });

  test("one paragraph per line", () => {
    expect(toDocument("a\n\nb", [])).toEqual(doc(p(t("a")), { type: "paragraph" }, p(t("b"))));
  });

  test("offsets count UTF-16 code units: an emoji before bold moves it by 2", () => {
    expectExact("😀 bold", [e("bold", 3, 4)]);
    expectExact("👨‍👩‍👧 family 🇷🇺 flag", [e("italic", 0, 8), e("underline", 16, 4)]);
    expectExact("𝒳 math", [e("spoiler", 0, 2)]);
  });

  test("nested bold, italic and a link", () => {
    const text = "Read the docs now, please";
    expectExact(text, [
      e("text_link", 0, 17, { url: "https://example.com/docs" }),
      e("bold", 0, 13),
      e("italic", 9, 4),
      e("strikethrough", 19, 6),
    ]);
  });

  test("every inline kind, code inside bold and inside a link", () => {
    const text = "bold code, link code, spoiler, underline";
    expectExact(text, [
      e("bold", 0, 9),
      e("code", 5, 4),
      e("text_link", 11, 9, { url: "tg://resolve?domain=pressa" }),
      e("code", 16, 4),
      e("spoiler", 22, 7),
      e("underline", 31, 9),
    ]);
  });

  test("a range over several lines is one entity", () => {
    expectExact("first\nsecond\nthird", [e("bold", 0, 18), e("italic", 3, 6)]);
  });

  test("quotes hold whole lines, inline formatting inside them, and may be expandable", () => {
    const text = "Intro\nquoted line\nsecond quoted\nafter\nhidden\nmore";
    expectExact(text, [
      e("blockquote", 6, 25),
      e("bold", 6, 6),
      e("expandable_blockquote", 38, 11),
      e("italic", 45, 4),
    ]);
    expect(toDocument("q", [e("expandable_blockquote", 0, 1)])).toEqual(
      doc({ type: "blockquote", attrs: { expandable: true }, content: [p(t("q"))] }),
    );
  });

  test("a quote may begin or end with an empty line, and two quotes may follow each other", () => {
    expectExact("a\n\nb\nc", [e("blockquote", 2, 2)]);
    expectExact("a\n\nb", [e("blockquote", 0, 2)]);
    expectExact("one\ntwo", [e("blockquote", 0, 3), e("blockquote", 4, 3)]);
  });

  test("pre over whole lines is a code block with its language, also inside a quote", () => {
    const text = "Run:\nnpm install\nnpm start\ndone";
    expectExact(text, [e("pre", 5, 21, { language: "bash" })]);
    expectExact(text, [e("pre", 5, 21)]);
    expectExact(text, [e("blockquote", 0, 26), e("pre", 5, 21, { language: "sh" })]);
    expect(toDocument("x\ncode", [e("pre", 2, 4, { language: "js" })])).toEqual(
      doc(p(t("x")), { type: "codeBlock", attrs: { language: "js" }, content: [{ type: "text", text: "code" }] }),
    );
  });

  test("links with different addresses stay apart when they touch", () => {
    expectExact("ab", [e("text_link", 0, 1, { url: "https://a.example" }), e("text_link", 1, 1, { url: "https://b.example" })]);
  });

  test("partial overlaps are split so that they nest; the result is stable", () => {
    // bold [0,4) and italic [2,6) overlap: the API refuses that, the editor's document holds it.
    const nested = fromDocument(doc(p(t("ab", "bold"), t("cd", "bold", "italic"), t("ef", "italic"))));
    expect(nested.entities).toEqual([e("bold", 0, 4), e("italic", 2, 2), e("italic", 4, 2)]);
    expectExact(nested.text, nested.entities);
  });
});

describe("consistent merging", () => {
  test("touching ranges of one kind merge", () => {
    expect(roundTrip("abcd", [e("bold", 0, 2), e("bold", 2, 2)])).toEqual({ text: "abcd", entities: [e("bold", 0, 4)] });
  });

  test("ranges of one kind on two lines merge over the newline between them", () => {
    expect(roundTrip("a\nb", [e("bold", 0, 1), e("bold", 2, 1)])).toEqual({ text: "a\nb", entities: [e("bold", 0, 3)] });
  });

  test("the same link address on both sides of a newline is one link", () => {
    const url = "https://example.com";
    expect(roundTrip("a\nb", [e("text_link", 0, 1, { url }), e("text_link", 2, 1, { url })]).entities).toEqual([
      e("text_link", 0, 3, { url }),
    ]);
  });
});

describe("what the document cannot hold degrades to valid entities", () => {
  test("a range over an empty line is cut there", () => {
    expect(roundTrip("a\n\nb", [e("bold", 0, 4)]).entities).toEqual([e("bold", 0, 1), e("bold", 3, 1)]);
  });

  test("a range ending on a newline leaves the newline out", () => {
    expect(roundTrip("a\nb", [e("bold", 0, 2)]).entities).toEqual([e("bold", 0, 1)]);
    expect(roundTrip("a\nb", [e("italic", 1, 2)]).entities).toEqual([e("italic", 2, 1)]);
  });

  test("a quote over part of a line quotes the whole line", () => {
    expect(roundTrip("say: hello there\nnext", [e("blockquote", 5, 5)]).entities).toEqual([e("blockquote", 0, 16)]);
  });

  test("a quote starting at the newline that ends a line starts on the next line", () => {
    expect(roundTrip("a\nbc\nd", [e("blockquote", 1, 3)]).entities).toEqual([e("blockquote", 2, 2)]);
  });

  test("quotes sharing a line become one; a quote of nothing but a newline goes", () => {
    expect(roundTrip("ab cd\nef", [e("blockquote", 0, 2), e("expandable_blockquote", 3, 5)]).entities).toEqual([
      e("blockquote", 0, 8),
    ]);
    expect(roundTrip("a\nb", [e("blockquote", 1, 1)]).entities).toEqual([]);
  });

  test("formatting is cut at a quote's edge", () => {
    expect(roundTrip("ab\ncd\nef", [e("bold", 0, 8), e("blockquote", 3, 2)]).entities).toEqual([
      e("bold", 0, 2),
      e("blockquote", 3, 2),
      e("bold", 3, 2),
      e("bold", 6, 2),
    ]);
  });

  test("pre inside a line becomes inline code and loses its language", () => {
    expect(roundTrip("run npm i now", [e("pre", 4, 5, { language: "sh" })]).entities).toEqual([e("code", 4, 5)]);
  });

  test("links other than https:// and tg://, and bad languages, are dropped; the text stays", () => {
    const result = roundTrip("a b c", [
      e("text_link", 0, 1, { url: "http://example.com" }),
      e("text_link", 2, 1, { url: "javascript:alert(1)" }),
      e("text_link", 4, 1, { url: `https://example.com/${"x".repeat(2100)}` }),
    ]);
    expect(result).toEqual({ text: "a b c", entities: [] });
    expect(roundTrip("code", [e("pre", 0, 4, { language: "not a language" })]).entities).toEqual([e("pre", 0, 4)]);
  });

  test("code with exactly another entity's range sits inside it, and both stay", () => {
    expect(roundTrip("abc", [e("code", 0, 3), e("italic", 0, 3)]).entities).toEqual([e("italic", 0, 3), e("code", 0, 3)]);
    const url = "https://example.com";
    expect(roundTrip("abc", [e("code", 0, 3), e("text_link", 0, 3, { url })]).entities).toEqual([e("text_link", 0, 3, { url }), e("code", 0, 3)]);
    expect(roundTrip("abc", [e("bold", 0, 3), e("code", 0, 3)]).entities).toEqual([e("bold", 0, 3), e("code", 0, 3)]);
  });

  test("ranges past the text or of unknown kinds are ignored", () => {
    const entities = [e("bold", 2, 50), e("italic", 40, 2), { type: "mention", offset: 0, length: 1 } as unknown as MessageEntity];
    expect(roundTrip("abcd", entities)).toEqual({ text: "abcd", entities: [e("bold", 2, 2)] });
  });
});

describe("documents the editor makes", () => {
  test("pasted structure it has no place for: an inner quote joins the outer one, a heading reads as a line", () => {
    const pasted = doc(
      { type: "heading", attrs: { level: 1 }, content: [t("Title", "bold")] },
      { type: "blockquote", content: [p(t("a")), { type: "blockquote", content: [p(t("b"))] }] },
    );
    expect(fromDocument(pasted)).toEqual({ text: "Title\na\nb", entities: [e("bold", 0, 5), e("blockquote", 6, 3)] });
  });

  test("a hard break is a newline, and formatting on both sides runs over it", () => {
    const result = fromDocument(doc(p(t("a", "italic"), { type: "hardBreak" }, t("b", "italic"))));
    expect(result).toEqual({ text: "a\nb", entities: [e("italic", 0, 3)] });
  });

  test("a mark never splits an emoji's two code units", () => {
    const result = fromDocument(doc(p(t("x\uD83D", "bold"), t("\uDE00y"))));
    expect(result).toEqual({ text: "x😀y", entities: [e("bold", 0, 3)] });
  });

  test("an empty document, empty code blocks and quotes add no entities", () => {
    expect(fromDocument({ type: "doc" })).toEqual({ text: "", entities: [] });
    expect(fromDocument(doc({ type: "codeBlock", attrs: { language: "js" } }, { type: "blockquote", content: [{ type: "paragraph" }] })))
      .toEqual({ text: "\n", entities: [] });
  });
});

test("normalizeLink takes https:// for a bare address and refuses other schemes", () => {
  expect(normalizeLink(" t.me/pressa ")).toBe("https://t.me/pressa");
  expect(normalizeLink("https://example.com/a?b=c")).toBe("https://example.com/a?b=c");
  expect(normalizeLink("tg://resolve?domain=pressa")).toBe("tg://resolve?domain=pressa");
  for (const bad of ["", "http://example.com", "javascript:alert(1)", "mailto:a@b.c", "two words", "https://"]) {
    expect(normalizeLink(bad)).toBeNull();
  }
});

test("sameFormattedText ignores the order of entities only", () => {
  const a = { text: "ab", entities: [e("bold", 0, 1), e("italic", 1, 1)] };
  expect(sameFormattedText(a, { text: "ab", entities: [e("italic", 1, 1), e("bold", 0, 1)] })).toBe(true);
  expect(sameFormattedText(a, { text: "ab", entities: [e("bold", 0, 1)] })).toBe(false);
  expect(sameFormattedText(a, { text: "ab", entities: [e("bold", 0, 1), e("italic", 1, 1, { url: undefined }), e("code", 0, 1)] }))
    .toBe(false);
});

// ---------------------------------------------------------------------------------------
// Randomised: documents and entity lists from a fixed seed, so a failure reproduces.

function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

const PIECES = ["a", "b", "cd", " ", "😀", "é", "👍🏽", "\n", "x y"];
const MARKS = ["bold", "italic", "underline", "strike", "spoiler", "code", "link"];
const HREFS = ["https://a.example", "https://b.example/x", "tg://resolve?domain=x", "http://refused.example"];

function randomDocument(seed: number): DocNode {
  const { next, int, pick } = random(seed);
  const inline = (): DocNode[] =>
    Array.from({ length: int(5) }, (): DocNode => {
      if (next() < 0.1) return { type: "hardBreak" };
      const text = Array.from({ length: 1 + int(3) }, () => pick(PIECES.filter((piece) => piece !== "\n" || next() < 0.2))).join("");
      const marks = MARKS.filter(() => next() < 0.3).map((type) =>
        type === "link" ? { type, attrs: { href: pick(HREFS) } } : { type }
      );
      return { type: "text", text, marks };
    });
  const paragraph = (): DocNode => ({ type: "paragraph", content: inline() });
  const codeBlock = (): DocNode => ({
    type: "codeBlock",
    attrs: { language: pick([null, "js", "c++", "no such language"]) },
    content: next() < 0.2 ? [] : [{ type: "text", text: pick(["x", "let a;\nlet b;", "😀\n\n", "\n"]) }],
  });
  const block = (depth: number): DocNode => {
    const roll = next();
    if (roll < 0.2 && depth < 2) {
      const content = Array.from({ length: 1 + int(3) }, () => (next() < 0.2 ? codeBlock() : next() < 0.1 ? block(depth + 1) : paragraph()));
      return { type: "blockquote", attrs: { expandable: next() < 0.5 }, content };
    }
    if (roll < 0.3) return codeBlock();
    if (roll < 0.33) return { type: "heading", attrs: { level: 2 }, content: inline() };
    return paragraph();
  };
  return { type: "doc", content: Array.from({ length: int(7) }, () => block(0)) };
}

/** Valid (text, entities) made by adding random entities while entitiesProblem accepts them. */
function randomEntities(seed: number): FormattedText {
  const { next, int, pick } = random(seed);
  const text = Array.from({ length: 3 + int(25) }, () => pick(PIECES)).join("");
  const entities: MessageEntity[] = [];
  for (let tries = 0; tries < 30; tries++) {
    const offset = int(text.length);
    const candidate = e(pick(ENTITY_TYPES), offset, 1 + int(text.length - offset));
    if (candidate.type === "text_link") candidate.url = pick(HREFS.slice(0, 3));
    if (candidate.type === "pre" && next() < 0.5) candidate.language = "ts";
    if (entitiesProblem(text, [...entities, candidate]) === null) entities.push(candidate);
  }
  return { text, entities };
}

/**
 * Valid inline formatting of one line, with no two ranges of one kind touching: exactly what
 * the document holds, so it must come back unchanged.
 */
function randomLineFormatting(seed: number): FormattedText {
  const { int, pick } = random(seed);
  const text = Array.from({ length: 3 + int(25) }, () => pick(PIECES.filter((piece) => piece !== "\n"))).join("");
  const inlineTypes = ENTITY_TYPES.filter((type) => !["pre", "blockquote", "expandable_blockquote"].includes(type));
  const entities: MessageEntity[] = [];
  const touches = (a: MessageEntity, b: MessageEntity) =>
    a.type === b.type && a.url === b.url && (a.offset + a.length === b.offset || b.offset + b.length === a.offset);
  for (let tries = 0; tries < 40; tries++) {
    const offset = int(text.length);
    const candidate = e(pick(inlineTypes), offset, 1 + int(text.length - offset));
    if (candidate.type === "text_link") candidate.url = pick(HREFS.slice(0, 2));
    if (entities.some((other) => touches(other, candidate))) continue;
    if (entitiesProblem(text, [...entities, candidate]) === null) entities.push(candidate);
  }
  return { text, entities };
}

const SEEDS = Array.from({ length: 400 }, (_, i) => 20250301 + i);

test("valid formatting of a line comes back exactly", () => {
  for (const seed of SEEDS) {
    const { text, entities } = randomLineFormatting(seed);
    expect(roundTrip(text, entities), `seed ${seed}`).toEqual({ text, entities: sortEntities(entities) });
  }
});

test("every document gives entities the API accepts, and they come back exactly", () => {
  for (const seed of SEEDS) {
    const value = fromDocument(randomDocument(seed));
    expect(entitiesProblem(value.text, value.entities), `seed ${seed}: ${JSON.stringify(value)}`).toBeNull();
    expect(roundTrip(value.text, value.entities), `seed ${seed}`).toEqual(value);
  }
});

test("any valid text and entities keep their text, come out valid, and are then stable", () => {
  for (const seed of SEEDS) {
    const input = randomEntities(seed);
    const value = roundTrip(input.text, input.entities);
    expect(value.text, `seed ${seed}`).toBe(input.text);
    expect(entitiesProblem(value.text, value.entities), `seed ${seed}: ${JSON.stringify(input)}`).toBeNull();
    expect(roundTrip(value.text, value.entities), `seed ${seed}`).toEqual(value);
  }
});
