/*
 * The post editor in the draft dialog, in Chromium (issue 16 "Must show"): Ctrl+B makes bold
 * and Ctrl+K a link, the Telegram-like preview shows them, the draft stores Telegram's
 * entities (UTF-16 offsets: an emoji before the bold word counts two), reopening shows the
 * formatting again, the counter turns red and says so past the limit, and the post options
 * (silent, a URL button, checked inline) come back after reopening. Screenshots of the
 * dialog in light and dark at 1440 and 390 px.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, createProjectInPage, openBrowserStack, signInThroughUi } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack());
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 5_000 };
const LINK = "https://example.com/book";
const BUTTON = { text: "Купить", url: "https://example.com/buy" };

type StoredDraft = { id: number; title: string; content: string; entities: unknown[]; options: Record<string, unknown> };

async function storedDrafts(projectId: number): Promise<StoredDraft[]> {
  return await page.evaluate(async (id) => {
    const res = await fetch(`/api/projects/${id}/drafts`);
    return (await res.json()) as StoredDraft[];
  }, projectId);
}

/** Screenshots of the open dialog at a width and colour scheme; the page is put back after. */
async function shoot(name: string, dialog: Locator) {
  for (const width of [1440, 390]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(250);
      // On a phone the preview sits under the text: scroll to it; wide, it is beside the text.
      if (width === 390) await dialog.getByTestId("post-preview").scrollIntoViewIfNeeded();
      else await dialog.getByTestId("draft-title").scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-${width}-${scheme}`);
      await dialog.getByTestId("draft-save").scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-${width}-${scheme}-end`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}

test("the draft dialog's editor formats, previews, saves entities and options, and warns past the limit", async () => {
  await signInThroughUi(page, stack, "olga.redactor@example.com");
  const project = await createProjectInPage(page, { name: "Книжный клуб", adminHandle: "book_club_admin" });
  await page.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await page.getByTestId("new-draft").first().click();
  const dialog = page.getByRole("dialog", { name: "Новый черновик" });
  await dialog.getByTestId("draft-title").fill("Новинки недели");

  // Type "🔥 " then a bold word (Ctrl+B on, off), then a word made a link with Ctrl+K.
  const editor = dialog.getByTestId("draft-content");
  await editor.click();
  await page.keyboard.insertText("🔥 ");
  await page.keyboard.press("Control+B");
  await page.keyboard.type("Жирно");
  await page.keyboard.press("Control+B");
  await page.keyboard.type(" и ссылка");
  for (let i = 0; i < "ссылка".length; i++) await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("Control+K");
  const linkInput = page.getByTestId("post-editor-link-input");
  await expect.poll(() => linkInput.isVisible(), soon).toBe(true);
  await linkInput.fill(LINK);
  await page.keyboard.press("Enter");
  await expect.poll(() => editor.locator("a").getAttribute("href"), soon).toBe(LINK);

  // The preview renders them as Telegram does: a <strong> and a link opening in a new tab.
  const preview = dialog.getByTestId("post-preview");
  await expect.poll(() => preview.locator("strong").textContent(), soon).toBe("Жирно");
  const link = preview.locator("a", { hasText: "ссылка" });
  expect(await link.textContent()).toBe("ссылка");
  expect(await link.getAttribute("href")).toBe(LINK);
  expect(await link.getAttribute("target")).toBe("_blank");
  expect(await link.getAttribute("rel")).toContain("noopener");
  expect(await preview.getByTestId("post-preview-text").textContent()).toBe("🔥 Жирно и ссылка");

  // Options, collapsed at first: silent, and one URL button whose address is checked inline.
  const options = dialog.getByTestId("post-options");
  const toggle = dialog.getByTestId("post-options-toggle");
  expect(await toggle.getAttribute("aria-expanded")).toBe("false");
  await toggle.click();
  await expect.poll(() => options.isVisible(), soon).toBe(true);
  await options.getByRole("switch", { name: "Без звука" }).check();
  await options.getByTestId("option-add-row").click();
  await options.getByTestId("option-button-text").fill(BUTTON.text);
  await options.getByTestId("option-button-url").fill("http://example.com/buy");
  await options.getByTestId("option-button-url").blur();
  await expect.poll(() => options.getByText("Кнопка ведёт только на адрес https:// или tg://").count(), soon).toBe(1);
  await options.getByTestId("option-button-url").fill(BUTTON.url);
  await expect.poll(() => options.getByText("Кнопка ведёт только на адрес https:// или tg://").count(), soon).toBe(0);
  const previewButton = preview.getByTestId("post-preview-buttons").getByRole("link", { name: BUTTON.text });
  expect(await previewButton.getAttribute("href")).toBe(BUTTON.url);
  await shoot("post-editor-dialog", dialog);

  await dialog.getByTestId("draft-save").click();
  await expect.poll(() => dialog.isVisible(), soon).toBe(false);
  const [saved] = await storedDrafts(project.id);
  expect(saved.content).toBe("🔥 Жирно и ссылка");
  // "🔥" is two UTF-16 code units, so "Жирно" starts at 3.
  expect(saved.entities).toEqual([
    { type: "bold", offset: 3, length: 5 },
    { type: "text_link", offset: 11, length: 6, url: LINK },
  ]);
  expect(saved.options).toEqual({ silent: true, buttons: [[BUTTON]] });
  const [row] = await stack.sql`select entities, options from app_public.drafts where id = ${saved.id}`;
  expect(row.entities).toEqual(saved.entities);

  // Reopened, the draft shows its formatting, in the editor and in the preview, and its options.
  await page.getByTestId("edit-draft").first().click();
  const reopened = page.getByRole("dialog", { name: "Редактирование черновика" });
  const again = reopened.getByTestId("draft-content");
  await expect.poll(() => again.locator("strong").textContent(), soon).toBe("Жирно");
  expect(await again.locator("a").getAttribute("href")).toBe(LINK);
  expect(await reopened.getByTestId("post-preview").locator("strong").textContent()).toBe("Жирно");
  await reopened.getByTestId("post-options-toggle").click();
  const reopenedOptions = reopened.getByTestId("post-options");
  await expect.poll(() => reopenedOptions.getByRole("switch", { name: "Без звука" }).isChecked(), soon).toBe(true);
  expect(await reopenedOptions.getByRole("switch", { name: "Закрепить в канале" }).isChecked()).toBe(false);
  expect(await reopenedOptions.getByTestId("option-button-text").inputValue()).toBe(BUTTON.text);
  expect(await reopenedOptions.getByTestId("option-button-url").inputValue()).toBe(BUTTON.url);

  // Past 4096 the counter turns red and says so in words; the text is still kept as typed.
  const counter = reopened.getByTestId("post-editor-counter");
  expect((await counter.textContent())!.replace(/\s/g, " ")).toBe("17 / 4 096");
  await again.fill("а".repeat(4100));
  await expect.poll(() => counter.textContent(), soon).toContain("слишком длинно");
  expect(await counter.getAttribute("data-over")).not.toBeNull();
  const colour = await counter.evaluate((element) => getComputedStyle(element).color);
  const [r, g, b] = colour.match(/\d+/g)!.map(Number);
  expect(r).toBeGreaterThan(150);
  expect(g).toBeLessThan(100);
  expect(b).toBeLessThan(100);
  expect(await again.getAttribute("aria-invalid")).toBe("true");
  await shoot("post-editor-too-long", reopened);
  await reopened.getByRole("button", { name: "Отмена" }).click();
  await expect.poll(() => reopened.isVisible(), soon).toBe(false);
  expect((await storedDrafts(project.id))[0].content).toBe("🔥 Жирно и ссылка");
}, 150_000);
