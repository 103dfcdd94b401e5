// parse_mode handling of the Telegram double, checked against the Bot API's
// "Formatting options" section.

import { describe, expect, test } from "vitest";
import { BotApiError } from "../../sandbox/telegram/errors.ts";
import { detectedEntities, formatText } from "../../sandbox/telegram/formatting.ts";

const html = (source: string) => formatText(source, "HTML", undefined);
const markdownV2 = (source: string) => formatText(source, "MarkdownV2", undefined);

function parseError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BotApiError);
    return (error as BotApiError).description;
  }
  throw new Error("expected a parse error");
}

describe("HTML", () => {
  test("nested tags, entities in UTF-16 offsets, HTML escapes", () => {
    expect(html("<b>bold <i>both</i></b> 🙂 <u>under</u> &lt;tag&gt; &#169;")).toEqual({
      text: "bold both 🙂 under <tag> ©",
      entities: [
        { type: "bold", offset: 0, length: 9 },
        { type: "italic", offset: 5, length: 4 },
        { type: "underline", offset: 13, length: 5 }, // the emoji counts as 2 UTF-16 units
      ],
    });
  });

  test("pre with a language, spoiler, blockquote, links", () => {
    const result = html(
      '<pre><code class="language-ts">let x = 1;</code></pre><tg-spoiler>s</tg-spoiler><blockquote expandable>q</blockquote><a href="http://t.me/x">t</a>',
    );
    expect(result.entities).toEqual([
      { type: "pre", offset: 0, length: 10, language: "ts" },
      { type: "spoiler", offset: 10, length: 1 },
      { type: "expandable_blockquote", offset: 11, length: 1 },
      { type: "text_link", offset: 12, length: 1, url: "http://t.me/x" },
    ]);
  });

  test("Telegram's errors for bad markup", () => {
    expect(parseError(() => html("a <br> b"))).toBe(
      'Bad Request: can\'t parse entities: Unsupported start tag "br" at byte offset 2',
    );
    expect(parseError(() => html("<b>open"))).toBe(
      "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    );
    expect(parseError(() => html("<b><i>x</b></i>"))).toBe(
      'Bad Request: can\'t parse entities: Unmatched end tag at byte offset 7, expected "</i>", found "</b>"',
    );
    expect(parseError(() => formatText("x", "BBCode", undefined))).toBe(
      "Bad Request: unsupported parse_mode",
    );
  });
});

describe("MarkdownV2", () => {
  test("markers, escapes and links", () => {
    expect(markdownV2("*bold* _it_ __under__ ~gone~ ||secret|| `code` [site](https://a.example) 1\\.5"))
      .toEqual({
        text: "bold it under gone secret code site 1.5",
        entities: [
          { type: "bold", offset: 0, length: 4 },
          { type: "italic", offset: 5, length: 2 },
          { type: "underline", offset: 8, length: 5 },
          { type: "strikethrough", offset: 14, length: 4 },
          { type: "spoiler", offset: 19, length: 6 },
          { type: "code", offset: 26, length: 4 },
          { type: "text_link", offset: 31, length: 4, url: "https://a.example/" },
        ],
      });
  });

  test("pre blocks keep reserved characters and take a language", () => {
    expect(markdownV2("```python\nprint(1.5)\n```")).toEqual({
      text: "print(1.5)",
      entities: [{ type: "pre", offset: 0, length: 10, language: "python" }],
    });
  });

  test("unescaped reserved characters and unclosed entities are refused", () => {
    expect(parseError(() => markdownV2("Price: 1.5"))).toBe(
      "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    );
    expect(parseError(() => markdownV2("an _open one"))).toBe(
      "Bad Request: can't parse entities: Can't find end of Italic entity at byte offset 3",
    );
  });
});

describe("legacy Markdown", () => {
  test("bold, italic, code and links; unclosed entities refused", () => {
    expect(formatText("*b* _i_ `c` [l](https://x.example/p)", "Markdown", undefined)).toEqual({
      text: "b i c l",
      entities: [
        { type: "bold", offset: 0, length: 1 },
        { type: "italic", offset: 2, length: 1 },
        { type: "code", offset: 4, length: 1 },
        { type: "text_link", offset: 6, length: 1, url: "https://x.example/p" },
      ],
    });
    expect(parseError(() => formatText("a *b", "Markdown", undefined))).toBe(
      "Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 2",
    );
  });
});

describe("what Telegram does to every text", () => {
  test("leading and trailing whitespace is trimmed, entities move along", () => {
    expect(html("\n  <b>hi</b>  \n")).toEqual({
      text: "hi",
      entities: [{ type: "bold", offset: 0, length: 2 }],
    });
  });

  test("explicit entities are kept when there is no parse_mode", () => {
    const entities = [{ type: "bold" as const, offset: 0, length: 2 }];
    expect(formatText("hi there", undefined, entities).entities).toEqual(entities);
  });

  test("links, mentions, hashtags and commands are detected", () => {
    expect(detectedEntities("/start@pressa_bot see https://pressa.example/a, @someone #новости")).toEqual([
      { type: "bot_command", offset: 0, length: 17 },
      { type: "url", offset: 22, length: 24 }, // without the trailing comma
      { type: "mention", offset: 48, length: 8 },
      { type: "hashtag", offset: 57, length: 8 },
    ]);
    // …but not inside code.
    expect(html("<code>/start</code>").entities).toEqual([{ type: "code", offset: 0, length: 6 }]);
  });
});
