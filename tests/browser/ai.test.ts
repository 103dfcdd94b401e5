/*
 * AI writing as a person uses it, in Chromium, against a real OpenAI-compatible server
 * (tests/doubles/openai): suggest a title and write a post in the draft editor, fill the
 * bulk-add list with generated titles, generate the text of two drafts and watch the banner
 * reach 2/2, then talk to the assistant: the streamed reply, the history after a reload,
 * older history in pages, and the error reply; a reply in Markdown shows bold and a link and
 * keeps them when saved as a draft. A server without AI says how to set it up.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type ChatRequest, promptOf } from "../doubles/openai/server.ts";
import { screenshot } from "../helpers/browser.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signInThroughUi, WEB_DIST } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack({ openai: true }));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 5_000 };
// Toasts show one at a time for 5 s each, so a later one can take a while to appear.
const queued = { timeout: 15_000 };

const SUGGESTED_TITLE = "Пять книг для долгой зимы";
const CHAT_REPLY = "Вот три идеи для постов:\n1. Книга недели с короткой рецензией\n2. Цитата дня из классики\n3. Опрос: что читаете сейчас?";
// What the assistant answers when asked for a formatted post: Markdown, as the prompt asks.
const FORMATTED_QUESTION = "Напиши короткий пост о книге недели";
const FORMATTED_LINK = "https://example.com/books/master_i_margarita";
const FORMATTED_REPLY = `**Книга недели** 📚 — «Мастер и Маргарита».\nЧитайте [наш отзыв](${FORMATTED_LINK}) и _делитесь_ мнением.`;
const postFor = (title: string) => `${title}: пост от ИИ. ${"Короткий абзац о книгах и чтении. ".repeat(12).trim()}`;
let slowPosts = false;
let chatDelayMs = 0;
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** What the AI answers, decided from the prompt as a real model would see it. */
function answer(request: ChatRequest): string | Promise<string> {
  const { system, user } = promptOf(request);
  if (user.startsWith("Suggest one title")) return `«${SUGGESTED_TITLE}»`;
  const many = /Suggest exactly (\d+) different titles/.exec(user);
  if (many) return Array.from({ length: Number(many[1]) }, (_, i) => `${i + 1}. Идея для поста № ${i + 1}`).join("\n");
  const post = /Write a Telegram post titled "(.+)"/.exec(user);
  if (post) {
    const text = postFor(post[1]);
    return slowPosts ? later(2500, text) : text;
  }
  if (system.includes("writing assistant") && user === FORMATTED_QUESTION) return FORMATTED_REPLY;
  if (system.includes("writing assistant")) return chatDelayMs ? later(chatDelayMs, CHAT_REPLY) : CHAT_REPLY;
  return "—";
}

const rows = () => page.getByTestId("draft-row");
const row = (title: string) => rows().filter({ has: page.getByTestId("draft-row-title").getByText(title, { exact: true }) });
const toastTexts = () => page.getByTestId("toast-region").textContent();
const lastRequest = (match: (request: ChatRequest) => boolean) =>
  [...stack.openai!.journal].reverse().find((entry) => match(entry.body))?.body;

/** Closes the shown toast and the queued ones, so the next toasts appear at once. */
async function dismissToasts(target: Page = page) {
  const close = target.getByTestId("toast-region").getByRole("button", { name: "Закрыть" });
  for (let quiet = 0; quiet < 3;) {
    if ((await close.count()) > 0) {
      await close.first().click({ timeout: 1_000 }).catch(() => {});
      quiet = 0;
    } else {
      quiet += 1;
    }
    await target.waitForTimeout(150);
  }
}

async function createProject(target: Page, name: string, titles: string[] = []) {
  return await target.evaluate(async ({ name, titles }) => {
    const post = (path: string, body: unknown) =>
      fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const project = (await (await post("/api/projects", { name, adminHandle: "reading_admin" })).json()) as { id: number };
    if (titles.length > 0) await post(`/api/projects/${project.id}/drafts/bulk`, { titles });
    const user = (await (await fetch("/api/auth/user")).json()) as { id: number };
    return { id: project.id, userId: user.id };
  }, { name, titles });
}

test("titles, posts, bulk titles and text generation for drafts", async () => {
  stack.openai!.reply(answer);
  await signInThroughUi(page, stack, "olga.petrova@example.com");
  const project = await createProject(page, "Читальный зал", ["Зимнее чтение", "Классика за выходные"]);
  await page.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await expect.poll(() => rows().count(), soon).toBe(2);

  // The editor: a suggested title replaces the old one.
  await row("Зимнее чтение").getByTestId("edit-draft").click();
  const editor = page.getByRole("dialog", { name: "Редактирование черновика" });
  await expect.poll(() => editor.getByTestId("draft-title").inputValue(), soon).toBe("Зимнее чтение");
  await editor.getByTestId("generate-title").click();
  await expect.poll(() => editor.getByTestId("draft-title").inputValue(), soon).toBe(SUGGESTED_TITLE);
  // The prompt carries the project (its name) and the Russian default language.
  const titleRequest = lastRequest((body) => promptOf(body).user.startsWith("Suggest one title"))!;
  expect(promptOf(titleRequest).system).toContain("Читальный зал");
  expect(promptOf(titleRequest).system).toContain("Always write in Russian");

  // A post for that title at a chosen length (out of range is clamped to 100–4000).
  expect(await editor.getByTestId("post-length").inputValue()).toBe("1500");
  await editor.getByTestId("post-length").fill("50");
  await editor.getByTestId("post-length").blur();
  expect(await editor.getByTestId("post-length").inputValue()).toBe("100");
  await editor.getByTestId("post-length").fill("800");
  await editor.getByTestId("generate-post").click();
  await expect.poll(() => editor.getByTestId("draft-content").textContent(), soon).toBe(postFor(SUGGESTED_TITLE));
  const postRequest = lastRequest((body) => promptOf(body).user.includes("Write a Telegram post titled"))!;
  expect(promptOf(postRequest).user).toContain(`"${SUGGESTED_TITLE}"`);
  expect(promptOf(postRequest).user).toContain("about 800 characters");
  await page.waitForTimeout(300);
  await screenshot(page, "ai-draft-editor");

  // Without a title there is nothing to write about: the toast says so, no request is made.
  const requestsBefore = stack.openai!.journal.length;
  await editor.getByTestId("draft-title").fill("");
  await editor.getByTestId("generate-post").click();
  await expect.poll(toastTexts, queued).toContain("Введите заголовок");
  expect(stack.openai!.journal.length).toBe(requestsBefore);
  await editor.getByTestId("draft-title").fill(SUGGESTED_TITLE);
  await dismissToasts();
  await editor.getByTestId("draft-save").click();
  await expect.poll(() => editor.isVisible(), soon).toBe(false);
  await expect.poll(() => row(SUGGESTED_TITLE).getByTestId("draft-preview").textContent(), soon).toContain(
    `${SUGGESTED_TITLE}: пост от ИИ.`,
  );

  // Bulk add: the count input and the generate button fill the list, one title per line.
  await dismissToasts();
  await page.getByTestId("bulk-add").first().click();
  const bulk = page.getByRole("dialog", { name: "Добавить черновики списком" });
  expect(await bulk.getByTestId("titles-count").inputValue()).toBe("20");
  await bulk.getByTestId("titles-count").fill("3");
  await bulk.getByTestId("generate-titles").click();
  await expect.poll(() => bulk.getByTestId("bulk-titles").inputValue(), soon).toBe(
    "Идея для поста № 1\nИдея для поста № 2\nИдея для поста № 3",
  );
  expect(await bulk.getByTestId("bulk-count").textContent()).toBe("Заголовков: 3 из 30");
  await screenshot(page, "ai-bulk-titles");
  await bulk.getByRole("button", { name: "Отмена" }).click();
  await expect.poll(() => bulk.isVisible(), soon).toBe(false);

  // Generate the text of both drafts: one has text already, so first a confirmation.
  slowPosts = true;
  await dismissToasts();
  await page.getByTestId("select-all").check();
  await page.getByTestId("generate-content").click();
  const overwrite = page.getByRole("dialog", { name: "Заменить текст черновиков?" });
  await expect.poll(() => overwrite.textContent(), soon).toContain("У 1 из 2 выбранных черновиков уже есть текст");
  await page.waitForTimeout(300);
  await screenshot(page, "ai-generate-overwrite");
  await overwrite.getByRole("button", { name: "Заменить текст" }).click();
  const banner = page.getByTestId("generation-banner");
  await expect.poll(() => banner.count(), soon).toBe(1);
  await expect.poll(toastTexts, soon).toContain("Генерация текста запущена");
  // The selection is cleared once the job starts.
  await expect.poll(() => page.getByTestId("generate-content").count(), soon).toBe(0);
  await expect.poll(() => page.getByTestId("generation-count").textContent(), soon).toBe("1/2");
  await page.mouse.move(0, 0);
  await screenshot(page, "ai-generation-progress");
  // A reload meanwhile brings the banner back (the tab remembers the job it watches).
  await page.reload();
  await expect.poll(() => page.getByTestId("generation-count").textContent(), soon).toBe("1/2");
  await expect.poll(() => page.getByTestId("generation-count").textContent(), soon).toBe("2/2");
  // While the job ran the list was refetched: both previews show the generated text.
  await expect.poll(() => row("Классика за выходные").getByTestId("draft-preview").textContent(), soon).toContain(
    "Классика за выходные: пост от ИИ.",
  );
  await expect.poll(toastTexts, queued).toContain("Текст сгенерирован");
  await screenshot(page, "ai-generation-done");
  const stored = await stack.sql`select title, content from app_public.drafts where project_id = ${project.id} order by title`;
  expect(stored).toEqual([
    { title: "Классика за выходные", content: postFor("Классика за выходные") },
    { title: SUGGESTED_TITLE, content: postFor(SUGGESTED_TITLE) },
  ]);
  // The banner goes 5 seconds after the end.
  await expect.poll(() => banner.count(), { timeout: 9_000 }).toBe(0);
  slowPosts = false;
}, 120_000);

test("the assistant: greeting, streamed reply, context, history after a reload, errors", async () => {
  stack.openai!.reply(answer);
  const project = await createProject(page, "Книжная полка", ["Что почитать в поезде"]);
  await page.goto(`${stack.baseUrl}/project/${project.id}/ai-assistant`);
  await expect.poll(() => page.getByTestId("chat-greeting").count(), soon).toBe(1);
  expect(await page.title()).toBe("ИИ-ассистент | Pressa");
  expect(await page.getByTestId("chat-greeting").textContent()).toContain("«Книжная полка»");
  expect(await page.getByTestId("chat-suggestion").count()).toBe(4);
  await screenshot(page, "ai-assistant-greeting");

  // A blank message is not sent.
  const input = page.getByTestId("chat-input");
  const requestsBefore = stack.openai!.journal.length;
  await input.fill("   ");
  await input.press("Enter");
  await page.waitForTimeout(300);
  expect(stack.openai!.journal.length).toBe(requestsBefore);

  // Shift+Enter is a new line; Enter sends. The reply streams in and the chips go.
  await input.fill("Какие посты");
  await input.press("Shift+Enter");
  await input.type("подойдут для книжного канала?");
  expect(await input.inputValue()).toBe("Какие посты\nподойдут для книжного канала?");
  await input.press("Enter");
  expect(await input.inputValue()).toBe("");
  const messages = page.getByTestId("chat-message");
  await expect.poll(() => messages.count(), soon).toBe(2);
  await expect.poll(() => messages.nth(1).getByTestId("chat-message-text").textContent(), soon).toBe(CHAT_REPLY);
  expect(await messages.nth(0).textContent()).toContain("Какие посты\nподойдут для книжного канала?");
  expect(await page.getByTestId("chat-suggestions").count()).toBe(0);
  expect(await page.getByTestId("chat-greeting").count()).toBe(1);
  const streamed = lastRequest((body) => promptOf(body).system.includes("writing assistant"))!;
  expect(streamed.stream).toBe(true);
  expect(promptOf(streamed).user).toBe("Какие посты\nподойдут для книжного канала?");

  // Editor mode works on a text taken from a draft; the conversation so far is the context.
  await page.getByTestId("chat-mode").getByText("Редактор").click();
  await page.getByTestId("working-text").fill("Роман о зиме, который читается за один вечер.");
  await input.fill("Сделай короче");
  await page.getByTestId("chat-send").click();
  await expect.poll(() => messages.count(), soon).toBe(4);
  await expect.poll(() => messages.nth(3).getByTestId("chat-message-text").textContent(), soon).toBe(CHAT_REPLY);
  const edited = lastRequest((body) => promptOf(body).user === "Сделай короче")!;
  expect(promptOf(edited).system).toContain("Edit the author's current draft");
  expect(promptOf(edited).system).toContain("Роман о зиме, который читается за один вечер.");
  expect(edited.messages.filter((m) => m.role !== "system").map((m) => m.content)).toEqual([
    "Какие посты\nподойдут для книжного канала?",
    CHAT_REPLY,
    "Сделай короче",
  ]);
  await page.mouse.move(0, 0);
  await screenshot(page, "ai-assistant-conversation");

  // While a reply is pending nothing else is sent; the assistant shows it is writing.
  chatDelayMs = 1500;
  await page.getByTestId("chat-mode").getByText("Общий").click();
  await input.fill("Что ещё?");
  await input.press("Enter");
  await expect.poll(() => messages.count(), soon).toBe(6);
  await input.fill("А это подождёт");
  await input.press("Enter");
  expect(await input.inputValue()).toBe("А это подождёт");
  expect(await page.getByTestId("chat-send").isDisabled()).toBe(true);
  await screenshot(page, "ai-assistant-pending");
  await expect.poll(() => messages.nth(5).getByTestId("chat-message-text").textContent(), soon).toBe(CHAT_REPLY);
  expect(await messages.count()).toBe(6);
  chatDelayMs = 0;
  await input.fill("");

  // Save a reply as a draft: the first line is the title.
  await messages.nth(5).hover();
  await messages.nth(5).getByTestId("chat-save-draft").click();
  await expect.poll(toastTexts, queued).toContain("Сохранено в черновики");
  const [saved] = await stack.sql`select title, content from app_public.drafts where project_id = ${project.id} and content <> ''`;
  expect(saved).toEqual({ title: "Вот три идеи для постов:", content: CHAT_REPLY });

  // After a reload the stored history shows, without the greeting: the newest page of 5.
  await page.reload();
  // let the lazily loaded parts (toasts, bug-report button) arrive before clicking
  await page.waitForLoadState("networkidle");
  await expect.poll(() => messages.count(), soon).toBe(5);
  expect(await page.getByTestId("chat-greeting").count()).toBe(0);
  expect(await page.getByTestId("chat-suggestions").count()).toBe(0);
  expect(await messages.nth(1).textContent()).toContain("Сделай короче");
  expect(await messages.nth(3).textContent()).toContain("Что ещё?");
  // dispatched rather than clicked: the thread may still be settling its scroll position
  // after the reload (a moving target Playwright's hit test refuses under load)
  await page.getByTestId("chat-load-earlier").dispatchEvent("click");
  await expect.poll(() => messages.count(), soon).toBe(6);
  expect(await messages.first().textContent()).toContain("Какие посты\nподойдут для книжного канала?");
  await expect.poll(() => page.getByTestId("chat-load-earlier").count(), soon).toBe(0);

  // A failed reply is the error message in the conversation; the server's reason is a toast.
  await dismissToasts();
  stack.openai!.reply(() => ({ status: 400, message: "The model is overloaded with books" }));
  await input.fill("Ещё идеи?");
  await input.press("Enter");
  await expect.poll(() => messages.count(), soon).toBe(8);
  await expect.poll(() => messages.nth(7).textContent(), soon).toContain(
    "Извините, при обработке запроса произошла ошибка. Попробуйте ещё раз.",
  );
  await expect.poll(toastTexts, queued).toContain("Ассистент не ответил");
  // in the interface's language; the provider's own words go to the server log only
  await expect.poll(toastTexts, queued).toContain("Провайдер ИИ отклонил запрос. Попробуйте ещё раз.");
  expect(await toastTexts()).not.toContain("overloaded with books");
  await screenshot(page, "ai-assistant-error");
  stack.openai!.reply(answer);
}, 120_000);

test("a formatted reply: bold and a link in the chat, kept when it is saved as a draft", async () => {
  stack.openai!.reply(answer);
  const project = await createProject(page, "Книга недели");
  await page.goto(`${stack.baseUrl}/project/${project.id}/ai-assistant`);
  const input = page.getByTestId("chat-input");
  await expect.poll(() => input.isEnabled(), soon).toBe(true);
  await input.fill(FORMATTED_QUESTION);
  await input.press("Enter");
  const messages = page.getByTestId("chat-message");
  const reply = messages.nth(1).getByTestId("chat-message-text");
  const shownText = "Книга недели 📚 — «Мастер и Маргарита».\nЧитайте наш отзыв и делитесь мнением.";
  await expect.poll(() => reply.textContent(), soon).toBe(shownText);
  // the Markdown asked for (the prompt says so) shows as formatting, never as marks
  expect(promptOf(lastRequest((body) => promptOf(body).user === FORMATTED_QUESTION)!).system).toContain("**bold**");
  expect(await reply.locator("strong").textContent()).toBe("Книга недели");
  expect(await reply.locator("em").textContent()).toBe("делитесь");
  const link = reply.getByRole("link", { name: "наш отзыв" });
  expect(await link.getAttribute("href")).toBe(FORMATTED_LINK);
  expect(await link.getAttribute("target")).toBe("_blank");
  await page.mouse.move(0, 0);
  await screenshot(page, "ai-assistant-formatted");

  // Save as draft: the text without marks, the formatting as entities (UTF-16: 📚 counts two).
  await dismissToasts();
  await messages.nth(1).hover();
  await messages.nth(1).getByTestId("chat-save-draft").click();
  await expect.poll(toastTexts, queued).toContain("Сохранено в черновики");
  const drafts = await page.evaluate(async (id) => (await (await fetch(`/api/projects/${id}/drafts`)).json()), project.id) as {
    title: string;
    content: string;
    entities: unknown[];
  }[];
  expect(drafts).toHaveLength(1);
  expect(drafts[0]).toMatchObject({
    title: "Книга недели 📚 — «Мастер и Маргарита».",
    content: shownText,
    entities: [
      { type: "bold", offset: 0, length: 12 },
      { type: "text_link", offset: 48, length: 9, url: FORMATTED_LINK },
      { type: "italic", offset: 60, length: 8 },
    ],
  });

  // The stored reply (its Markdown) shows formatted after a reload too.
  await page.reload();
  await expect.poll(() => reply.locator("strong").textContent(), soon).toBe("Книга недели");
  expect(await reply.textContent()).toBe(shownText);

  // The draft dialog's editor holds the same formatting, and so does its preview.
  await page.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await expect.poll(() => rows().count(), soon).toBe(1);
  await rows().first().getByTestId("edit-draft").click();
  const dialog = page.getByRole("dialog", { name: "Редактирование черновика" });
  const editor = dialog.getByTestId("draft-content");
  await expect.poll(() => editor.locator("strong").textContent(), soon).toBe("Книга недели");
  expect(await editor.locator("em").textContent()).toBe("делитесь");
  expect(await editor.locator("a").textContent()).toBe("наш отзыв");
  expect(await editor.locator("a").getAttribute("href")).toBe(FORMATTED_LINK);
  expect(await editor.textContent()).not.toContain("**");
  expect(await dialog.getByTestId("post-preview").locator("strong").textContent()).toBe("Книга недели");
  await page.waitForTimeout(300);
  await screenshot(page, "ai-assistant-formatted-draft");
  await dialog.getByRole("button", { name: "Отмена" }).click();
  await expect.poll(() => dialog.isVisible(), soon).toBe(false);
}, 60_000);

test("older history loads in pages at the top and keeps the reading position", async () => {
  const project = await createProject(page, "Архив бесед");
  // 12 stored messages, a minute apart, long enough to scroll.
  await stack.sql`
    insert into app_public.chat_messages (project_id, user_id, role, content, created_at)
    select ${project.id}, ${project.userId}, case when i % 2 = 1 then 'user' else 'assistant' end,
      'Сообщение ' || i || E'\n' || repeat(E'Строка обсуждения.\n', 5),
      now() - interval '1 hour' + i * interval '1 minute'
    from generate_series(1, 12) as i`;
  await page.goto(`${stack.baseUrl}/project/${project.id}/ai-assistant`);
  const numbers = () =>
    page.getByTestId("chat-message-text").evaluateAll((nodes) => nodes.map((node) => Number(/Сообщение (\d+)/.exec(node.textContent ?? "")?.[1])));
  await expect.poll(numbers, soon).toEqual([8, 9, 10, 11, 12]);
  expect(await page.getByTestId("chat-greeting").count()).toBe(0);
  const thread = page.getByTestId("chat-thread");
  // Opened at the newest message.
  expect(await thread.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(4);

  // Scrolling to the top brings the previous page; the message read stays where it was.
  await thread.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect.poll(numbers, soon).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  const anchorBox = await page.getByTestId("chat-message").nth(5).boundingBox();
  const threadBox = await thread.boundingBox();
  expect(anchorBox!.y).toBeGreaterThanOrEqual(threadBox!.y - 4);
  expect(await thread.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);

  // The control at the top loads the rest; then there is nothing earlier.
  await thread.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect.poll(numbers, soon).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  await expect.poll(() => page.getByTestId("chat-load-earlier").count(), soon).toBe(0);

  // A project that cannot be loaded: the error text, and a toast.
  await page.goto(`${stack.baseUrl}/project/999999/ai-assistant`);
  await expect.poll(() => page.getByRole("alert").filter({ hasText: "Возможно, он удалён" }).count(), soon).toBe(1);
  await expect.poll(toastTexts, soon).toContain("Ошибка");
  expect(await page.getByTestId("chat-input").count()).toBe(0);
});

test("the assistant and the drafts page on a phone", async () => {
  stack.openai!.reply(answer);
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await signInThroughUi(phone, stack, "ilya.sokolov@example.com");
  const project = await createProject(phone, "Поэзия каждый день", ["Стихи о весне", "Поэты Серебряного века"]);
  await phone.goto(`${stack.baseUrl}/project/${project.id}/ai-assistant`);
  await expect.poll(() => phone.getByTestId("chat-greeting").count(), soon).toBe(1);
  await screenshot(phone, "ai-assistant-phone");
  // A suggestion chip sends itself.
  await phone.getByTestId("chat-suggestion").first().click();
  await expect.poll(() => phone.getByTestId("chat-message").count(), soon).toBe(2);
  await expect.poll(() => phone.getByTestId("chat-message").nth(1).getByTestId("chat-message-text").textContent(), soon).toBe(CHAT_REPLY);
  expect(await phone.getByTestId("chat-message").first().textContent()).toContain("Предложи 5 идей для постов на эту неделю");
  await phone.getByTestId("chat-mode").getByText("Улучшение").click();
  await screenshot(phone, "ai-assistant-phone-conversation");

  await phone.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await expect.poll(() => phone.getByTestId("draft-row").count(), soon).toBe(2);
  await phone.getByTestId("edit-draft").first().click();
  const editor = phone.getByRole("dialog", { name: "Редактирование черновика" });
  await editor.getByTestId("generate-post").click();
  await expect.poll(() => editor.getByTestId("draft-content").textContent(), soon).toBe(postFor("Стихи о весне"));
  await phone.waitForTimeout(300);
  await screenshot(phone, "ai-draft-editor-phone");
  await editor.getByRole("button", { name: "Отмена" }).click();
  await expect.poll(() => editor.isVisible(), soon).toBe(false);

  // Neither draft has text yet, so generation starts without a confirmation.
  await phone.getByTestId("select-all").check();
  await screenshot(phone, "ai-drafts-selection-phone");
  await phone.getByTestId("generate-content").click();
  await expect.poll(() => phone.getByTestId("generation-count").textContent(), soon).toBe("2/2");
  const preview = (text: string) => `${text.slice(0, 100).trimEnd()}…`;
  await expect.poll(() => phone.getByTestId("draft-preview").allTextContents(), soon).toEqual([
    preview(postFor("Стихи о весне")),
    preview(postFor("Поэты Серебряного века")),
  ]);
  await screenshot(phone, "ai-drafts-generated-phone");
  await phone.close();
}, 60_000);

test("without AI configured the screens show how to set it up", async () => {
  const bare = await startStack({ serve: true, webDist: WEB_DIST });
  const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await signInThroughUi(other, bare, "no.ai@example.com");
    const project = await createProject(other, "Без ИИ", ["Первый черновик"]);
    await other.goto(`${bare.baseUrl}/project/${project.id}/drafts`);
    await other.getByTestId("edit-draft").first().click();
    await other.getByTestId("generate-title").click();
    const toasts = () => other.getByTestId("toast-region").textContent();
    await expect.poll(toasts, soon).toContain("Не удалось придумать заголовок");
    await expect.poll(toasts, soon).toContain("ИИ на этом сервере не настроен: задайте OPENAI_API_KEY");
    await other.waitForTimeout(400); // the toast's entrance
    await screenshot(other, "ai-not-configured-drafts");

    await other.goto(`${bare.baseUrl}/project/${project.id}/ai-assistant`);
    const input = other.getByTestId("chat-input");
    await expect.poll(() => input.isEnabled(), soon).toBe(true);
    await input.fill("Привет");
    await input.press("Enter");
    await expect.poll(() => other.getByTestId("chat-message").nth(1).textContent(), soon).toContain(
      "Извините, при обработке запроса произошла ошибка. Попробуйте ещё раз.",
    );
    await expect.poll(toasts, queued).toContain("ИИ на этом сервере не настроен");
    await other.waitForTimeout(400);
    await screenshot(other, "ai-not-configured-chat");
  } finally {
    await other.close();
    await bare.close();
  }
}, 60_000);
