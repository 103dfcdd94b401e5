/*
 * How the sandbox screen cuts a Telegram message (web/src/lib/sandboxText.ts): pieces at its
 * entities' edges, nested entities kept together, UTF-16 offsets as Telegram counts them; and
 * an album's messages drawn as one.
 */
import { expect, test } from "vitest";
import { albumGroups, textPieces } from "../../web/src/lib/sandboxText.ts";

test("a text with nested entities and an emoji is cut where Telegram's offsets say", () => {
  const text = "👍 Bold italic, link";
  const bold = { type: "bold", offset: 3, length: 11 };
  const italic = { type: "italic", offset: 8, length: 6 };
  const link = { type: "text_link", offset: 16, length: 4, url: "https://example.com" };
  expect(textPieces(text, [bold, italic, link])).toEqual([
    { text: "👍 ", entities: [] },
    { text: "Bold ", entities: [bold] },
    { text: "italic", entities: [bold, italic] },
    { text: ", ", entities: [] },
    { text: "link", entities: [link] },
  ]);
  expect(textPieces("plain", [])).toEqual([{ text: "plain", entities: [] }]);
});

test("an album's messages stand together; others, even between albums, alone", () => {
  const messages = [{ id: 1, albumId: "a" }, { id: 2, albumId: "a" }, { id: 3 }, { id: 4, albumId: "b" }, { id: 5, albumId: "b" }, { id: 6 }];
  expect(albumGroups(messages).map((group) => group.map((m) => m.id))).toEqual([[1, 2], [3], [4, 5], [6]]);
});
