/*
 * Advertising posts in Chromium (issue 37): the draft editor's "Advertising" section filled with
 * a preset, refused by code while the erid is missing, its label in the preview exactly as the
 * channel gets it, saved and reopened; the post planned from it marked on the calendar with its
 * top window, its details (advertiser, erid, format, window, removal by hand), the published
 * edit keeping the label, and the delete dialog's warning. Light at 1440 px, dark at 390 px.
 */
import { now } from "@internationalized/date";
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
const soon = { timeout: 10_000 };
const TEXT = "Новая кофейня у парка: скидка 20% на всё меню до воскресенья.";
const LABEL = "Реклама. ООО «Ромашка», ИНН 7707083893. erid: 2VtzqvXYZ1";

/** The day an instant falls on in the project's zone (the calendar's data-date). */
const dayOf = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);

/** Opens the calendar on the day of `at` (next month when it is there; picked first on a phone). */
async function openDay(page: Page, at: Date, phone: boolean) {
  const cell = page.locator(`[data-testid="calendar-day"][data-date="${dayOf(at)}"]`);
  await expect.poll(() => page.getByTestId("calendar-day").count(), soon).toBeGreaterThan(0);
  if ((await cell.count()) === 0) await page.getByTestId("calendar-next").click();
  if (phone) await cell.click();
}

test("an ad written in the editor: a preset, its label in the preview, saved and reopened, marked on the calendar with its top window and details", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Кофейня у парка"] });
  const draftId = p.drafts[0].id;
  await stack.call("PATCH", `${p.base}/drafts/${draftId}`, { content: TEXT }, p.cookie);

  const page = await signedInPage({ stack, browser }, p.cookie, { colorScheme: "light", viewport: { width: 1440, height: 900 } });
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/drafts`);
  await page.locator(`[data-draft-id="${draftId}"]`).getByTestId("edit-draft").click();
  const editor = page.getByRole("dialog");
  const preview = editor.getByTestId("draft-preview-pane").getByTestId("post-preview-text");
  await expect.poll(() => preview.textContent(), soon).toBe(TEXT);

  // The section is folded until opened; switched on it offers the fields and the presets.
  await editor.getByTestId("ad-toggle").click();
  await editor.getByRole("switch", { name: "Это рекламный пост" }).check();
  await editor.getByTestId("ad-advertiser").fill("ООО «Ромашка»");
  await editor.getByTestId("ad-inn").fill("7707083893");
  await editor.locator('[data-testid="ad-format"][data-format="2/48"]').click();
  expect(await editor.getByTestId("ad-top-minutes").inputValue()).toBe("120");
  expect(await editor.getByTestId("ad-feed-minutes").inputValue()).toBe("2880");
  expect(await editor.getByTestId("ad-fields").textContent()).toContain("2 часа в топе");
  expect(await editor.getByTestId("ad-summary").textContent()).toBe("2/48 · ООО «Ромашка»");

  // Without its erid it is refused, in Russian, and nothing is saved.
  await editor.getByTestId("draft-save").click();
  await expect.poll(() => editor.getByText("erid — от 1 до 64 латинских букв и цифр").count(), soon).toBe(1);
  expect((await stack.sql`select ad from app_public.drafts where id = ${draftId}`)[0].ad).toBeNull();

  await editor.getByTestId("ad-erid").fill("2VtzqvXYZ1");
  await editor.getByTestId("ad-price").fill("15000");
  // the label is the preview's last line, as the channel will read it
  await expect.poll(() => preview.textContent(), soon).toBe(`${TEXT}\n\n${LABEL}`);
  await page.waitForTimeout(300); // the section's opening
  await screenshot(page, "ads-editor-light-1440");
  await editor.getByTestId("draft-save").click();
  await expect.poll(() => page.getByRole("dialog").count(), soon).toBe(0);
  const ad = { advertiser: "ООО «Ромашка»", advertiserInn: "7707083893", erid: "2VtzqvXYZ1", topMinutes: 120, feedMinutes: 2880, price: { amount: 15000, currency: "RUB" } };
  expect((await stack.sql`select ad from app_public.drafts where id = ${draftId}`)[0].ad).toEqual(ad);

  // Reopened, the draft opens on its ad, as saved.
  await page.locator(`[data-draft-id="${draftId}"]`).getByTestId("edit-draft").click();
  await expect.poll(() => editor.getByTestId("ad-erid").inputValue(), soon).toBe("2VtzqvXYZ1");
  expect(await editor.locator('[data-testid="ad-format"][data-format="2/48"]').getAttribute("aria-pressed")).toBe("true");
  expect(await preview.textContent()).toBe(`${TEXT}\n\n${LABEL}`);
  await page.keyboard.press("Escape");

  // Planned from the draft tomorrow at 12:00, the post takes its ad; the calendar marks it.
  const at = now(TZ).add({ days: 1 }).set({ hour: 12, minute: 0, second: 0, millisecond: 0 }).toDate();
  const planned = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: at.toISOString() }, p.cookie);
  expect(planned.status).toBe(201);
  const postId = planned.json.id as number;
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await openDay(page, at, false);
  const chip = page.locator(`[data-testid="calendar-post"][data-post-id="${postId}"]`);
  await expect.poll(() => chip.getAttribute("data-ad"), soon).toBe("true");
  expect(await chip.textContent()).toContain("Реклама");
  const band = page.locator(`[data-testid="calendar-top-window"][data-post-id="${postId}"]`);
  expect(await band.textContent()).toBe("В топе 12:00–14:00");
  await screenshot(page, "ads-calendar-light-1440");

  // The details: who, erid, format, the window and the removal by hand (48 hours is past the bot's reach).
  await chip.click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.getByTestId("post-details-erid").textContent(), soon).toBe("erid: 2VtzqvXYZ1");
  expect(await details.getByTestId("post-details-advertiser").textContent()).toBe("ООО «Ромашка» · ИНН 7707083893");
  expect(await details.getByTestId("post-details-ad-format").textContent()).toBe("2/48 (2 часа в топе, 48 часов в ленте)");
  expect(await details.getByTestId("post-details-ad-top").textContent()).toMatch(/^С .*12:00 до 14:00$/);
  expect(await details.getByTestId("post-details-ad-removal").getAttribute("data-standing")).toBe("byHand");
  expect(await details.getByTestId("post-preview-text").textContent()).toBe(`${TEXT}\n\n${LABEL}`);
  await screenshot(page, "ads-details-light-1440");

  // Deleting it before its term says the format breaks; cancelled, the ad stays.
  await details.getByTestId("post-delete").click();
  await expect.poll(() => page.getByTestId("delete-ad-format").textContent(), soon).toContain("Удаление отменит размещение");
  await page.getByRole("dialog").getByRole("button", { name: "Отмена" }).click();

  await page.context().close();

  // Dark on a phone: the day's list with the mark and window, the details, the editor's section.
  const phone = await signedInPage({ stack, browser }, p.cookie, { colorScheme: "dark", viewport: { width: 390, height: 844 } });
  await phone.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await openDay(phone, at, true);
  const agenda = phone.getByTestId("calendar-agenda");
  await expect.poll(() => agenda.getByTestId("calendar-ad-badge").textContent(), soon).toBe("Реклама");
  expect(await agenda.getByTestId("calendar-top-window").textContent()).toBe("В топе 12:00–14:00");
  await screenshot(phone, "ads-calendar-dark-390");
  await agenda.locator(`[data-testid="calendar-post"][data-post-id="${postId}"]`).click();
  await expect.poll(() => phone.getByTestId("post-details-ad").count(), soon).toBe(1);
  await phone.waitForTimeout(300);
  await screenshot(phone, "ads-details-dark-390");
  await phone.keyboard.press("Escape");
  await phone.goto(`${stack.baseUrl}/project/${p.project.id}/drafts`);
  await phone.locator(`[data-draft-id="${draftId}"]`).getByTestId("edit-draft").click();
  await expect.poll(() => phone.getByRole("dialog").getByTestId("ad-erid").inputValue(), soon).toBe("2VtzqvXYZ1");
  await phone.waitForTimeout(300);
  await phone.getByRole("dialog").getByTestId("ad-fields").scrollIntoViewIfNeeded();
  await screenshot(phone, "ads-editor-dark-390");
  await phone.keyboard.press("Escape");

  // Published, its edit keeps the label: under the text, fixed, and in the preview.
  await stack.sql`update app_public.posts set status = 'published', published_at = scheduled_for, channel_chat_id = ${p.channel.id},
    channel_message_ids = '[7]' where id = ${postId}`;
  await phone.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await openDay(phone, at, true);
  await agenda.locator(`[data-testid="calendar-post"][data-post-id="${postId}"]`).click();
  const phoneDetails = phone.getByTestId("post-details");
  await phoneDetails.getByTestId("post-edit-text").click();
  await expect.poll(() => phoneDetails.getByTestId("post-edit-ad-label").textContent(), soon).toContain(LABEL);
  expect(await phoneDetails.getByTestId("post-edit-form").getByTestId("post-preview-text").textContent()).toBe(`${TEXT}\n\n${LABEL}`);
  await phoneDetails.getByTestId("post-edit-cancel").click();
  await phoneDetails.getByTestId("post-delete").click();
  await expect.poll(() => phone.getByTestId("delete-ad-format").textContent(), soon).toContain("Удаление сейчас нарушит формат");
  await phone.context().close();
}, 120_000);
