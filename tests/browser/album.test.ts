/*
 * An album in the draft dialog, in Chromium (docs/post-format.md, Albums): three images
 * uploaded (two files at once, then one), the third moved first with the keyboard (Space,
 * arrows, Space), one removed; the draft stores `imageUrls` in that order with `imageUrl`
 * its first, and reopening shows the thumbnails in the same order.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { makePng } from "../helpers/images.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, createProjectInPage, openBrowserStack, signInThroughUi } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
const files: string[] = [];
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack());
  const colours: [number, number, number][] = [[213, 70, 70], [70, 170, 90], [70, 112, 213]];
  for (const rgb of colours) {
    const path = await Deno.makeTempFile({ prefix: "pressa-album-", suffix: ".png" });
    await Deno.writeFile(path, makePng(640, 360, rgb));
    files.push(path);
  }
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
  for (const path of files) await Deno.remove(path).catch(() => {});
});

const soon = { timeout: 5_000 };

type StoredDraft = { id: number; title: string; imageUrl: string | null; imageUrls: string[] };

/** Closes the shown toast and the queued ones, so none sits over the dialog's buttons. */
async function dismissToasts() {
  const close = page.getByTestId("toast-region").getByRole("button", { name: "Закрыть" });
  for (let quiet = 0; quiet < 3;) {
    if ((await close.count()) > 0) {
      await close.first().click({ timeout: 1_000 }).catch(() => {});
      quiet = 0;
    } else {
      quiet += 1;
    }
    await page.waitForTimeout(150);
  }
}

test("a draft's album: upload three, reorder by keyboard, remove one, save and reopen", async () => {
  await signInThroughUi(page, stack, "irina.album@example.com");
  const project = await createProjectInPage(page, { name: "Фотоклуб", adminHandle: "photo_club_admin" });
  await page.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await page.getByTestId("new-draft").first().click();
  const dialog = page.getByRole("dialog", { name: "Новый черновик" });
  await dialog.getByTestId("draft-title").fill("Осенний фотопоход");
  await dialog.getByTestId("draft-content").fill("Лучшие снимки с прогулки по парку.");

  const thumbs = dialog.getByTestId("image-thumb");
  const thumbSources = () => thumbs.locator("img").evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src")!));
  const handle = (position: number, total: number) => dialog.getByRole("button", { name: `Изображение ${position} из ${total}`, exact: true });

  // Two files at once, then one more.
  await dialog.getByTestId("image-input").setInputFiles([files[0], files[1]]);
  await expect.poll(() => thumbs.count(), soon).toBe(2);
  await expect.poll(() => dialog.getByTestId("image-pending").count(), soon).toBe(0);
  await dialog.getByTestId("image-input").setInputFiles(files[2]);
  await expect.poll(() => thumbs.count(), soon).toBe(3);
  await expect.poll(() => dialog.getByTestId("image-pending").count(), soon).toBe(0);
  const [first, second, third] = await thumbSources();
  for (const url of [first, second, third]) expect(url).toMatch(/^\/api\/uploads\//);
  expect(new Set([first, second, third]).size).toBe(3);
  expect(await handle(3, 3).count()).toBe(1);
  // The preview shows the album as a grid, the cover first.
  const album = dialog.getByTestId("post-preview-album").locator("img");
  await expect.poll(() => album.evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src"))), soon).toEqual([first, second, third]);
  await dismissToasts();
  await page.waitForTimeout(300);
  await screenshot(page, "album-draft-dialog");

  // The keyboard moves the third to the front: Space lifts, arrows move, Space drops.
  await handle(3, 3).focus();
  for (const key of ["Space", "ArrowLeft", "ArrowLeft", "Space"]) {
    await page.keyboard.press(key);
    await page.waitForTimeout(200);
  }
  await expect.poll(thumbSources, soon).toEqual([third, first, second]);
  expect(await dialog.isVisible()).toBe(true);

  // Remove the last one (now "image 3").
  await dialog.getByRole("button", { name: "Удалить изображение 3", exact: true }).click();
  await expect.poll(thumbSources, soon).toEqual([third, first]);

  await dialog.getByTestId("draft-save").click();
  await expect.poll(() => dialog.isVisible(), soon).toBe(false);
  const drafts = await page.evaluate(async (id) => {
    const res = await fetch(`/api/projects/${id}/drafts`);
    return (await res.json()) as StoredDraft[];
  }, project.id);
  const saved = drafts.find((draft) => draft.title === "Осенний фотопоход")!;
  expect(saved.imageUrls).toEqual([third, first]);
  expect(saved.imageUrl).toBe(third);

  // Reopening shows them in the same order.
  const row = page.getByTestId("draft-row").filter({ hasText: "Осенний фотопоход" });
  await row.getByTestId("edit-draft").click();
  const editor = page.getByRole("dialog", { name: "Редактирование черновика" });
  await expect.poll(() => editor.getByTestId("image-thumb").locator("img").evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src"))), soon)
    .toEqual([third, first]);
  expect(await editor.getByRole("button", { name: "Изображение 1 из 2", exact: true }).count()).toBe(1);
}, 90_000);
