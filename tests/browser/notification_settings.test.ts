/*
 * The e-mail notification switches on the Settings page (issue 17, "Notifications to the
 * owner") in Chromium against the real API: every kind is on at first and the hint names the
 * account's address; a switch turned off (with the keyboard) stays off after a reload and in
 * GET /api/notifications; a save the server refuses puts the switch back and says so. The
 * weekly summary's switch (issue 27) is on for a new account and off for one older than it.
 * In Russian and English, light and dark, desktop and phone.
 * Home of api/routes/notifications.ts (docs/testing.md).
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { NOTIFICATION_SWITCHES } from "../../contract/notifications.ts";
import { screenshot, screenshotsWanted } from "../helpers/browser.ts";
import { type Stack, uniqueEmail } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack());
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 10_000 };
const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

/** A page signed in as `cookie`'s user, in `language` (the app's default is ru). */
const pageAs = (cookie: string, options: BrowserContextOptions & { language?: "ru" | "en" } = {}) =>
  signedInPage({ stack, browser }, cookie, { viewport: desktop, language: "ru", ...options });

const section = (page: Page) => page.getByTestId("notification-settings");
const switchOf = (page: Page, kind: string) => page.getByTestId(`notification-switch-${kind}`);
const checkedOf = (page: Page) =>
  Promise.all(NOTIFICATION_SWITCHES.map(async (kind) => [kind, await switchOf(page, kind).isChecked()] as const)).then(Object.fromEntries);
const allOn = Object.fromEntries(NOTIFICATION_SWITCHES.map((kind) => [kind, true]));
const toasts = (page: Page) => page.getByTestId("toast-region").textContent();

async function openSettings(page: Page) {
  await page.goto(`${stack.baseUrl}/settings`);
  await expect.poll(() => switchOf(page, "channelLost").count(), soon).toBe(1);
}

/** Until every finite transition (a switch's thumb, a toast) is over. */
async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

/** The section alone, for a closer look than the whole page gives. */
async function sectionShot(page: Page, name: string) {
  if (!screenshotsWanted()) return;
  await settled(page);
  await screenshot(section(page), name);
}

test("every kind is on at first; one turned off with the keyboard stays off after a reload and in the API", async () => {
  const email = uniqueEmail("notify");
  const { cookie } = await stack.signIn(email);
  const page = await pageAs(cookie);
  await openSettings(page);

  // All four on, each named with what it is about; the hint says where and how often mail goes.
  expect(await checkedOf(page)).toEqual(allOn);
  const rejected = page.getByRole("switch", { name: "Пост отклонён" });
  expect(await rejected.getAttribute("aria-describedby")).toBeTruthy();
  expect(await section(page).getByRole("heading", { name: "Уведомления на почту" }).count()).toBe(1);
  const hint = await page.getByTestId("notification-settings-hint").textContent();
  expect(hint).toContain(email);
  expect(await page.getByTestId("notification-settings-email").textContent()).toBe(email);
  expect(hint).toContain("не больше одного письма в день");
  expect(await section(page).textContent()).toContain("Администратору канала об этом всегда приходит короткое сообщение в Telegram");
  await sectionShot(page, "notification-settings-light-ru");

  // Off with the keyboard: Tab reaches the switch, Space flips it, and the change is saved.
  await switchOf(page, "queueLow").focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("notification-switch-postRejected");
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/notifications") && r.request().method() === "PATCH");
  await page.keyboard.press("Space");
  expect(await rejected.isChecked()).toBe(false);
  expect((await saved).status()).toBe(200);
  expect(JSON.parse((await saved).request().postData() ?? "")).toEqual({ postRejected: false });

  await page.reload();
  await openSettings(page);
  expect(await checkedOf(page)).toEqual({ ...allOn, postRejected: false });
  const read = await stack.call("GET", "/api/notifications", undefined, cookie);
  expect(read.json).toEqual({ ...allOn, postRejected: false });

  // A click turns it back on.
  await rejected.click();
  await expect.poll(async () => (await stack.call("GET", "/api/notifications", undefined, cookie)).json, soon).toEqual(allOn);
  await page.context().close();
});

test("a save the server refuses puts the switch back and says so", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("notify-fail"));
  const page = await pageAs(cookie);
  await openSettings(page);
  await page.route("**/api/notifications", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "boom", code: "internal" }) })
      : route.fallback());

  await switchOf(page, "postFailed").click();
  await expect.poll(() => toasts(page), soon).toContain("Не удалось сохранить настройку уведомлений");
  await expect.poll(() => switchOf(page, "postFailed").isChecked(), soon).toBe(true);
  expect(await checkedOf(page)).toEqual(allOn);
  expect((await stack.call("GET", "/api/notifications", undefined, cookie)).json).toEqual(allOn);

  // Once the server takes saves again, the same switch goes off and stays off.
  await page.unroute("**/api/notifications");
  await switchOf(page, "postFailed").click();
  await expect.poll(async () => (await stack.call("GET", "/api/notifications", undefined, cookie)).json, soon)
    .toEqual({ ...allOn, postFailed: false });
  expect(await switchOf(page, "postFailed").isChecked()).toBe(false);
  await page.context().close();
});

test("in English, dark, on a phone: the section fits the screen", async () => {
  const email = uniqueEmail("notify-phone");
  const { cookie } = await stack.signIn(email);
  await stack.call("PATCH", "/api/notifications", { channelLost: false }, cookie);
  const page = await pageAs(cookie, { language: "en", viewport: phone, colorScheme: "dark" });
  await openSettings(page);
  expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe("dark");
  expect(await checkedOf(page)).toEqual({ ...allOn, channelLost: false });
  expect(await page.getByRole("switch", { name: "Posting rights lost" }).isChecked()).toBe(false);
  expect(await page.getByTestId("notification-settings-hint").textContent()).toContain("At most one mail per project, kind and day.");
  // Nothing wider than the phone: no sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  await sectionShot(page, "notification-settings-dark-en-390");
  // Scrolled to the end, the last switch is clear of the floating bug-report button.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await settled(page);
  await screenshot(page, "notification-settings-dark-en-390-bottom", { fullPage: false });
  const track = (await switchOf(page, "weeklySummary").locator("xpath=following-sibling::*[1]").boundingBox())!;
  const bug = (await page.getByTestId("bug-report-button").boundingBox())!;
  const apart = track.y + track.height <= bug.y || bug.y + bug.height <= track.y ||
    track.x + track.width <= bug.x || bug.x + bug.width <= track.x;
  expect(apart).toBe(true);

  const light = await pageAs(cookie, { language: "en", viewport: phone, colorScheme: "light" });
  await openSettings(light);
  await sectionShot(light, "notification-settings-light-en-390");
  const dark = await pageAs(cookie, { viewport: desktop, colorScheme: "dark" });
  await openSettings(dark);
  await sectionShot(dark, "notification-settings-dark-ru");
  for (const p of [page, light, dark]) await p.context().close();
});

test("the weekly summary: on for a new account, off for one older than it until switched on", async () => {
  const { cookie, user } = await stack.signIn(uniqueEmail("weekly"));
  // what migration 46 left an account that existed before the summary
  await stack.sql`update app_public.users set weekly_summary = false where id = ${user.id}`;
  const page = await pageAs(cookie);
  await openSettings(page);
  const weekly = page.getByRole("switch", { name: "Итоги недели" });
  expect(await weekly.isChecked()).toBe(false);
  expect(await section(page).textContent()).toContain("По понедельникам в 9:00 по времени проекта");
  expect(await checkedOf(page)).toEqual({ ...allOn, weeklySummary: false });

  await weekly.click();
  await expect.poll(async () => (await stack.call("GET", "/api/notifications", undefined, cookie)).json, soon).toEqual(allOn);
  expect((await stack.sql`select weekly_summary from app_public.users where id = ${user.id}`)[0].weeklySummary).toBe(true);
  await page.reload();
  await openSettings(page);
  expect(await weekly.isChecked()).toBe(true);
  await page.context().close();
});
