/*
 * Formatting as Telegram counts it: offsets and lengths in UTF-16 code units, so an emoji
 * before a bold word moves it by two, and no range may cut an emoji in half.
 */
import { describe, expect, test } from "vitest";
import { entitiesProblem, type MessageEntity } from "../../contract/entities.ts";
import { markdownToEntities } from "../../contract/markdown.ts";

/** The text each entity covers, as a reader of the channel would see it marked. */
const spans = ({ text, entities }: { text: string; entities: MessageEntity[] }) =>
  entities.map((e) => [e.type, text.slice(e.offset, e.offset + e.length), ...(e.url ? [e.url] : []), ...(e.language ? [e.language] : [])]);

describe("entity validation", () => {
  const text = "😀 Bold and a link 👍🏽 end";

  test("ranges after an emoji count two units for it", () => {
    const bold: MessageEntity = { type: "bold", offset: 3, length: 4 };
    expect(text.slice(3, 7)).toBe("Bold");
    expect(entitiesProblem(text, [bold])).toBeNull();
  });

  test("a range past the end, or one that cuts an emoji in half, is refused", () => {
    expect(entitiesProblem(text, [{ type: "bold", offset: 20, length: 10 }])).toBe("entities.outOfRange");
    expect(entitiesProblem(text, [{ type: "italic", offset: 1, length: 3 }])).toBe("entities.splitsCharacter");
    expect(entitiesProblem(text, [{ type: "italic", offset: 0, length: 1 }])).toBe("entities.splitsCharacter");
    // the skin-tone modifier is its own pair: cutting between the two emoji is allowed
    const thumbs = text.indexOf("👍");
    expect(entitiesProblem(text, [{ type: "italic", offset: thumbs, length: 2 }])).toBeNull();
  });

  test("links go only to https:// and tg://, and only text_link carries one", () => {
    const link = (url: string): MessageEntity => ({ type: "text_link", offset: 14, length: 4, url });
    expect(entitiesProblem(text, [link("https://example.com/a?b=c")])).toBeNull();
    expect(entitiesProblem(text, [link("tg://resolve?domain=pressa")])).toBeNull();
    for (const bad of ["http://example.com", "javascript:alert(1)", "https://", "ftp://x.org", "data:text/html,x"]) {
      expect(entitiesProblem(text, [link(bad)]), bad).toBe("entities.badLink");
    }
    expect(entitiesProblem(text, [{ type: "text_link", offset: 14, length: 4 }])).toBe("entities.badLink");
    expect(entitiesProblem(text, [{ type: "bold", offset: 3, length: 4, url: "https://example.com" }])).toBe("entities.badLink");
    expect(entitiesProblem(text, [{ type: "bold", offset: 3, length: 4, language: "js" }])).toBe("entities.unexpectedLanguage");
  });

  test("ranges nest as Telegram allows: no partial overlap, nothing inside code, no quote in a quote", () => {
    const plain = "abcdefghij";
    expect(entitiesProblem(plain, [{ type: "bold", offset: 0, length: 6 }, { type: "italic", offset: 2, length: 2 }])).toBeNull();
    expect(entitiesProblem(plain, [{ type: "bold", offset: 0, length: 6 }, { type: "italic", offset: 0, length: 6 }])).toBeNull();
    expect(entitiesProblem(plain, [{ type: "bold", offset: 0, length: 5 }, { type: "italic", offset: 3, length: 5 }])).toBe("entities.overlap");
    expect(entitiesProblem(plain, [{ type: "code", offset: 0, length: 6 }, { type: "bold", offset: 1, length: 2 }])).toBe("entities.badNesting");
    expect(entitiesProblem(plain, [{ type: "blockquote", offset: 0, length: 8 }, { type: "expandable_blockquote", offset: 1, length: 2 }]))
      .toBe("entities.badNesting");
    expect(entitiesProblem(plain, [{ type: "bold", offset: 0, length: 3 }, { type: "bold", offset: 3, length: 3 }])).toBeNull();
    // the same range: code sits inside the italic or the link, whatever order they come in
    for (const outer of ["italic", "strikethrough", "spoiler", "text_link", "blockquote"] as const) {
      const wrapper = { type: outer, offset: 2, length: 3, ...(outer === "text_link" ? { url: "https://e.com" } : {}) };
      expect(entitiesProblem(plain, [{ type: "code", offset: 2, length: 3 }, wrapper]), outer).toBeNull();
    }
  });
});

describe("Markdown from the AI becomes text and entities", () => {
  test("bold, italic, strikethrough, code and a link, after an emoji", () => {
    const result = markdownToEntities("🚀 **Launch** of _Pressa_: ~~soon~~ `now`, see [the site](https://pressa.app).");
    expect(result.text).toBe("🚀 Launch of Pressa: soon now, see the site.");
    expect(spans(result)).toEqual([
      ["bold", "Launch"],
      ["italic", "Pressa"],
      ["strikethrough", "soon"],
      ["code", "now"],
      ["text_link", "the site", "https://pressa.app"],
    ]);
    expect(result.entities[0].offset).toBe(3);
    expect(entitiesProblem(result.text, result.entities)).toBeNull();
  });

  test("headings become bold lines; lists get markers; quotes and code blocks keep their kind", () => {
    const result = markdownToEntities(
      "# Week in review\n\nThree things:\n\n- one 👍\n- **two**\n\n1. first\n2. second\n\n> A quote\n> on two lines\n\n```ts\nconst x = 1;\n```\n",
    );
    expect(result.text).toBe(
      "Week in review\n\nThree things:\n\n• one 👍\n• two\n\n1. first\n2. second\n\nA quote\non two lines\n\nconst x = 1;",
    );
    expect(spans(result)).toEqual([
      ["bold", "Week in review"],
      ["bold", "two"],
      ["blockquote", "A quote\non two lines"],
      ["pre", "const x = 1;", "ts"],
    ]);
    expect(entitiesProblem(result.text, result.entities)).toBeNull();
  });

  test("no markup reaches the channel: stray stars, unsafe links and HTML stay words", () => {
    const result = markdownToEntities("A **half-closed bold and [a link](http://plain.example) and <b>html</b> and ||a spoiler||");
    expect(result.text).not.toContain("**");
    expect(result.text).toBe("A half-closed bold and a link and <b>html</b> and a spoiler");
    expect(spans(result)).toEqual([["spoiler", "a spoiler"]]);
  });

  test("code inside emphasis or a link stays valid formatting", () => {
    const result = markdownToEntities("*`x`* and [`y`](https://e.com)");
    expect(result.text).toBe("x and y");
    expect(entitiesProblem(result.text, result.entities)).toBeNull();
  });

  test("blocks keep the source's spacing: a list right under its line stays there, a blank line stays one", () => {
    const tight = markdownToEntities("**Итоги недели** 📚\nТри книги:\n- «Мастер и Маргарита»\n- 𝔊𝔬𝔱𝔥𝔦𝔠 𝔫𝔬𝔱𝔢𝔰\n\n\n\nДо встречи!");
    expect(tight.text).toBe("Итоги недели 📚\nТри книги:\n• «Мастер и Маргарита»\n• 𝔊𝔬𝔱𝔥𝔦𝔠 𝔫𝔬𝔱𝔢𝔰\n\nДо встречи!");
    expect(spans(tight)).toEqual([["bold", "Итоги недели"]]);
    expect(markdownToEntities("# Title\nright under it\n> a quote\n\nafter").text).toBe("Title\nright under it\na quote\n\nafter");
    // a loose list keeps its blank lines, a tight one has none
    expect(markdownToEntities("1. one\n\n2. two\n3. three").text).toBe("1. one\n\n2. two\n3. three");
  });

  test("formatting the API would refuse is left out: bold inside bold, past 100 entities", () => {
    for (const markdown of ["### **Idea 1:** a heading in bold", "# **🔥 Title**", "**outer **inner** outer**"]) {
      const result = markdownToEntities(markdown);
      expect(entitiesProblem(result.text, result.entities), markdown).toBeNull();
      expect(result.entities.filter((e) => e.type === "bold"), markdown).toHaveLength(1);
    }
    // 120 bold words, each after an emoji: the first 100 stay, in UTF-16 units
    const many = markdownToEntities(Array.from({ length: 120 }, (_, i) => `😀 **w${i}**`).join(" "));
    expect(many.entities).toHaveLength(100);
    expect(spans(many).at(-1)).toEqual(["bold", "w99"]);
    expect(many.entities[0]).toEqual({ type: "bold", offset: 3, length: 2 });
    expect(entitiesProblem(many.text, many.entities)).toBeNull();
  });

  test("escaped characters are literal", () => {
    const result = markdownToEntities("Price: 5 \\* 3 \\_not italic\\_");
    expect(result.text).toBe("Price: 5 * 3 _not italic_");
    expect(result.entities).toEqual([]);
  });
});
