/*
 * The schedule for real use, in Chromium with a fixed clock (28 November, a month's end):
 * on a phone the next month's first days in the grid carry their markers and open their day;
 * the two-week list view shows the same posts, opens the same details, and is remembered.
 */
import { CalendarDate, CalendarDateTime, now, toZoned } from "@internationalized/date";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ bot: true }));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const TZ = "Europe/Moscow"; // projectWithChannel's project timezone
const soon = { timeout: 5_000 };
const refetch = { timeout: 12_000 };
const phone = { width: 390, height: 844 };
const desktop = { width: 1440, height: 900 };

// Next year's 28 November, noon in Moscow: a month's end whose grid shows December's first days,
// still ahead of the server's clock, so the posts are in the future for the API too.
const YEAR = now(TZ).year + 1;
const TODAY = new CalendarDate(YEAR, 11, 28);
const at = (day: CalendarDate, hour: number) => toZoned(new CalendarDateTime(day.year, day.month, day.day, hour, 0), TZ);

async function plannedProject() {
  const p = await projectWithChannel(stack, { drafts: ["Декабрьский анонс новогодней ярмарки на главной площади", "Запас", "Ещё запас"] });
  const schedule = async (body: Record<string, unknown>) => {
    const created = await stack.call("POST", `${p.base}/posts`, body, p.cookie);
    if (created.status !== 201) throw new Error(`schedule: ${created.text}`);
    return created.json.id as number;
  };
  const december2 = new CalendarDate(YEAR, 12, 2);
  const oneOff = await schedule({ draftId: p.drafts[0].id, title: p.drafts[0].title, scheduledFor: at(december2, 12).toAbsoluteString() });
  // a weekly series from 30 November: 30 November and 7 December are in the next two weeks, 14 December is not
  await schedule({ scheduledFor: at(new CalendarDate(YEAR, 11, 30), 9).toAbsoluteString(), isRecurring: true, recurringType: "weekly", title: "Обзор недели" });
  return { p, oneOff, december2 };
}

/** A page whose clock stands at TODAY's noon in Moscow (timers still run, so refetches happen). */
async function pageAt(cookie: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await signedInPage({ stack, browser }, cookie, { viewport });
  await page.clock.setFixedTime(at(TODAY, 12).toDate());
  return page;
}

const dayCell = (page: Page, day: CalendarDate) => page.locator(`[data-testid="calendar-day"][data-date="${day.toString()}"]`);

test("on a phone at a month's end, the next month's first days carry their markers and open", async () => {
  const { p, december2 } = await plannedProject();
  const page = await pageAt(p.cookie, phone);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const calendar = page.getByTestId("schedule-calendar");
  await expect.poll(() => calendar.getAttribute("data-layout"), refetch).toBe("compact");
  expect((await page.getByTestId("calendar-month").textContent())?.toLowerCase()).toContain("ноябр");
  // 2 December is in November's grid (its last week), marked and a button to open
  const cell = dayCell(page, december2);
  await expect.poll(() => cell.locator("[data-tone]").count(), refetch).toBe(1);
  expect(await cell.getAttribute("aria-label")).toContain("постов: 1");
  // the series' first date, 30 November, is marked too
  expect(await dayCell(page, new CalendarDate(YEAR, 11, 30)).locator("[data-tone]").count()).toBe(1);
  await cell.click();
  const agenda = page.getByTestId("calendar-agenda");
  await expect.poll(() => agenda.getAttribute("data-date"), soon).toBe(december2.toString());
  expect(await agenda.textContent()).toContain("Декабрьский анонс новогодней ярмарки");
  await screenshot(page, "schedule-phone-month-end");
  // the post opens its details from there, as from the wide grid
  await agenda.getByTestId("calendar-post").click();
  const details = page.getByRole("dialog");
  await expect.poll(() => details.textContent(), refetch).toContain("Декабрьский анонс новогодней ярмарки");
}, 90_000);

test("the two-week list shows what is coming, opens the same details and is remembered", async () => {
  const { p, december2 } = await plannedProject();
  const page = await pageAt(p.cookie, desktop);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await expect.poll(() => page.getByTestId("schedule-calendar").getAttribute("data-layout"), refetch).toBe("wide");
  // On the wide grid the whole title shows (it wraps instead of being cut).
  const wideChip = page.getByTestId("calendar-post").filter({ hasText: "Декабрьский" });
  await expect.poll(() => wideChip.count(), refetch).toBe(1);
  await screenshot(page, "schedule-wide-month-end");
  expect(await wideChip.evaluate((node) => node.scrollWidth <= node.clientWidth && node.scrollHeight <= node.clientHeight)).toBe(true);

  await page.getByTestId("schedule-view").getByText("Список на 14 дней").click();
  const agenda = page.getByTestId("schedule-agenda");
  await expect.poll(() => agenda.count(), soon).toBe(1);
  const days = agenda.getByTestId("agenda-day");
  expect(await days.count()).toBe(14);
  expect(await days.first().getAttribute("data-date")).toBe(TODAY.toString());
  expect(await days.last().getAttribute("data-date")).toBe(TODAY.add({ days: 13 }).toString());
  const onDec2 = agenda.locator(`[data-testid="agenda-day"][data-date="${december2}"]`);
  await expect.poll(() => onDec2.textContent(), refetch).toContain("Декабрьский анонс новогодней ярмарки на главной площади");
  // the series' dates in the two weeks (30 November, 7 December) are listed, 14 December is not
  const repeats = agenda.getByTestId("calendar-post").filter({ hasText: "09:00" });
  await expect.poll(() => repeats.count(), refetch).toBe(2);
  await screenshot(page, "schedule-agenda-desktop");

  await onDec2.getByTestId("calendar-post").click();
  const details = page.getByRole("dialog");
  await expect.poll(() => details.textContent(), refetch).toContain("Декабрьский анонс новогодней ярмарки");
  await page.keyboard.press("Escape");
  await expect.poll(() => details.count(), soon).toBe(0);

  // The choice stays on this device: the list opens again after a reload, on a phone too.
  await page.setViewportSize(phone);
  await page.reload();
  await expect.poll(() => page.getByTestId("schedule-agenda").count(), refetch).toBe(1);
  expect(await page.getByTestId("schedule-calendar").count()).toBe(0);
  await screenshot(page, "schedule-agenda-phone");
}, 90_000);
