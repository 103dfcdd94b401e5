/*
 * The drafts screen as a person uses it, in Chromium: bulk-add titles, reorder by dragging
 * with the mouse and with the keyboard (the order survives a reload), edit a draft adding an
 * image, open a draft by its URL, create one, delete one, and a batch delete that skips a
 * draft a planned post still uses.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { makePng } from "../helpers/images.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signInThroughUi } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
let imagePath: string;
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack({ telegram: true }));
  imagePath = await Deno.makeTempFile({ prefix: "pressa-draft-", suffix: ".png" });
  await Deno.writeFile(imagePath, makePng(640, 360, [70, 112, 213]));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
  if (imagePath) await Deno.remove(imagePath).catch(() => {});
});

const soon = { timeout: 5_000 };
// Toasts show one at a time for 5 s each, so a later one can take a while to appear.
const queued = { timeout: 15_000 };

const rows = () => page.getByTestId("draft-row");
const row = (title: string) => rows().filter({ has: page.getByTestId("draft-row-title").getByText(title, { exact: true }) });
const titlesOnScreen = () => page.getByTestId("draft-row-title").allTextContents();
const toastTexts = () => page.getByTestId("toast-region").textContent();

async function titlesStored(projectId: number) {
  const drafts = await page.evaluate(async (id) => {
    const res = await fetch(`/api/projects/${id}/drafts`);
    return (await res.json()) as { title: string; order: number }[];
  }, projectId);
  return [...drafts].sort((a, b) => a.order - b.order).map((draft) => draft.title);
}

/** Closes the shown toast and the queued ones (or `limit` of them), so the next toasts appear at once. */
async function dismissToasts(limit = Infinity) {
  const close = page.getByTestId("toast-region").getByRole("button", { name: "Закрыть" });
  for (let quiet = 0, closed = 0; quiet < 3 && closed < limit;) {
    if ((await close.count()) > 0) {
      await close.first().click({ timeout: 1_000 }).catch(() => {});
      closed += 1;
      quiet = 0;
    } else {
      quiet += 1;
    }
    await page.waitForTimeout(150);
  }
}

/** Drags a row by its handle with the mouse until it sits over `target`. */
async function dragWithMouse(source: Locator, target: Locator) {
  const from = (await source.getByTestId("drag-handle").boundingBox())!;
  const to = (await target.boundingBox())!;
  const x = from.x + from.width / 2;
  await page.mouse.move(x, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(x, from.y + from.height / 2 - 8, { steps: 4 });
  await page.mouse.move(x, to.y + 4, { steps: 20 });
  await page.mouse.up();
}

test("bulk add, reorder, edit with an image, create, delete and batch delete drafts", async () => {
  await signInThroughUi(page, stack, "anna.smirnova@example.com");
  const project = await page.evaluate(async () => {
    const res = await fetch("/api/projects", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Книжный клуб", adminHandle: "book_club_admin" }),
    });
    return (await res.json()) as { id: number };
  });
  const draftsUrl = `${stack.baseUrl}/project/${project.id}/drafts`;
  await page.goto(draftsUrl);
  await expect.poll(() => page.getByTestId("drafts-empty").count(), soon).toBe(1);
  expect(await page.title()).toBe("Черновики | Pressa");
  expect(await page.getByText("Книжный клуб").count()).toBeGreaterThan(0);
  await screenshot(page, "drafts-empty");

  // Bulk add: more than 30 lines is refused while typing; three titles are created in order.
  await page.getByTestId("bulk-add").first().click();
  const bulk = page.getByRole("dialog", { name: "Добавить черновики списком" });
  const textarea = bulk.getByTestId("bulk-titles");
  const create = bulk.getByTestId("bulk-create");
  expect(await create.isDisabled()).toBe(true);
  await textarea.fill(Array.from({ length: 31 }, (_, i) => `Тема ${i + 1}`).join("\n"));
  await expect.poll(() => bulk.getByText("Не больше 30 заголовков за раз").count()).toBe(1);
  expect(await create.isDisabled()).toBe(true);
  // only blank lines: no titles remain, which Create says (and nothing is created)
  await textarea.fill("   \n\n  ");
  expect(await create.isDisabled()).toBe(false);
  await create.click();
  await expect.poll(toastTexts, soon).toContain("Не удалось добавить черновики");
  expect(await rows().count()).toBe(0);
  await dismissToasts();
  await textarea.fill("Мастер и Маргарита\n\n  Война и мир  \nАнна Каренина\n");
  await expect.poll(() => bulk.getByTestId("bulk-count").textContent()).toBe("Заголовков: 3 из 30");
  await page.waitForTimeout(300); // the dialog's opening transition
  await screenshot(page, "drafts-bulk-add");
  await create.click();
  await expect.poll(titlesOnScreen, soon).toEqual(["Мастер и Маргарита", "Война и мир", "Анна Каренина"]);
  await expect.poll(toastTexts, soon).toContain("Добавлено черновиков: 3");

  // Drag the third to the top with the mouse: saved at once, and still so after a reload.
  await dismissToasts();
  await dragWithMouse(row("Анна Каренина"), rows().first());
  await expect.poll(titlesOnScreen, soon).toEqual(["Анна Каренина", "Мастер и Маргарита", "Война и мир"]);
  await expect.poll(() => titlesStored(project.id), soon).toEqual(["Анна Каренина", "Мастер и Маргарита", "Война и мир"]);
  await expect.poll(toastTexts, queued).toContain("Порядок обновлён");
  await page.reload();
  await expect.poll(titlesOnScreen, soon).toEqual(["Анна Каренина", "Мастер и Маргарита", "Война и мир"]);
  const stored = await stack.sql`select title from app_public.drafts where project_id = ${project.id} order by sort_order, id`;
  expect(stored.map((draft) => draft.title)).toEqual(["Анна Каренина", "Мастер и Маргарита", "Война и мир"]);

  await dismissToasts();

  // The keyboard does the same: Space lifts the row, an arrow moves it, Space drops it.
  // (a short pause between keys, as a person makes, lets the list measure where rows are)
  await row("Анна Каренина").getByTestId("drag-handle").focus();
  for (const key of ["Space", "ArrowDown", "Space"]) {
    await page.keyboard.press(key);
    await page.waitForTimeout(200);
  }
  await expect.poll(titlesOnScreen, soon).toEqual(["Мастер и Маргарита", "Анна Каренина", "Война и мир"]);
  await expect.poll(() => titlesStored(project.id), soon).toEqual(["Мастер и Маргарита", "Анна Каренина", "Война и мир"]);

  // Edit one: add text and an image; the preview shows, then the saved image.
  await row("Война и мир").getByTestId("edit-draft").click();
  await page.waitForURL(/\/drafts\/\d+$/);
  const draftId = Number(new URL(page.url()).pathname.split("/").pop());
  const editor = page.getByRole("dialog", { name: "Редактирование черновика" });
  expect(await editor.getByTestId("draft-title").inputValue()).toBe("Война и мир");
  const content = "«Война и мир» — роман-эпопея Льва Толстого о русском обществе в эпоху войн против Наполеона. ".repeat(3);
  await editor.getByTestId("draft-content").fill(content);
  await dismissToasts();
  await editor.getByTestId("image-input").setInputFiles(imagePath);
  await expect.poll(() => editor.getByTestId("image-preview").locator("img").getAttribute("src"), soon).toMatch(
    /^\/api\/uploads\//,
  );
  await expect.poll(toastTexts, queued).toContain("Изображение загружено");
  await page.waitForTimeout(300);
  await screenshot(page, "drafts-edit-dialog");
  await dismissToasts(); // on this screen size the toast sits over the dialog's buttons
  await editor.getByTestId("draft-save").click();
  await expect.poll(() => editor.isVisible(), soon).toBe(false);
  await expect.poll(() => new URL(page.url()).pathname, soon).toBe(`/project/${project.id}/drafts`);
  const [saved] = await stack.sql`select content, image_url from app_public.drafts where id = ${draftId}`;
  expect(saved.content).toBe(content);
  expect(saved.imageUrl).toMatch(/^\/api\/uploads\//);
  const image = await page.evaluate(async (url) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get("content-type") };
  }, saved.imageUrl as string);
  expect(image).toEqual({ status: 200, type: "image/png" });
  // The row shows the thumbnail and the first 100 characters with an ellipsis.
  const edited = row("Война и мир");
  expect(await edited.locator("img").getAttribute("src")).toBe(saved.imageUrl);
  const preview = (await edited.getByTestId("draft-preview").textContent())!;
  expect(preview.endsWith("…")).toBe(true);
  expect(Array.from(preview).length).toBeLessThanOrEqual(101);
  expect(content.startsWith(preview.slice(0, -1))).toBe(true);

  // A link to /drafts/{id} (the schedule uses one) opens the page with that draft's editor.
  await page.goto(`${draftsUrl}/${draftId}`);
  const linked = page.getByRole("dialog", { name: "Редактирование черновика" });
  await expect.poll(() => linked.getByTestId("draft-title").inputValue(), soon).toBe("Война и мир");
  expect(await linked.getByTestId("image-preview").locator("img").getAttribute("src")).toBe(saved.imageUrl);
  await linked.getByRole("button", { name: "Отмена" }).click();
  await expect.poll(() => new URL(page.url()).pathname, soon).toBe(`/project/${project.id}/drafts`);

  // Create one through the dialog: a title is required, in Russian.
  await page.getByTestId("new-draft").click();
  const creator = page.getByRole("dialog", { name: "Новый черновик" });
  await creator.getByTestId("draft-save").click();
  await expect.poll(() => creator.getByText("Введите заголовок").count()).toBe(1);
  await creator.getByTestId("draft-title").fill("Преступление и наказание");
  await creator.getByTestId("draft-save").click();
  await expect.poll(() => row("Преступление и наказание").count(), soon).toBe(1);
  await page.mouse.move(0, 0);
  await screenshot(page, "drafts-list");

  // Delete one after confirming.
  await row("Мастер и Маргарита").getByTestId("delete-draft").click();
  const confirm = page.getByRole("dialog", { name: "Удалить черновик?" });
  await expect.poll(() => confirm.getByText("Мастер и Маргарита", { exact: false }).count()).toBe(1);
  await confirm.getByTestId("confirm-delete").click();
  await expect.poll(() => row("Мастер и Маргарита").count(), soon).toBe(0);
  await expect.poll(titlesOnScreen, soon).toEqual(["Преступление и наказание", "Анна Каренина", "Война и мир"]);

  // Batch delete: a planned post still uses one draft, so that one is skipped.
  const [guarded] = await stack.sql`select id from app_public.drafts where title = 'Анна Каренина'`;
  await stack.sql`insert into app_public.posts (project_id, draft_id, title, scheduled_for)
    values (${project.id}, ${guarded.id}, 'Анна Каренина', now() + interval '1 day')`;
  await dismissToasts();
  await page.getByTestId("select-all").check();
  await expect.poll(() => page.getByText("Выбрано: 3 из 3").count()).toBe(1);
  await page.getByTestId("delete-selected").click();
  const batch = page.getByRole("dialog", { name: "Удалить выбранные черновики?" });
  await page.waitForTimeout(300); // the dialog's opening transition
  await screenshot(page, "drafts-batch-confirm");
  await batch.getByTestId("confirm-delete").click();
  await expect.poll(titlesOnScreen, soon).toEqual(["Анна Каренина"]);
  await expect.poll(toastTexts, queued).toContain("Удалено черновиков: 2");
  await dismissToasts(1);
  await expect.poll(toastTexts, queued).toContain("Пропущено черновиков: 1");
  const left = await stack.sql`select title from app_public.drafts where project_id = ${project.id}`;
  expect(left.map((draft) => draft.title)).toEqual(["Анна Каренина"]);
}, 120_000);

test("the drafts page on a phone", async () => {
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await signInThroughUi(phone, stack, "pavel.orlov@example.com");
  const projectId = await phone.evaluate(async () => {
    const post = (path: string, body: unknown) =>
      fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const project = (await (await post("/api/projects", { name: "Кино по выходным", adminHandle: "kino_admin" })).json()) as {
      id: number;
    };
    await post(`/api/projects/${project.id}/drafts/bulk`, {
      titles: ["Лучшие фильмы 90-х", "Что посмотреть в субботу вечером", "Пять недооценённых комедий"],
    });
    const drafts = (await (await fetch(`/api/projects/${project.id}/drafts`)).json()) as { id: number }[];
    await fetch(`/api/projects/${project.id}/drafts/${drafts[1].id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "Подборка фильмов для спокойного вечера: от классики до новинок этого года, с короткими описаниями." }),
    });
    return project.id;
  });
  await phone.goto(`${stack.baseUrl}/project/${projectId}/drafts`);
  await expect.poll(() => phone.getByTestId("draft-row").count(), soon).toBe(3);
  await screenshot(phone, "drafts-list-phone");
  await phone.getByTestId("edit-draft").first().click();
  await expect.poll(() => phone.getByRole("dialog").count(), soon).toBe(1);
  await phone.waitForTimeout(300); // the dialog's opening transition
  await screenshot(phone, "drafts-edit-dialog-phone");
  await phone.close();
});
