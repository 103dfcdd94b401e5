/*
 * The content plan on the Schedule page (spec §3 Content plan, issue 17) in Chromium against
 * the real API: add a slot and see it in its day, change its length, switch it off, remove it;
 * the form's own check names the spec's range, and a refusal of the server (the weekly quota)
 * is shown in the interface language; the phone layout and the dark theme; the times it
 * suggests from the reactions, one added in a click.
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { CONTENT_PLAN_SLOTS_MAX, GENERATED_POST_LENGTH } from "../../contract/limits.ts";
import { screenshot, screenshotsWanted } from "../helpers/browser.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { pastWeekAt, publishedWithReactions } from "../helpers/reactions.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ telegram: true }));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 10_000 };
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** A page signed in as the project's owner, in `language` (the app's default is ru). */
const pageAs = (cookie: string, options: BrowserContextOptions & { language?: "ru" | "en" } = {}) =>
  signedInPage({ stack, browser }, cookie, { viewport: desktop, language: "ru", ...options });

const toasts = (page: Page) => page.getByTestId("toast-region").textContent();
const slots = (page: Page) => page.getByTestId("content-plan-slot");
const plansOf = (projectId: number) =>
  stack.sql`select day_of_week, time, timezone, post_length, active from app_public.content_plans where project_id = ${projectId} order by id`;
/** Thin spaces and no-break spaces of a formatted number read as plain ones. */
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

/** The section alone, for a closer look than the whole page gives (no sticky header over it). */
async function sectionShot(page: Page, name: string) {
  if (!screenshotsWanted()) return;
  const size = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(height, size.height) });
  await screenshot(page.getByTestId("content-plan"), name);
  await page.setViewportSize(size);
}

/** Until the dialog's opening transition has ended (screenshots, focus). */
async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

test("add a slot, see it in its day, change its length, switch it off, remove it", async () => {
  const p = await projectWithChannel(stack, { timezone: "Asia/Yekaterinburg" });
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const plan = page.getByTestId("content-plan");
  await expect.poll(() => plan.getByTestId("content-plan-empty").count(), soon).toBe(1);

  // The empty plan says what the autopilot does.
  const empty = plain(await plan.getByTestId("content-plan-empty").textContent());
  expect(empty).toContain("Переведите канал на автопилот");
  expect(empty).toContain("Каждый слот берёт верхний черновик из очереди.");
  expect(empty).toContain("Черновику без текста ИИ напишет текст длиной, заданной в слоте.");
  expect(empty).toContain("Каждый пост, как и прежде, уходит администратору на согласование.");
  await plan.scrollIntoViewIfNeeded();
  await screenshot(page, "content-plan-empty");

  // Friday 9:30 (typed in a hurry), 800 characters; the project's timezone is the default.
  await plan.getByTestId("content-plan-add").click();
  const form = page.getByRole("dialog", { name: "Новый слот" });
  await expect.poll(() => form.count(), soon).toBe(1);
  expect(await form.getByTestId("slot-timezone").inputValue()).toBe("Asia/Yekaterinburg");
  await form.locator("label").filter({ hasText: "Пятница" }).click();
  await form.getByTestId("slot-time").fill("9:30");
  await form.getByTestId("slot-length").fill("800");
  await settled(page);
  await screenshot(page, "content-plan-dialog");
  const postsReadBefore = stack.answered.filter((a) => a.method === "GET" && a.path === `${p.base}/posts`).length;
  await form.getByTestId("slot-submit").click();
  await expect.poll(() => toasts(page), soon).toContain("Слот добавлен");
  await expect.poll(() => form.count(), soon).toBe(0);
  expect(await plansOf(p.project.id)).toEqual([
    { dayOfWeek: 5, time: "09:30", timezone: "Asia/Yekaterinburg", postLength: 800, active: true },
  ]);
  // The calendar reads its posts again: the autopilot will have planned some for the slot.
  await expect.poll(() => stack.answered.filter((a) => a.method === "GET" && a.path === `${p.base}/posts`).length, soon).toBeGreaterThan(postsReadBefore);

  // In Friday's place in the week, Monday first.
  const friday = plan.locator('[data-testid="content-plan-day"][data-day="5"]');
  await expect.poll(() => friday.getByTestId("content-plan-slot").count(), soon).toBe(1);
  const days = await plan.getByTestId("content-plan-day").evaluateAll((list) => list.map((el) => (el as HTMLElement).dataset.day));
  expect(days).toEqual(["1", "2", "3", "4", "5", "6", "0"]);
  const slot = friday.getByTestId("content-plan-slot");
  expect(await slot.getAttribute("data-time")).toBe("09:30");
  expect(plain(await slot.getByTestId("content-plan-slot-length").textContent())).toBe("800 симв.");
  expect(await slot.getByTestId("content-plan-slot-active").isChecked()).toBe(true);
  expect(plain(await plan.getByTestId("content-plan-summary").textContent())).toBe("Слотов в неделю: 1 · активных: 1");
  // Seven columns side by side at this width.
  const tops = await plan.getByTestId("content-plan-day").evaluateAll((list) => list.map((el) => Math.round(el.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);

  // A second slot from Tuesday's "+", at the default time.
  await plan.locator('[data-testid="content-plan-day"][data-day="2"]').getByRole("button", { name: "Новый слот: Вторник" }).click();
  const second = page.getByRole("dialog", { name: "Новый слот" });
  await expect.poll(() => second.getByTestId("slot-time").inputValue(), soon).toBe("10:00");
  expect(await second.getByRole("radio", { name: "Вторник" }).isChecked()).toBe(true);
  await second.getByTestId("slot-length-preset").filter({ hasText: "3" }).click();
  await second.getByTestId("slot-submit").click();
  await expect.poll(() => slots(page).count(), soon).toBe(2);
  expect((await plansOf(p.project.id))[1]).toEqual({ dayOfWeek: 2, time: "10:00", timezone: "Asia/Yekaterinburg", postLength: 3000, active: true });

  // Change the Friday slot's length: the dialog opens on its values.
  await slot.getByTestId("content-plan-slot-edit").click();
  const edit = page.getByRole("dialog", { name: "Изменить слот" });
  await expect.poll(() => edit.getByTestId("slot-time").inputValue(), soon).toBe("09:30");
  expect(await edit.getByTestId("slot-length").inputValue()).toBe("800");
  expect(await edit.getByRole("radio", { name: "Пятница" }).isChecked()).toBe(true);

  // A length out of the spec's range is refused by the form, in the interface's words.
  await edit.getByTestId("slot-length").fill("20");
  await edit.getByTestId("slot-submit").click();
  await expect.poll(() => edit.getByText("Длина поста — от 50 до 5000 символов").count(), soon).toBe(1);
  const length = edit.getByTestId("slot-length");
  expect(await length.getAttribute("aria-invalid")).toBe("true");
  await settled(page);
  await screenshot(page, "content-plan-dialog-error");
  // So is a time that is not HH:MM.
  await edit.getByTestId("slot-time").fill("24:00");
  await edit.getByTestId("slot-submit").click();
  await expect.poll(() => edit.getByText("Время — в формате ЧЧ:ММ, 24 часа").count(), soon).toBe(1);
  expect((await plansOf(p.project.id))[0].postLength).toBe(800);

  await edit.getByTestId("slot-time").fill("09:30");
  await length.fill("2000");
  expect(await edit.getByText("Длина поста — от 50 до 5000 символов").count()).toBe(0);
  await edit.getByTestId("slot-submit").click();
  await expect.poll(() => toasts(page), soon).toContain("Слот сохранён");
  await expect.poll(async () => plain(await slot.getByTestId("content-plan-slot-length").textContent()), soon).toBe("2 000 симв.");
  expect((await plansOf(p.project.id))[0]).toEqual({ dayOfWeek: 5, time: "09:30", timezone: "Asia/Yekaterinburg", postLength: 2000, active: true });

  // Switch it off, from the keyboard: the switch is its own stop after the slot's button.
  await slot.getByTestId("content-plan-slot-edit").focus();
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Активен: Пятница, 09:30");
  await page.keyboard.press("Space");
  await expect.poll(() => slot.getAttribute("data-active"), soon).toBe(null);
  await expect.poll(async () => (await plansOf(p.project.id))[0].active, soon).toBe(false);
  expect(await slot.getByTestId("content-plan-slot-active").isChecked()).toBe(false);
  expect(plain(await slot.textContent())).toContain("на паузе");
  expect(plain(await plan.getByTestId("content-plan-summary").textContent())).toBe("Слотов в неделю: 2 · активных: 1");
  await page.mouse.move(0, 0);
  await screenshot(page, "content-plan-desktop");
  await sectionShot(page, "content-plan-section-desktop");

  // Opened with Enter, closed with Escape: the focus comes back to the slot.
  await slot.getByTestId("content-plan-slot-edit").focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => edit.count(), soon).toBe(1);
  expect(await edit.getByTestId("slot-active").isChecked()).toBe(false);
  await page.keyboard.press("Escape");
  await expect.poll(() => edit.count(), soon).toBe(0);
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")), soon).toBe("content-plan-slot-edit");

  // Remove it, after a confirmation.
  await slot.getByTestId("content-plan-slot-edit").click();
  await edit.getByTestId("slot-delete").click();
  const confirm = page.getByRole("dialog", { name: "Удалить слот?" });
  await expect.poll(() => confirm.count(), soon).toBe(1);
  expect(await confirm.textContent()).toContain("Слот «Пятница, 09:30» уйдёт из плана.");
  await confirm.getByTestId("confirm-delete").click();
  await expect.poll(() => toasts(page), soon).toContain("Слот удалён");
  await expect.poll(() => slots(page).count(), soon).toBe(1);
  expect(await plansOf(p.project.id)).toEqual([{ dayOfWeek: 2, time: "10:00", timezone: "Asia/Yekaterinburg", postLength: 3000, active: true }]);
  // The focus does not fall to the page's start.
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body), soon).toBe(true);

  // The last one gone, the plan explains itself again. The first removal's dialogs are gone
  // first: on a busy machine a click could otherwise land in the one still fading out.
  await expect.poll(() => edit.count(), soon).toBe(0);
  await expect.poll(() => confirm.count(), soon).toBe(0);
  await slots(page).getByTestId("content-plan-slot-edit").click();
  await expect.poll(() => edit.count(), soon).toBe(1);
  await edit.getByTestId("slot-delete").click();
  await expect.poll(() => confirm.count(), soon).toBe(1);
  await confirm.getByTestId("confirm-delete").click();
  await expect.poll(() => plan.getByTestId("content-plan-empty").count(), soon).toBe(1);
  expect(await plansOf(p.project.id)).toEqual([]);
  await page.context().close();
}, 120_000);

test("at 390 px: one row per day, full-screen dialog, English, and the server's quota in the interface's words", async () => {
  const p = await projectWithChannel(stack, { timezone: "Europe/Moscow" });
  // A full week: the next slot is refused by the server (the form cannot know the count).
  for (let index = 0; index < CONTENT_PLAN_SLOTS_MAX; index += 1) {
    const day = index % 7;
    const time = `${String(6 + Math.floor(index / 7)).padStart(2, "0")}:${index % 2 ? "30" : "00"}`;
    const created = await stack.call("POST", `${p.base}/content-plans`, { dayOfWeek: day, time, postLength: 400 + index * 10 }, p.cookie);
    expect(created.status).toBe(201);
  }
  const page = await pageAs(p.cookie, { viewport: phone, language: "en" });
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const plan = page.getByTestId("content-plan");
  await expect.poll(() => slots(page).count(), soon).toBe(CONTENT_PLAN_SLOTS_MAX);
  expect(plain(await plan.getByTestId("content-plan-summary").textContent())).toBe(`Slots a week: ${CONTENT_PLAN_SLOTS_MAX} · active: ${CONTENT_PLAN_SLOTS_MAX}`);

  // Days are rows, one under the other, and nothing is wider than the phone.
  const boxes = await plan.getByTestId("content-plan-day").evaluateAll((list) => list.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
  for (let index = 1; index < boxes.length; index += 1) {
    expect(boxes[index].top).toBeGreaterThanOrEqual(boxes[index - 1].bottom - 1);
    expect(Math.round(boxes[index].left)).toBe(Math.round(boxes[0].left));
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  expect(plain(await slots(page).first().getByTestId("content-plan-slot-length").textContent())).toBe("410 chars");

  await plan.getByTestId("content-plan-add").click();
  const form = page.getByRole("dialog", { name: "New slot" });
  await expect.poll(() => form.count(), soon).toBe(1);
  const box = await form.boundingBox();
  expect(Math.round(box!.width)).toBe(phone.width);
  await form.getByTestId("slot-time").fill("2230");
  await form.getByTestId("slot-submit").click();
  await expect.poll(() => form.getByText("Time must be HH:MM on a 24-hour clock").count(), soon).toBe(1);
  await form.getByTestId("slot-time").fill("22:30");
  await form.getByTestId("slot-length").fill("9000");
  await form.getByTestId("slot-submit").click();
  await expect.poll(() => form.getByText("Post length must be 50 to 5000 characters").count(), soon).toBe(1);
  await form.getByTestId("slot-length").fill("1200");
  await form.getByTestId("slot-submit").click();
  await expect.poll(() => form.getByTestId("slot-form-error").textContent(), soon).toBe(`A content plan holds at most ${CONTENT_PLAN_SLOTS_MAX} slots a week`);
  expect(await toasts(page)).toContain("Couldn't save the slot");
  expect(await plansOf(p.project.id)).toHaveLength(CONTENT_PLAN_SLOTS_MAX);
  await settled(page);
  await screenshot(page, "content-plan-phone-dialog");
  await page.keyboard.press("Escape");
  await expect.poll(() => form.count(), soon).toBe(0);
  await page.context().close();
});

test("a small plan at 390 px and in the dark theme: pictures to look at", async () => {
  const p = await projectWithChannel(stack, { timezone: "Europe/Moscow" });
  const add = async (dayOfWeek: number, time: string, postLength: number, extra: Record<string, unknown> = {}) => {
    const created = await stack.call("POST", `${p.base}/content-plans`, { dayOfWeek, time, postLength, ...extra }, p.cookie);
    expect(created.status, created.text).toBe(201);
  };
  await add(1, "09:00", 1500);
  await add(1, "18:30", 600);
  await add(3, "12:00", 2500, { active: false });
  await add(5, "10:00", 1500, { timezone: "America/New_York" });
  await add(6, "11:15", 300);

  for (const [name, options] of [
    ["content-plan-phone", { viewport: phone }],
    ["content-plan-phone-en", { viewport: phone, language: "en" }],
    ["content-plan-dark", { viewport: desktop, colorScheme: "dark" }],
    ["content-plan-phone-dark", { viewport: phone, colorScheme: "dark" }],
  ] as const) {
    const page = await pageAs(p.cookie, options);
    await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
    await expect.poll(() => slots(page).count(), soon).toBe(5);
    // A slot in another timezone than the project's says where.
    const zoned = page.locator('[data-testid="content-plan-day"][data-day="5"]').getByTestId("content-plan-slot");
    expect(plain(await zoned.textContent())).toContain("New York");
    await screenshot(page, name);
    await page.mouse.move(0, 0);
    await sectionShot(page, `${name}-section`);
    await page.context().close();
  }
}, 120_000);

test("Suggest times: first how many posts with reactions are missing, then the best hours, one added to the plan in a click", async () => {
  const p = await projectWithChannel(stack, { timezone: "Europe/Moscow" });
  /** A post at `weekday` (1 = Monday) `hour` Moscow time (UTC+3 all year), with its reactions recorded as the bot records them. */
  const publish = (weekday: number, hour: number, weeksBack: number, reactions: number) =>
    publishedWithReactions(stack.sql, p.project.id, p.channel.id, pastWeekAt(3, weekday, hour, weeksBack), reactions);
  for (let week = 0; week < 4; week++) await publish(4, 19, week, 9 - week);
  for (let week = 0; week < 3; week++) await publish(1, 8, week, 2);

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const plan = page.getByTestId("content-plan");
  await expect.poll(() => plan.getByTestId("content-plan-empty").count(), soon).toBe(1);
  const suggest = plan.getByTestId("content-plan-suggest");
  expect(await suggest.textContent()).toBe("Подобрать время");
  await suggest.click();
  const panel = plan.getByTestId("suggested-times");
  await expect.poll(() => panel.getByTestId("suggested-times-wait").count(), soon).toBe(1);
  expect(plain(await panel.getByTestId("suggested-times-wait").textContent())).toBe(
    "Для подсказок пока мало данных: опубликуйте ещё посты, на которые отреагируют читатели (нужно ещё: 3). " +
      "Выходить они должны в разные часы недели (нужно ещё разных часов: 1).",
  );
  expect(await suggest.getAttribute("aria-expanded")).toBe("true");

  // Three more posts with reactions at a third hour; opening the suggestions again reads them anew.
  for (let week = 0; week < 3; week++) await publish(6, 12, week, 4);
  await suggest.click();
  await expect.poll(() => panel.count(), soon).toBe(0);
  await suggest.click();
  const times = panel.getByTestId("suggested-time");
  await expect.poll(() => times.count(), soon).toBe(3);
  expect((await times.allTextContents()).map(plain)).toEqual([
    "Четверг, 19:00в среднем реакций на пост: 7,5 · постов: 4Добавить",
    "Суббота, 12:00в среднем реакций на пост: 4 · постов: 3Добавить",
    "Понедельник, 08:00в среднем реакций на пост: 2 · постов: 3Добавить",
  ]);
  await screenshot(page, "content-plan-suggested-times");

  await panel.getByRole("button", { name: "Добавить в план: Четверг, 19:00" }).click();
  await expect.poll(() => toasts(page), soon).toContain("Слот добавлен");
  expect(await plansOf(p.project.id)).toEqual([
    { dayOfWeek: 4, time: "19:00", timezone: "Europe/Moscow", postLength: GENERATED_POST_LENGTH.default, active: true },
  ]);
  const thursday = plan.locator('[data-testid="content-plan-day"][data-day="4"]').getByTestId("content-plan-slot");
  await expect.poll(() => thursday.count(), soon).toBe(1);
  expect(await thursday.getAttribute("data-time")).toBe("19:00");
  // The suggestion now says it is in the plan; the others can still be added.
  await expect.poll(() => times.first().getByTestId("suggested-time-in-plan").count(), soon).toBe(1);
  expect(plain(await times.first().getByTestId("suggested-time-in-plan").textContent())).toBe("Уже в плане");
  expect(await panel.getByTestId("suggested-time-add").count()).toBe(2);
  await page.context().close();
}, 120_000);
