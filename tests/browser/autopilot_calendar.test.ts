/*
 * Autopilot on the calendar, in Chromium against the real stack: a content plan slot's post
 * appears marked as autopilot, says the AI is writing while it does, and a series' skipped
 * date shows crossed out, taking no draft.
 */
import { type CalendarDate, now, toCalendarDate } from "@internationalized/date";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ bot: true, openai: true }));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const TZ = "Europe/Moscow";
const refetch = { timeout: 15_000 };

const pageAs = (cookie: string) => signedInPage({ stack, browser }, cookie);

async function showMonthOf(page: Page, day: CalendarDate) {
  const today = toCalendarDate(now(TZ));
  const months = (day.year - today.year) * 12 + day.month - today.month;
  for (let i = 0; i < months; i += 1) await page.getByTestId("calendar-next").click();
}

const chip = (page: Page, text: string) => page.getByTestId("calendar-post").filter({ hasText: text });

test("an autopilot post is marked on the calendar and says when the AI is still writing it", async () => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  stack.openai!.reply(async () => {
    await gate;
    return "**Выходные** в городе: ярмарка и концерт.";
  });
  const p = await projectWithChannel(stack, { drafts: ["Планы на выходные"] });
  const day = toCalendarDate(now(TZ)).add({ days: 3 });
  const dayOfWeek = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
  expect((await stack.call("POST", `${p.base}/content-plans`, { dayOfWeek, time: "12:00", postLength: 200 }, p.cookie)).status).toBe(201);

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await showMonthOf(page, day);
  const post = chip(page, "Планы на выходные");
  await expect.poll(() => post.getAttribute("data-autopilot"), refetch).toBe("true");
  expect(await post.textContent()).toContain("Автопилот: ИИ пишет текст");
  await screenshot(page, "autopilot-calendar-writing");

  release();
  await expect.poll(() => post.textContent(), refetch).not.toContain("ИИ пишет текст");
  expect(await post.textContent()).toContain("Автопилот");
  const [row] = await stack.sql`select content from app_public.posts where project_id = ${p.project.id} and plan_id is not null`;
  expect(row.content).toBe("Выходные в городе: ярмарка и концерт.");
  stack.openai!.reset();
}, 60_000);

test("a series' skipped date is crossed out and takes no draft: the next date takes it", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Первый", "Второй"] });
  // three days in one month, so one month's grid shows them all
  const soonest = toCalendarDate(now(TZ)).add({ days: 2 });
  const first = soonest.add({ days: 2 }).month === soonest.month ? soonest : soonest.add({ days: 5 });
  // 10:00 Moscow is 07:00 UTC
  const at = (d: CalendarDate) => new Date(Date.UTC(d.year, d.month - 1, d.day, 7)).toISOString();
  const { id } = (await stack.call("POST", `${p.base}/posts`, {
    scheduledFor: at(first), isRecurring: true, recurringType: "daily", title: "",
  }, p.cookie)).json;
  expect((await stack.call("POST", `${p.base}/posts/${id}/skip`, { at: at(first.add({ days: 1 })) }, p.cookie)).status).toBe(200);

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await showMonthOf(page, first);
  const cell = (d: CalendarDate) => page.locator(`[data-testid="calendar-day"][data-date="${d.toString()}"]`);
  await expect.poll(() => cell(first).getByTestId("calendar-post").textContent(), refetch).toContain("Первый");
  const skipped = cell(first.add({ days: 1 })).getByTestId("calendar-post");
  expect(await skipped.getAttribute("data-skipped")).toBe("true");
  expect(await skipped.textContent()).toContain("Пропущено");
  // the date after the skipped one takes the second draft
  expect(await cell(first.add({ days: 2 })).getByTestId("calendar-post").textContent()).toContain("Второй");
  await screenshot(page, "autopilot-calendar-skipped");
}, 60_000);
