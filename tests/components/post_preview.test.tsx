// @vitest-environment happy-dom
/*
 * The shared preview table (tests/cases/post_preview_cases.ts) against the SPA: what PostPreview
 * draws, message by message, is what tests/publishing/post_preview_cases.test.ts reads from the
 * channel after sending the same post.
 */
import { screen, within } from "@testing-library/react";
import { expect, test } from "vitest";
import { PostPreview } from "../../web/src/components/PostPreview/PostPreview.tsx";
import { type ExpectedMessage, PREVIEW_CASES } from "../cases/post_preview_cases.ts";
import { renderIn } from "./render.tsx";

for (const c of PREVIEW_CASES) {
  test(`previewed: ${c.name}`, async () => {
    const imageUrls = Array.from({ length: c.images }, (_, i) => `/api/uploads/image${i}.png`);
    await renderIn(
      "en",
      <PostPreview
        text={c.content}
        entities={[]}
        imageUrls={imageUrls}
        buttons={c.buttons}
        silent={c.silent}
        pin={c.pin}
        ad={c.ad}
        projectLanguage={c.projectLanguage}
      />,
    );
    const messages = await screen.findAllByTestId("post-preview-message");
    const seen: ExpectedMessage[] = messages.map((message) => {
      const inside = within(message);
      const words = inside.queryByTestId("post-preview-text");
      const rows = inside.queryByTestId("post-preview-buttons");
      return {
        part: message.dataset.part as ExpectedMessage["part"],
        images: message.querySelectorAll("img").length,
        words: words?.textContent ?? null,
        buttons: rows ? [...rows.children].map((row) => [...row.children].map((button) => button.textContent ?? "")) : [],
        pinned: inside.queryByText(/Pinned/) !== null,
        silent: inside.queryByText(/Silent/) !== null,
      };
    });
    expect(seen).toEqual(c.expected);
  });
}

// Emoji marks drew as empty boxes where no emoji font is installed (headless Chromium): the
// marks are drawn icons beside their words, and the words alone name them.
for (const [language, pinned, silent] of [["ru", "Закрепится", "Без звука"], ["en", "Pinned", "Silent"]] as const) {
  test(`the pin and silence marks are an icon and words, no emoji (${language})`, async () => {
    await renderIn(language, <PostPreview text="Read me first" entities={[]} silent pin />);
    for (const [testId, words] of [["post-preview-pinned", pinned], ["post-preview-silent", silent]]) {
      const mark = await screen.findByTestId(testId);
      expect(mark.textContent).toBe(words);
      expect(mark.querySelector("svg")?.getAttribute("aria-hidden")).toBe("true");
    }
  });
}
