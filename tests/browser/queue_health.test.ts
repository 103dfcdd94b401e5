/*
 * The drafts queue's forecast as a person sees it (issue 17, "Queue health"), in Chromium
 * against the real API, worker and a local OpenAI-compatible server: a content plan posting
 * every day with one draft left warns on the dashboard card and the Drafts page with the day
 * it runs dry; the warning's one button asks the AI for two weeks of titles, the person keeps
 * some, and the date moves, then the warning goes. A queue with enough drafts says until when
 * it lasts (or that it lasts over 60 days) without a warning; a project nothing takes drafts
 * from says nothing on its card. In Russian and English, light and dark, desktop and phone.
 */
import type { Browser, BrowserContextOptions, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { QUEUE_FORECAST_DAYS } from "../../contract/limits.ts";
import { type ChatRequest, promptOf } from "../doubles/openai/server.ts";
import { screenshot } from "../helpers/browser.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signInThroughUi } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  ({ stack, browser, page } = await openBrowserStack({ openai: true }));
  stack.openai!.reply(answer);
  await signInThroughUi(page, stack, "queue.owner@example.com");
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

// Generous: a loaded machine runs several browsers at once.
const soon = { timeout: 20_000 };
const TZ = "Europe/Moscow"; // a new project's timezone, and a slot's; no DST
const DAY_MS = 86_400_000;

/**
 * What the AI answers: when asked for several titles, that many numbered ones the channel does
 * not have yet (the prompt lists those), as a model would; a short post otherwise.
 */
function answer(request: ChatRequest): string {
  const { user } = promptOf(request);
  const many = /Suggest exactly (\d+) different titles/.exec(user);
  if (!many) return "Короткий пост о книгах: что почитать на этой неделе и почему.";
  const taken = new Set(user.split("\n").map((line) => line.trim()));
  const titles: string[] = [];
  for (let n = 1; titles.length < Number(many[1]); n++) if (!taken.has(`Идея для поста № ${n}`)) titles.push(`Идея для поста № ${n}`);
  return titles.map((title, i) => `${i + 1}. ${title}`).join("\n");
}

/** Thin spaces and no-break spaces of formatted dates read as plain ones. */
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

/**
 * A slot time every day about 12 hours from now (never close to now, so no slot passes while
 * the test runs): its "HH:30" in Moscow and the first instant it comes.
 */
function dailySlot() {
  const moscowHour = (new Date().getUTCHours() + 3) % 24;
  const hour = (moscowHour + 12) % 24;
  const time = `${String(hour).padStart(2, "0")}:30`;
  let first = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), hour - 3, 30);
  while (first <= Date.now()) first += DAY_MS;
  while (first - DAY_MS > Date.now()) first -= DAY_MS;
  return { time, first };
}

/** "3 дек." / "3 Dec" in Moscow, with the year when it is another year, and the time when asked. */
function dayMonth(at: number, language: "ru" | "en", withTime = false) {
  const year = (value: number) => new Intl.DateTimeFormat("en", { year: "numeric", timeZone: TZ }).format(value);
  const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", timeZone: TZ };
  if (year(at) !== year(Date.now())) options.year = "numeric";
  if (withTime) Object.assign(options, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return plain(new Intl.DateTimeFormat(language === "ru" ? "ru-RU" : "en-GB", options).format(at));
}

type Slot = { dayOfWeek: number; time: string; postLength: number };
const everyDay = (time: string): Slot[] => Array.from({ length: 7 }, (_, dayOfWeek) => ({ dayOfWeek, time, postLength: 300 }));

/** A project of the signed-in user with its content plan and drafts, made through the API. */
async function projectWith(name: string, slots: Slot[], titles: string[]) {
  return await page.evaluate(async ({ name, slots, titles }) => {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return await res.json();
    };
    const project = (await post("/api/projects", { name, adminHandle: "queue_admin" })) as { id: number };
    for (const slot of slots) await post(`/api/projects/${project.id}/content-plans`, slot);
    if (titles.length > 0) await post(`/api/projects/${project.id}/drafts/bulk`, { titles });
    return project;
  }, { name, slots, titles });
}

/** A page in its own context, signed in as the same user, in `language`. */
async function pageAs(options: BrowserContextOptions & { language?: "ru" | "en" } = {}): Promise<Page> {
  const { language = "ru", ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
  await context.addCookies(await page.context().cookies());
  await context.addInitScript((value) => localStorage.setItem("pressa.language", value), language);
  return await context.newPage();
}

const cardOf = (target: Page, name: string) => target.getByTestId("project-card").filter({ hasText: name });
/** The forecast's state shown in `scope` (low, ok, idle), or null while there is none. */
async function stateOf(scope: Locator) {
  const shown = scope.getByTestId("queue-health");
  return (await shown.count()) > 0 ? await shown.getAttribute("data-state") : null;
}
const textOf = async (scope: Locator) => plain(await scope.getByTestId("queue-health").textContent());

/** Until every finite animation (a dialog opening) is over. */
async function settled(target: Page) {
  await target.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity)
  );
}

/**
 * The bulk-add dialog opened by a warning: the AI's `asked` titles fill the list, and the
 * person keeps those at the positions `keep` (1-based), deleting the other lines.
 */
async function keepTitles(target: Page, asked: number, keep: number[]) {
  const dialog = target.getByRole("dialog", { name: "Добавить черновики списком" });
  await expect.poll(() => dialog.count(), soon).toBe(1);
  expect(await dialog.getByTestId("titles-count").inputValue()).toBe(String(asked));
  const lines = async () => (await dialog.getByTestId("bulk-titles").inputValue()).split("\n").filter(Boolean);
  await expect.poll(async () => (await lines()).length, soon).toBe(asked);
  const generated = await lines();
  expect(generated.every((title) => title.startsWith("Идея для поста № "))).toBe(true);
  // Once filled, the list has the focus: the person edits it at once.
  await expect.poll(() => dialog.getByTestId("bulk-titles").evaluate((el) => el === document.activeElement), soon).toBe(true);
  await dialog.getByTestId("bulk-titles").fill(keep.map((n) => generated[n - 1]).join("\n"));
  await dialog.getByTestId("bulk-create").click();
  await expect.poll(() => dialog.count(), soon).toBe(0);
}

const titleRequests = () =>
  stack.openai!.journal.map((entry) => /Suggest exactly (\d+) different titles/.exec(promptOf(entry.body).user)?.[1]).filter(Boolean);

test("one draft for a daily plan warns on the card and the Drafts page; AI titles move the date, then the warning goes", async () => {
  const { time, first } = dailySlot();
  const slotAt = (index: number) => first + index * DAY_MS;
  const project = await projectWith("Книжная полка", everyDay(time), ["Первая книга"]);

  // The dashboard card: the draft covers the first slot, so the queue runs dry at the second.
  await page.goto(`${stack.baseUrl}/`);
  const card = cardOf(page, "Книжная полка");
  await expect.poll(() => stateOf(card), soon).toBe("low");
  const warning = card.getByTestId("queue-health");
  expect(await warning.getAttribute("role")).toBe("status");
  expect(await textOf(card)).toContain(`Черновики закончатся ${dayMonth(slotAt(1), "ru", true)}`);
  // The warning carries an icon, not colour alone.
  expect(await warning.locator("svg").count()).toBeGreaterThan(0);
  const add = card.getByTestId("queue-health-add");
  expect(await add.textContent()).toBe("Придумать заголовки");
  await screenshot(page, "queue-health-dashboard-low");

  // One click: the AI is asked for two weeks of titles at 7 posts a week, 14; the person keeps one. The card stays on the
  // dashboard and its date moves a day on (two drafts: the third slot has none).
  await add.click();
  await keepTitles(page, 14, [3]);
  expect(titleRequests()).toEqual(["14"]);
  expect(page.url()).toBe(`${stack.baseUrl}/`);
  await expect.poll(() => textOf(card), soon).toContain(`Черновики закончатся ${dayMonth(slotAt(2), "ru", true)}`);
  expect(await stateOf(card)).toBe("low");
  // The card itself still opens the project.
  await card.getByText("Книжная полка").click();
  await page.waitForURL(`${stack.baseUrl}/project/${project.id}`);

  // The Drafts page warns the same, with what it means.
  await page.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await expect.poll(() => stateOf(page.locator("main")), soon).toBe("low");
  const pageWarning = await textOf(page.locator("main"));
  expect(pageWarning).toContain(`Черновики закончатся ${dayMonth(slotAt(2), "ru", true)}`);
  expect(pageWarning).toContain("а контент-план и регулярные посты берут 7 в неделю");
  await screenshot(page, "queue-health-drafts-low");

  // One click from the page, ten titles kept: twelve drafts last twelve days, no warning.
  await page.getByTestId("queue-health-add").click();
  await keepTitles(page, 14, [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]);
  expect(titleRequests()).toEqual(["14", "14"]);
  await expect.poll(() => stateOf(page.locator("main")), soon).toBe("ok");
  expect(await textOf(page.locator("main"))).toContain(`Черновиков хватит до ${dayMonth(slotAt(12), "ru")}`);
  const stored = await stack.sql`select count(*)::int as n from app_public.drafts where project_id = ${project.id}`;
  expect(stored[0].n).toBe(12);
  await screenshot(page, "queue-health-drafts-ok");

  // Deleting the drafts brings the warning back at once.
  await page.getByTestId("select-all").check();
  await page.getByTestId("delete-selected").click();
  await page.getByRole("dialog", { name: "Удалить выбранные черновики?" }).getByRole("button", { name: "Удалить выбранные" }).click();
  await expect.poll(() => stateOf(page.locator("main")), soon).toBe("low");
}, 180_000);

test("the warning in English, dark and on a phone", async () => {
  const { time, first } = dailySlot();
  const project = await projectWith("Reading room", everyDay(time), ["First book"]);
  const shots = [
    // Two columns of cards on a tablet: the narrowest card there is.
    { name: "light-820", options: { viewport: { width: 820, height: 900 }, colorScheme: "light" as const } },
    { name: "light-390", options: { viewport: { width: 390, height: 844 }, colorScheme: "light" as const } },
    { name: "dark-1280", options: { colorScheme: "dark" as const } },
    { name: "dark-390", options: { viewport: { width: 390, height: 844 }, colorScheme: "dark" as const } },
  ];
  for (const { name, options } of shots) {
    const phone = await pageAs({ language: "en", ...options });
    await phone.goto(`${stack.baseUrl}/`);
    const card = cardOf(phone, "Reading room");
    await expect.poll(() => stateOf(card), soon).toBe("low");
    expect(await textOf(card)).toContain(`Drafts run out on ${dayMonth(first + DAY_MS, "en", true)}`);
    expect(await card.getByTestId("queue-health-add").textContent()).toBe("Suggest titles");
    await screenshot(phone, `queue-health-dashboard-low-${name}`);
    await phone.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
    await expect.poll(() => stateOf(phone.locator("main")), soon).toBe("low");
    expect(await textOf(phone.locator("main"))).toMatch(/Unplanned drafts: [01]; the content plan and recurring posts take 7 a week\./);
    await settled(phone);
    await screenshot(phone, `queue-health-drafts-low-${name}`);
    if (name === "dark-390") {
      // The dialog on a phone, with the AI's titles in it.
      await phone.getByTestId("queue-health-add").click();
      const dialog = phone.getByRole("dialog", { name: "Add drafts in bulk" });
      await expect.poll(() => dialog.getByTestId("bulk-titles").inputValue(), soon).toContain("Идея для поста № 14");
      await settled(phone);
      await screenshot(phone, "queue-health-titles-dark-390");
    }
    await phone.context().close();
  }
}, 180_000);

test("enough drafts say until when they last, with no warning; nothing on a card without a plan", async () => {
  const { time, first } = dailySlot();
  await projectWith("Двадцать черновиков", everyDay(time), Array.from({ length: 20 }, (_, i) => `Тема ${i + 1}`));
  // One slot a week and ten drafts: ten weeks, past the forecast's 60 days.
  await projectWith("Раз в неделю", [{ dayOfWeek: 3, time: "12:00", postLength: 500 }], Array.from({ length: 10 }, (_, i) => `Тема ${i + 1}`));
  const idle = await projectWith("Без плана", [], ["Одна тема"]);

  const idleRead = page.waitForResponse((res) => res.url().endsWith(`/api/projects/${idle.id}/queue-health`));
  await page.goto(`${stack.baseUrl}/`);
  const twenty = cardOf(page, "Двадцать черновиков");
  await expect.poll(() => stateOf(twenty), soon).toBe("ok");
  expect(await textOf(twenty)).toBe(`Черновиков хватит до ${dayMonth(first + 20 * DAY_MS, "ru")}`);
  const weekly = cardOf(page, "Раз в неделю");
  await expect.poll(() => stateOf(weekly), soon).toBe("ok");
  expect(await textOf(weekly)).toBe(`Черновиков хватит больше чем на ${QUEUE_FORECAST_DAYS} дней`);
  // No warning anywhere on these cards, no button.
  expect(await twenty.getByTestId("queue-health-add").count()).toBe(0);
  expect(await weekly.getByTestId("queue-health-add").count()).toBe(0);
  // Nothing takes drafts: the card says nothing about the queue.
  await expect.poll(() => cardOf(page, "Без плана").count(), soon).toBe(1);
  expect(await (await idleRead).json()).toEqual({ draftsLeft: 1, runsDryAt: null, low: false, postsPerWeek: 0 });
  expect(await cardOf(page, "Без плана").getByTestId("queue-health").count()).toBe(0);
  await screenshot(page, "queue-health-dashboard-ok");

  // The Drafts page of that project: a quiet hint that leads to the content plan.
  await page.goto(`${stack.baseUrl}/project/${idle.id}/drafts`);
  await expect.poll(() => stateOf(page.locator("main")), soon).toBe("idle");
  expect(await textOf(page.locator("main"))).toBe("Черновики пока не расходуются: нет ни контент-плана, ни регулярных постов. Настроить контент-план");
  await page.getByRole("link", { name: "Настроить контент-план" }).click();
  await page.waitForURL(`${stack.baseUrl}/project/${idle.id}/schedule`);
}, 120_000);
