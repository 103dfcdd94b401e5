/*
 * The assistant's reply as the chat shows it and "save as draft" keeps it
 * (web/src/lib/assistantReply.ts): the model's Markdown as Telegram text plus entities, in
 * UTF-16 units, with no raw markup, at every moment of the stream, and the replies stored
 * before the chat wrote Markdown reading as they did.
 */
import { describe, expect, test } from "vitest";
import { entitiesProblem, type MessageEntity } from "../../contract/entities.ts";
import { assistantReply } from "../../web/src/lib/assistantReply.ts";

const spans = ({ text, entities }: { text: string; entities: MessageEntity[] }) =>
  entities.map((e) => [e.type, text.slice(e.offset, e.offset + e.length), ...(e.url ? [e.url] : [])]);

describe("an assistant reply in Markdown", () => {
  const reply = "🔥 **Книга недели** — «𝕿𝖍𝖊 𝕸𝖆𝖘𝖙𝖊𝖗»\n" +
    "Читайте [отзыв](https://example.com/review_2024) и _делитесь_ мнением 🇷🇺\n\n" +
    "> Рукописи не горят\n\n" +
    "Идеи:\n1. Цитата дня\n2. `#чтение` опрос";

  test("is Telegram text and entities, offsets in UTF-16 units after emoji and other non-BMP characters", () => {
    const { text, entities } = assistantReply(reply);
    expect(text).toBe(
      "🔥 Книга недели — «𝕿𝖍𝖊 𝕸𝖆𝖘𝖙𝖊𝖗»\nЧитайте отзыв и делитесь мнением 🇷🇺\n\nРукописи не горят\n\nИдеи:\n1. Цитата дня\n2. #чтение опрос",
    );
    expect(spans({ text, entities })).toEqual([
      ["bold", "Книга недели"],
      ["text_link", "отзыв", "https://example.com/review_2024"],
      ["italic", "делитесь"],
      ["blockquote", "Рукописи не горят"],
      ["code", "#чтение"],
    ]);
    // "🔥" is two units, so the bold starts at 3; the link comes after nine mathematical
    // letters of two units each: 48 units, though only the 38th character
    expect(entities[0]).toEqual({ type: "bold", offset: 3, length: 12 });
    expect(entities[1]).toEqual({ type: "text_link", offset: 48, length: 5, url: "https://example.com/review_2024" });
    expect(entitiesProblem(text, entities)).toBeNull();
  });

  test("never shows raw markup while it streams in, and every moment's formatting is valid", () => {
    const characters = Array.from(reply);
    for (let end = 1; end <= characters.length; end++) {
      const partial = characters.slice(0, end).join("");
      const { text, entities } = assistantReply(partial);
      expect(text, partial).not.toContain("**");
      expect(entitiesProblem(text, entities), partial).toBeNull();
    }
  });
});

describe("replies stored before the chat wrote Markdown", () => {
  test("plain text reads exactly as it was written", () => {
    for (
      const plain of [
        "Вот три идеи для постов:\n1. Книга недели с короткой рецензией\n2. Цитата дня из классики\n3. Опрос: что читаете сейчас?",
        "Привет! 👋🏽 Вот план:\n\nПонедельник — обзор\nВторник — подборка 📚\n\nПишите в #книжный_клуб",
        "Ссылка: https://example.com/some_page_name?a=1&b=2, файл snake_case_name.txt",
        "Скидка 5 * 3 = 15%, а 2 < 3 > 1; email: reader@example.com",
        "𝒜 𝓃𝑜𝓃-BMP заголовок 🇷🇺\nи вторая строка",
      ]
    ) {
      expect(assistantReply(plain), plain).toEqual({ text: plain, entities: [] });
    }
  });

  test("what changes: a dash list shows Telegram's bullet, blank lines in a row are one, a stray ** goes", () => {
    expect(assistantReply("Идеи:\n- первая\n- вторая")).toEqual({ text: "Идеи:\n• первая\n• вторая", entities: [] });
    expect(assistantReply("Вторник 📚\n\n\n\nПишите")).toEqual({ text: "Вторник 📚\n\nПишите", entities: [] });
    expect(assistantReply("Совет: **важно")).toEqual({ text: "Совет: важно", entities: [] });
  });
});
