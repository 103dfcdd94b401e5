/*
 * A recurring series' end and skipped dates as a person uses them (issue 17 §4), in Chromium
 * against the real stack with the bot and the local Bot API: a daily series made in the
 * schedule dialog to end after 3 posts shows 3 dates, then, changed to end on a day, stops
 * there; a bad end is refused in the interface's words before anything is sent; one future
 * date is skipped from its details (crossed out, the next date takes its draft) and brought
 * back.
 */
import { type CalendarDate, now, startOfMonth, toCalendarDate } from "@internationalized/date";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Post } from "../../contract/posts.ts";
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
const soon = { timeout: 10_000 };
// The calendar refetches posts every 5 seconds.
const refetch = { timeout: 15_000 };

/** A first day with ten days after it in the same month, so one month's grid shows them all. */
function firstDay(): CalendarDate {
  const tomorrow = toCalendarDate(now(TZ)).add({ days: 1 });
  return tomorrow.add({ days: 10 }).month === tomorrow.month ? tomorrow : startOfMonth(tomorrow.add({ months: 1 }));
}
// 10:00 in Moscow is 07:00 UTC.
const tenAm = (day: CalendarDate) => new Date(Date.UTC(day.year, day.month - 1, day.day, 7)).toISOString();

async function showMonthOf(page: Page, day: CalendarDate) {
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);
  const today = toCalendarDate(now(TZ));
  const months = (day.year - today.year) * 12 + day.month - today.month;
  for (let i = 0; i < months; i += 1) await page.getByTestId("calendar-next").click();
}

const cell = (page: Page, day: CalendarDate) => page.locator(`[data-testid="calendar-day"][data-date="${day.toString()}"]`);
const chipOn = (page: Page, day: CalendarDate) => cell(page, day).getByTestId("calendar-post");
const toasts = (page: Page) => page.getByTestId("toast-region").textContent();
/** The days (YYYY-MM-DD) that show a post, in order. */
const daysWithPosts = (page: Page) =>
  page.locator('[data-testid="calendar-day"]:has([data-testid="calendar-post"])').evaluateAll((cells) => cells.map((c) => c.getAttribute("data-date")));
const range = (first: CalendarDate, count: number) => Array.from({ length: count }, (_, i) => first.add({ days: i }).toString());

async function seriesOf(cookie: string, base: string): Promise<Post> {
  const posts = (await stack.call("GET", `${base}/posts`, undefined, cookie)).json as Post[];
  const series = posts.find((post) => post.isRecurring);
  if (!series) throw new Error("no series");
  return series;
}

test("a daily series made to end after 3 posts shows 3 dates; ended on a day instead, it stops there; a bad end is refused in words", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Первый", "Второй", "Третий", "Четвёртый", "Пятый", "Шестой", "Седьмой"] });
  const first = firstDay();
  const page = await signedInPage({ stack, browser }, p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await showMonthOf(page, first);

  // Made in the dialog: daily at 10:00 from the first day, ending after 3 posts.
  await cell(page, first).hover();
  await cell(page, first).getByTestId("add-post").click();
  const form = page.getByRole("dialog", { name: "Запланировать пост" });
  await expect.poll(() => form.getByTestId("schedule-date").inputValue(), soon).toBe(first.toString());
  await form.getByTestId("schedule-time").fill("10:00");
  await form.getByTestId("schedule-repeat").getByText("Ежедневно", { exact: true }).click();
  const ends = form.getByTestId("schedule-ends");
  expect(await ends.getByRole("radio", { name: "Никогда" }).isChecked()).toBe(true);
  await ends.getByText("После N постов", { exact: true }).click();
  await ends.getByTestId("schedule-ends-after").fill("3");
  await page.waitForTimeout(300); // the dialog's opening transition
  await screenshot(page, "series-end-dialog-after");
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => toasts(page), soon).toContain("Пост запланирован");
  expect(await seriesOf(p.cookie, p.base)).toMatchObject({ endsAfter: 3, endsOn: null, occurrencesMade: 0, scheduledFor: tenAm(first) });

  // Exactly three dates, taking the first three drafts.
  await expect.poll(() => daysWithPosts(page), soon).toEqual(range(first, 3));
  for (const [offset, title] of ["Первый", "Второй", "Третий"].entries()) {
    expect(await chipOn(page, first.add({ days: offset })).textContent()).toContain(title);
  }
  await page.mouse.move(0, 0);
  await screenshot(page, "series-end-calendar-after-3");

  // Its details say how it ends; Edit shows the same end and how many are made.
  await chipOn(page, first.add({ days: 1 })).click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.getByTestId("post-details-ends").textContent(), soon).toBe("После 3-го поста (уже создано: 0)");
  await details.getByTestId("post-edit").click();
  const edit = page.getByRole("dialog", { name: "Изменить регулярный пост" });
  const editEnds = edit.getByTestId("schedule-ends");
  await expect.poll(() => editEnds.getByRole("radio", { name: "После N постов" }).isChecked(), soon).toBe(true);
  expect(await editEnds.getByTestId("schedule-ends-after").inputValue()).toBe("3");
  expect(await editEnds.textContent()).toContain("Уже создано: 0 из 3");

  // Refused before anything is sent: no count, a count out of range, a day before the first post.
  const puts = () => stack.answered.filter((a) => a.method === "PUT" && a.path.startsWith(`${p.base}/posts/`)).length;
  await editEnds.getByTestId("schedule-ends-after").fill("");
  await edit.getByTestId("schedule-submit").click();
  await expect.poll(() => editEnds.textContent(), soon).toContain("Число публикаций — целое, от 1 до 1000");
  const refusedCount = "Число публикаций — целое, от 1 до 1000";
  await editEnds.getByTestId("schedule-ends-after").fill("1001");
  // a change takes the message away until the next attempt
  await expect.poll(() => editEnds.textContent(), soon).not.toContain(refusedCount);
  await edit.getByTestId("schedule-submit").click();
  await expect.poll(() => editEnds.textContent(), soon).toContain(refusedCount);
  expect(await editEnds.getByTestId("schedule-ends-after").getAttribute("aria-invalid")).toBe("true");
  await editEnds.getByText("В день", { exact: true }).click();
  const endDay = editEnds.getByTestId("schedule-ends-on");
  expect(await endDay.getAttribute("min")).toBe(first.toString());
  await endDay.fill(first.subtract({ days: 1 }).toString());
  await edit.getByTestId("schedule-submit").click();
  await expect.poll(() => editEnds.textContent(), soon).toContain("Серия не может закончиться раньше первой публикации");
  expect(await editEnds.textContent()).toContain(`по часовому поясу проекта, ${TZ}`);
  await page.waitForTimeout(300);
  await screenshot(page, "series-end-dialog-refused");
  expect(puts()).toBe(0);

  // Ending on the fifth day instead: five dates, none after.
  const lastDay = first.add({ days: 4 });
  await endDay.fill(lastDay.toString());
  await expect.poll(() => editEnds.textContent(), soon).not.toContain("Серия не может закончиться");
  await edit.getByTestId("schedule-submit").click();
  await expect.poll(() => toasts(page), soon).toContain("Расписание поста обновлено");
  expect(await seriesOf(p.cookie, p.base)).toMatchObject({ endsAfter: null, endsOn: lastDay.toString() });
  await expect.poll(() => daysWithPosts(page), soon).toEqual(range(first, 5));
  expect(await chipOn(page, lastDay).textContent()).toContain("Пятый");
  await chipOn(page, lastDay).click();
  await expect.poll(() => details.getByTestId("post-details-ends").textContent(), soon).toMatch(/^\d+ \S+ — последний день$/);
  await page.keyboard.press("Escape");
  await page.context().close();
}, 180_000);

test("a future date is skipped from its details: crossed out, the next date takes its draft; then brought back", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Первый", "Второй", "Третий", "Четвёртый"] });
  const first = firstDay();
  const created = await stack.call("POST", `${p.base}/posts`, {
    scheduledFor: tenAm(first), isRecurring: true, recurringType: "daily", title: "", endsAfter: 4,
  }, p.cookie);
  expect(created.status).toBe(201);
  const page = await signedInPage({ stack, browser }, p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await showMonthOf(page, first);
  const second = first.add({ days: 1 });
  /** What the first five days show: a draft's title, "skipped", or "—" for nothing. */
  const titles = async () => {
    const shown: string[] = [];
    for (let offset = 0; offset < 5; offset += 1) {
      const chip = chipOn(page, first.add({ days: offset }));
      if ((await chip.count()) === 0) shown.push("—");
      else if (await chip.getAttribute("data-skipped")) shown.push("skipped");
      else shown.push((await chip.textContent())!.replace(/^10:00 /, "").split(",")[0]);
    }
    return shown;
  };
  await expect.poll(titles, soon).toEqual(["Первый", "Второй", "Третий", "Четвёртый", "—"]);

  await chipOn(page, second).click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => page.getByTestId("post-details-title").textContent(), soon).toBe("Второй");
  expect(await details.getByTestId("post-details-ends").textContent()).toBe("После 4-го поста (уже создано: 0)");
  await page.waitForTimeout(300);
  await screenshot(page, "series-skip-details");
  await details.getByTestId("post-skip").click();
  await expect.poll(() => toasts(page), soon).toContain("Дата пропущена");

  // Crossed out, the series goes on: the next dates take the drafts, and a fifth date comes
  // (a skipped date is not one of the 4 posts).
  await expect.poll(() => chipOn(page, second).getAttribute("data-skipped"), soon).toBe("true");
  expect(await chipOn(page, second).textContent()).toContain("Пропущено");
  await expect.poll(titles, soon).toEqual(["Первый", "skipped", "Второй", "Третий", "Четвёртый"]);
  expect((await seriesOf(p.cookie, p.base)).skippedOccurrences).toEqual([tenAm(second)]);
  // The details stay open on the skipped date, which can be brought back; the focus stays on the button.
  await expect.poll(() => page.getByTestId("post-details-title").textContent(), soon).toBe("Пропущено");
  expect(await details.getByTestId("post-details-hint").textContent()).toContain("Эта дата пропущена");
  expect(await details.getByTestId("post-details-draft").count()).toBe(0);
  const skip = details.getByTestId("post-skip");
  expect(await skip.textContent()).toBe("Вернуть дату");
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")), soon).toBe("post-skip");
  await page.waitForTimeout(300);
  await screenshot(page, "series-skip-skipped");

  await skip.click();
  await expect.poll(() => toasts(page), soon).toContain("Дата возвращена");
  await expect.poll(titles, soon).toEqual(["Первый", "Второй", "Третий", "Четвёртый", "—"]);
  expect((await seriesOf(p.cookie, p.base)).skippedOccurrences).toEqual([]);
  await expect.poll(() => skip.textContent(), soon).toBe("Пропустить эту дату");
  await page.context().close();
}, 120_000);
