/*
 * The ad report as an owner reads it in Chromium (web/src/pages/Ads.page.tsx, api/routes/ads.ts):
 * reached from the project's navigation, in the light theme and English and in the dark theme
 * and Russian, at 1440 px and on a 390 px phone, where the table scrolls sideways with the
 * advertiser kept in view and a hint; the totals per currency; the home card's month of income;
 * and the CSV export, by the Statistics page's rules (no cell runs as a formula).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Ad } from "../../contract/ads.ts";
import { screenshot } from "../helpers/browser.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

const soon = { timeout: 10_000 };
const HOUR = 3_600_000;

let stack: Stack;
let browser: Browser;
let seeded: Awaited<ReturnType<typeof seed>>;

beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ telegram: true }));
  seeded = await seed();
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

async function seed() {
  const p = await projectWithChannel(stack);
  let message = 500;
  // ads as scheduling and posts__publish leave them, the one with reactions counted through the bot's SQL rule
  const ad = async (title: string, ad: Ad, sentHoursAgo: number, extra: { removedHoursAgo?: number; status?: string; reactions?: Record<string, number> } = {}) => {
    const at = new Date(Date.now() - sentHoursAgo * HOUR);
    const messageId = message++;
    const [{ id }] = await stack.sql<{ id: string }[]>`
      insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, channel_chat_id, channel_message_ids, ad, ad_removed_at)
      values (${p.project.id}, ${title}, 'text', ${extra.status ?? "published"}, ${at}, ${extra.status ? null : at}, ${p.channel.id},
        ${stack.sql.json(extra.status ? [] : [messageId])}, ${stack.sql.json(ad)},
        ${extra.removedHoursAgo === undefined ? null : new Date(Date.now() - extra.removedHoursAgo * HOUR)})
      returning id`;
    if (extra.reactions) {
      await stack.sql`select app_public.record_reaction_count(${messageId}, ${p.channel.id}, ${messageId}, now(),
        ${stack.sql.json(Object.entries(extra.reactions).map(([emoji, n]) => ({ type: { type: "emoji", emoji }, total_count: n })))})`;
    }
    return Number(id);
  };
  const base = { erid: "2VtzqvXyZ1", topMinutes: 60 };
  const removed = await ad("Весенняя распродажа", { ...base, advertiser: "ООО «Ромашка»", feedMinutes: 1440, price: { amount: 15000, currency: "RUB" } }, 26, {
    removedHoursAgo: 2, reactions: { "👍": 5, "🔥": 2 },
  });
  const byHand = await ad('=HYPERLINK("x"), promo', { ...base, advertiser: "Acme Travel", erid: "Kra23fXy", feedMinutes: 4320, price: { amount: 99.99, currency: "USD" } }, 3);
  const due = await ad("Подборка каналов", { ...base, advertiser: "ИП Иванов", feedMinutes: 2880, price: { amount: 500, currency: "XTR" } }, 80);
  const kept = await ad("Обзор кофеен", { ...base, advertiser: "Кофе и точка", feedMinutes: 0 }, 120);
  await ad("Отклонённая", { ...base, advertiser: "Никто", feedMinutes: 1440, price: { amount: 1, currency: "EUR" } }, 10, { status: "rejected" });
  return { p, removed, byHand, due, kept };
}

const adsPath = () => `/project/${seeded.p.project.id}/ads`;

async function openReport(page: Page, navName: string) {
  await page.goto(`${stack.baseUrl}/project/${seeded.p.project.id}`);
  // the project's navigation leads to it
  await page.getByRole("link", { name: navName, exact: true }).first().click();
  await expect.poll(() => page.url(), soon).toContain(adsPath());
  await expect.poll(() => page.getByTestId("ad-row").count(), soon).toBe(4);
}

const shot = async (page: Page, name: string) => {
  // as tall a viewport as the page, so the fixed sidebar reaches the bottom of the picture
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, await page.evaluate(() => document.documentElement.scrollHeight)) });
  await screenshot(page, name);
  await page.setViewportSize(size);
};

const CASES = [
  { scheme: "light", language: "en", nav: "Ads", removedText: /^Removed \d/, dueText: /^Due for removal by hand since /, keptText: "Kept, not removed", totals: ["RUB 15,000", "US$99.99", "500 ★"] },
  { scheme: "dark", language: "ru", nav: "Реклама", removedText: /^Удалена \d/, dueText: /^Удалите вручную: срок /, keptText: "Без удаления", totals: ["15 000 ₽", "99,99 $", "500 ★"] },
] as const;

for (const c of CASES) {
  test(`the report and the home card (${c.scheme}, ${c.language})`, async () => {
    const { removed, byHand, due, kept } = seeded;
    const page = await signedInPage({ stack, browser }, seeded.p.cookie, { colorScheme: c.scheme, language: c.language, viewport: { width: 1440, height: 900 } });
    await page.context().addInitScript((value) => localStorage.setItem("pressa.color-scheme", value), c.scheme);
    await openReport(page, c.nav);
    expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe(c.scheme);

    // newest first; the rejected ad never ran, so it is not listed
    const rows = page.getByTestId("ad-row");
    expect(await rows.evaluateAll((all) => all.map((row) => Number((row as HTMLElement).dataset.postId)))).toEqual([byHand, removed, due, kept]);
    const cell = (postId: number, testId: string) => page.locator(`[data-testid="ad-row"][data-post-id="${postId}"] [data-testid="${testId}"]`);
    const text = async (postId: number, testId: string) => ((await cell(postId, testId).textContent()) ?? "").replace(/\s/g, " ");
    expect(await text(removed, "ad-advertiser")).toBe("ООО «Ромашка»");
    expect(await text(removed, "ad-erid")).toBe("2VtzqvXyZ1");
    expect(await text(removed, "ad-reactions")).toBe("7");
    expect(await text(removed, "ad-removal")).toMatch(c.removedText);
    expect(await text(due, "ad-removal")).toMatch(c.dueText);
    expect(await text(kept, "ad-removal")).toBe(c.keptText);
    expect(await cell(byHand, "ad-removal").getAttribute("data-state")).toBe("byHand");
    expect(await page.getByTestId("ads-total").allTextContents().then((all) => all.map((t) => t.replace(/\s/g, " ")))).toEqual(c.totals);
    // the removal due by hand stands out in either theme
    const dueColour = await cell(due, "ad-removal").evaluate((el) => getComputedStyle(el).color);
    const plainColour = await cell(byHand, "ad-removal").evaluate((el) => getComputedStyle(el).color);
    expect(dueColour).not.toBe(plainColour);
    await shot(page, `ad-report-${c.scheme}-1440`);

    // a phone: the table scrolls sideways, says so, and keeps the advertiser in view
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.getByTestId("ads-scroll-hint").isVisible(), soon).toBe(true);
    const scroller = page.getByTestId("ads-table").locator("xpath=..");
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await shot(page, `ad-report-${c.scheme}-390`);
    await scroller.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
    const advertiser = cell(removed, "ad-advertiser");
    const [box, frame] = [await advertiser.boundingBox(), await scroller.boundingBox()];
    expect(Math.abs(box!.x - frame!.x)).toBeLessThan(2);
    await screenshot(page, `ad-report-${c.scheme}-390-scrolled`, { fullPage: false });

    // the home card: this month's income per currency
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${stack.baseUrl}/`);
    const income = page.locator(`[data-testid="project-card"][data-project-id="${seeded.p.project.id}"] [data-testid="card-ad-income"]`);
    await expect.poll(() => income.count(), soon).toBe(1);
    // this month's only, in the project's zone (Moscow, UTC+3): the dollars went out 3 hours ago
    const moscowMonth = (ms: number) => new Date(ms + 3 * HOUR).getUTCMonth();
    const shown = ((await income.textContent()) ?? "").replace(/\s/g, " ");
    if (moscowMonth(Date.now()) === moscowMonth(Date.now() - 3 * HOUR)) expect(shown).toContain(c.totals[1]);
    expect(shown).not.toMatch(/€|EUR/);
    await screenshot(page, `ad-report-card-${c.scheme}-1440`, { fullPage: false });
    await page.context().close();
  });
}

test("the report exports as CSV: every column, amounts as numbers, no formula", async () => {
  const { byHand } = seeded;
  const page = await signedInPage({ stack, browser }, seeded.p.cookie, { language: "en" });
  await page.goto(`${stack.baseUrl}${adsPath()}`);
  await expect.poll(() => page.getByTestId("ad-row").count(), soon).toBe(4);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("ads-csv").click()]);
  expect(download.suggestedFilename()).toBe("Publishing – Ads.csv");
  const csv = (await Deno.readTextFile(await download.path())).replace(/^\uFEFF/, "");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("Advertiser,erid,Post,Published,On top until,Removal,Reactions,Price,Currency");
  expect(lines).toHaveLength(5);
  // as on screen, newest first; the title kept from running as a formula, the price a number beside its currency
  expect(lines[1]).toMatch(/^Acme Travel,Kra23fXy,"'=HYPERLINK\(""x""\), promo","\d+ \w+ \d{4}, \d\d:\d\d","\d+ \w+ \d{4}, \d\d:\d\d","Remove by hand \d+ \w+ \d{4}, \d\d:\d\d",0,99.99,USD$/);
  expect(lines[2]).toMatch(/^ООО «Ромашка»,2VtzqvXyZ1,Весенняя распродажа,.*,7,15000,RUB$/);
  expect(lines[4]).toMatch(/^Кофе и точка,.*,"Kept, not removed",0,,$/);
  expect(await page.locator(`[data-testid="ad-row"][data-post-id="${byHand}"]`).count()).toBe(1);
  await page.context().close();
});
