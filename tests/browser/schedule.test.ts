/*
 * The schedule and Published screens as a person uses them, in Chromium, with the real
 * worker, the real bot and the local Bot API: schedule a post from the calendar, publish
 * it, approve it in Telegram, see it turn green and appear on the Published page with its
 * link. Also the form's refusals (past time, bad time, no draft), no add button on past
 * days, the planned repeats of a recurring post, and a post written in the schedule dialog
 * itself (write, then schedule).
 */
import { type CalendarDate, CalendarDateTime, now, toCalendarDate, toZoned } from "@internationalized/date";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { buttonData, hasButton, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
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
// The calendar refetches posts every 5 seconds.
const refetch = { timeout: 12_000 };
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

/** A page signed in as the project's owner (the session cookie from the API sign-in). */
const pageAs = (cookie: string, viewport = desktop): Promise<Page> => signedInPage({ stack, browser }, cookie, { viewport });

const pad = (value: number) => String(value).padStart(2, "0");
const dayCell = (page: Page, day: CalendarDate) => page.locator(`[data-testid="calendar-day"][data-date="${day.toString()}"]`);
const chip = (page: Page, text: string) => page.getByTestId("calendar-post").filter({ hasText: text });
const toasts = (page: Page) => page.getByTestId("toast-region").textContent();

/** Shows the month of `day`, counting from the current month ("Today"). */
async function showMonthOf(page: Page, day: CalendarDate) {
  const todayButton = page.getByTestId("calendar-today");
  if (!(await todayButton.isDisabled())) await todayButton.click();
  const today = toCalendarDate(now(TZ));
  const months = (day.year - today.year) * 12 + day.month - today.month;
  for (let i = 0; i < months; i += 1) await page.getByTestId("calendar-next").click();
  for (let i = 0; i > months; i -= 1) await page.getByTestId("calendar-prev").click();
}


test("schedule from the calendar, publish, approve in Telegram, see it green and on the Published page", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Утренние новости", "Вечерний дайджест"] });
  await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { content: "Сегодня в городе солнечно, открылся новый парк." }, p.cookie);
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);
  expect(await page.title()).toBe("Расписание | Pressa");
  expect(await page.getByTestId("project-timezone").textContent()).toContain("Europe/Moscow");

  // Over two hours ahead in the project's timezone: a post due sooner is sent for approval by
  // the server at once, and only a post still planned has a Publish button. Late in the day
  // that time falls on tomorrow, and the post is added from tomorrow's cell.
  const ahead = now(TZ).add({ hours: 2, minutes: 15 });
  const day = toCalendarDate(ahead);
  const time = `${pad(ahead.hour)}:${pad(ahead.minute)}`;
  await showMonthOf(page, day);
  const cell = dayCell(page, day);
  await cell.hover();
  await cell.getByTestId("add-post").click();
  const form = page.getByRole("dialog", { name: "Запланировать пост" });
  await expect.poll(() => form.getByTestId("schedule-date").inputValue(), soon).toBe(day.toString());
  await form.getByTestId("schedule-time").fill(time);
  await form.getByTestId("schedule-draft").selectOption({ label: "Утренние новости" });
  await page.waitForTimeout(300); // the dialog's opening transition
  await screenshot(page, "schedule-dialog");
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => toasts(page), soon).toContain("Пост запланирован");

  // Grey on its day, at the instant of that wall-clock time in Moscow.
  const post = chip(page, "Утренние новости");
  await expect.poll(() => cell.getByTestId("calendar-post").filter({ hasText: "Утренние новости" }).count(), soon).toBe(1);
  expect(await post.getAttribute("data-tone")).toBe("gray");
  expect(await post.textContent()).toContain(time);
  const postId = Number(await post.getAttribute("data-post-id"));
  const [stored] = await stack.sql`select scheduled_for, status, draft_id from app_public.posts where id = ${postId}`;
  const [hour, minute] = time.split(":").map(Number);
  const expected = toZoned(new CalendarDateTime(day.year, day.month, day.day, hour, minute), TZ).toDate().toISOString();
  expect(stored).toEqual({ scheduledFor: expected, status: "draft", draftId: p.drafts[0].id });
  // The 5-second refetch revalidates: while nothing changes the server answers 304, no body.
  const revalidated = () => stack.answered.some((a) => a.path === `${p.base}/posts` && a.status === 304);
  await expect.poll(revalidated, refetch).toBe(true);
  await page.mouse.move(0, 0);
  await screenshot(page, "schedule-calendar");

  // Its details: time in the project's timezone, the linked draft, and Publish.
  await post.click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.count(), soon).toBe(1);
  expect(await page.getByTestId("post-details-title").textContent()).toBe("Утренние новости");
  expect(await details.getByTestId("post-details-time").textContent()).toContain(time);
  expect(await details.getByTestId("post-details-draft").getAttribute("href")).toBe(`/project/${p.project.id}/drafts/${p.drafts[0].id}`);
  expect(await details.getByTestId("post-status").textContent()).toBe("Запланирован");
  await page.waitForTimeout(300);
  await screenshot(page, "schedule-post-details");
  await details.getByTestId("post-publish").click();
  await expect.poll(() => toasts(page), soon).toContain("Пост отправлен на согласование");
  expect(await toasts(page)).toContain("Администраторы канала проверят ваш пост.");
  await expect.poll(() => details.getByTestId("post-status").getAttribute("data-status"), soon).toBe("scheduled");
  expect(await details.getByTestId("post-publish").count()).toBe(0);

  // The admin gets the preview in Telegram and approves it.
  const preview = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "approve", postId)), 10_000);
  await expect.poll(async () => (await stack.sql`select approval_preview ? 'chatId' as sent from app_public.posts where id = ${postId}`)[0].sent, { timeout: 10_000 }).toBe(true);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(() => details.getByTestId("post-status").getAttribute("data-status"), refetch).toBe("approved");

  // Its time comes now rather than in minutes: move it and queue the publication at once.
  await stack.sql`update app_public.posts set scheduled_for = now() where id = ${postId}`;
  await stack.sql`select graphile_worker.add_job('posts__publish', json_build_object('postId', ${postId}::bigint), job_key := 'post:' || ${postId}::bigint || ':publish')`;
  const inChannel = await telegram.waitFor(() => telegram.messages(p.channel.id)[0], 15_000);
  expect(inChannel.text).toBe("Сегодня в городе солнечно, открылся новый парк.");
  const link = `https://t.me/${p.channel.username}/${inChannel.message_id}`;

  // Green, with the channel link in its details.
  await expect.poll(() => details.getByTestId("post-status").getAttribute("data-status"), refetch).toBe("published");
  expect(await details.getByTestId("post-details-link").getAttribute("href")).toBe(link);
  expect(await details.getByTestId("post-publish").count()).toBe(0);
  await screenshot(page, "schedule-post-published");
  await page.keyboard.press("Escape");
  await expect.poll(() => details.count(), soon).toBe(0);
  if (!(await page.getByTestId("calendar-today").isDisabled())) await page.getByTestId("calendar-today").click();
  await expect.poll(() => chip(page, "Утренние новости").getAttribute("data-tone"), soon).toBe("green");
  expect(await dayCell(page, toCalendarDate(now(TZ))).getByTestId("calendar-post").filter({ hasText: "Утренние новости" }).count()).toBe(1);
  await screenshot(page, "schedule-calendar-published");

  // A published post opens its schedule read-only, with no submit.
  await chip(page, "Утренние новости").click();
  await page.getByTestId("post-edit").click();
  const readOnly = page.getByRole("dialog", { name: "Параметры публикации" });
  await expect.poll(() => readOnly.getByTestId("schedule-time").isDisabled(), soon).toBe(true);
  expect(await readOnly.getByTestId("schedule-submit").count()).toBe(0);
  expect(await readOnly.getByText("Пост опубликован, изменить его нельзя.").count()).toBe(1);
  await page.keyboard.press("Escape");

  // Readers reacted in the channel (as the bot records Telegram's count), and the post went out
  // pinned (as its options say when scheduled so).
  await stack.sql`select app_public.record_reaction_count(${9_000_001}, ${p.channel.id}, ${inChannel.message_id}, now(),
    ${stack.sql.json([{ type: { type: "emoji", emoji: "👍" }, total_count: 5 }, { type: { type: "emoji", emoji: "🔥" }, total_count: 2 }])})`;
  await stack.sql`update app_public.posts set options = options || '{"pin": true}' where id = ${postId}`;

  // The Published page: newest first, time in the project's timezone, the channel link, the
  // pin and the reactions.
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/published`);
  const row = page.getByTestId("published-post");
  await expect.poll(() => row.count(), soon).toBe(1);
  expect(await page.title()).toBe("Опубликованные | Pressa");
  expect(await row.getByTestId("published-title").textContent()).toBe("Утренние новости");
  expect(await row.getByTestId("published-link").getAttribute("href")).toBe(link);
  expect(await row.getByTestId("published-link").textContent()).toBe(`@${p.channel.username}`);
  expect(await row.getByTestId("published-pinned").textContent()).toBe("Закреплён");
  await expect.poll(() => row.getByTestId("published-reactions").textContent(), soon).toBe("7");
  expect(await row.getByTestId("published-thumb").count()).toBe(0); // a text post: its mark, no picture
  const publishedAt = (await stack.sql`select published_at from app_public.posts where id = ${postId}`)[0].publishedAt as string;
  const moscowTime = new Intl.DateTimeFormat("ru-RU", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: TZ }).format(new Date(publishedAt));
  expect(await row.getByTestId("published-time").textContent()).toContain(moscowTime);
  expect(await page.getByTestId("project-timezone").textContent()).toContain("Europe/Moscow");
  await screenshot(page, "published-list");
  await page.setViewportSize(phone);
  await screenshot(page, "published-list-phone");
  await page.context().close();
}, 120_000);

test("the form refuses a past time, a malformed time and a missing draft; past days have no add button", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Новости недели"] });
  // Two minutes into the day there is an earlier time today to try.
  const startOfDay = now(TZ);
  if (startOfDay.hour === 0 && startOfDay.minute < 2) await new Promise((resolve) => setTimeout(resolve, 120_000));
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);

  const current = now(TZ);
  const today = toCalendarDate(current);
  const todayCell = dayCell(page, today);
  expect(await todayCell.getAttribute("data-today")).toBe("true");
  await todayCell.getByTestId("add-post").click();
  const form = page.getByRole("dialog", { name: "Запланировать пост" });
  await expect.poll(() => form.count(), soon).toBe(1);

  // No draft chosen.
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => form.getByText("Выберите черновик для поста").count(), soon).toBe(1);
  // Not a time.
  await form.getByTestId("schedule-draft").selectOption({ label: "Новости недели" });
  await form.getByTestId("schedule-time").fill("25:00");
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => form.getByText("Введите время в формате ЧЧ:ММ").count(), soon).toBe(1);
  // Earlier today.
  const earlier = current.subtract({ minutes: 1 });
  await form.getByTestId("schedule-time").fill(`${pad(earlier.hour)}:${pad(earlier.minute)}`);
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => form.getByTestId("schedule-form-error").textContent(), soon)
    .toBe("Нельзя запланировать пост на прошедшее время. Выберите время в будущем.");
  await screenshot(page, "schedule-dialog-past-time");
  expect((await stack.sql`select count(*)::int as n from app_public.posts where project_id = ${p.project.id}`)[0].n).toBe(0);
  await page.keyboard.press("Escape");

  // Today and later days have the add button; past days don't.
  const yesterday = today.subtract({ days: 1 });
  if ((await dayCell(page, yesterday).count()) === 0) await page.getByTestId("calendar-prev").click();
  await expect.poll(() => dayCell(page, yesterday).count(), soon).toBe(1);
  expect(await dayCell(page, yesterday).getAttribute("data-past")).toBe("true");
  expect(await dayCell(page, yesterday).getByTestId("add-post").count()).toBe(0);
  if (!(await page.getByTestId("calendar-today").isDisabled())) await page.getByTestId("calendar-today").click();
  await expect.poll(() => dayCell(page, today).getByTestId("add-post").count(), soon).toBe(1);
  expect(await dayCell(page, today.add({ days: 1 })).getByTestId("add-post").count()).toBe(1);

  // With no drafts the form offers to write one, and the post then uses it.
  await stack.call("DELETE", `${p.base}/drafts/${p.drafts[0].id}`, undefined, p.cookie);
  await page.reload();
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);
  await page.getByTestId("new-post").click();
  const empty = page.getByRole("dialog", { name: "Запланировать пост" });
  await expect.poll(() => empty.getByTestId("schedule-no-drafts").count(), soon).toBe(1);
  await page.waitForTimeout(300); // the dialog's opening transition: a click mid-way can land on Cancel beside Submit
  await empty.getByTestId("schedule-submit").click();
  await expect.poll(() => empty.getByText("Выберите черновик для поста").count(), soon).toBe(1);
  await page.waitForTimeout(300);
  await screenshot(page, "schedule-dialog-no-drafts");
  expect((await empty.boundingBox())?.width).toBe(425);
  // Write, then schedule: the post is written in the same dialog, and its draft is made with it.
  await empty.getByTestId("schedule-create-draft").click();
  await empty.getByTestId("schedule-written-title").fill("Свежий пост");
  await empty.getByTestId("schedule-written-content").fill("Написан прямо в календаре");
  await screenshot(page, "schedule-dialog-written");
  await empty.getByTestId("schedule-submit").click();
  await expect.poll(() => empty.count(), soon).toBe(0);
  const [written] = await stack.sql`select p.title, p.content, d.title as draft_title from app_public.posts p
    join app_public.drafts d on d.id = p.draft_id where p.project_id = ${p.project.id}`;
  expect(written).toMatchObject({ title: "Свежий пост", content: "Написан прямо в календаре", draftTitle: "Свежий пост" });

  // A project without a channel plans all the same: a banner above the calendar links the channels page.
  const bare = await stack.call("POST", "/api/projects", { name: "Без канала", adminHandle: "bare_admin" }, p.cookie);
  await page.goto(`${stack.baseUrl}/project/${bare.json.id}/schedule`);
  await expect.poll(() => page.getByTestId("schedule-no-channel").count(), soon).toBe(1);
  expect(await page.getByTestId("go-to-channels").getAttribute("href")).toBe(`/project/${bare.json.id}/channels`);
  expect(await page.getByTestId("schedule-calendar").count()).toBe(1);
  expect(await page.getByTestId("new-post").count()).toBe(1);
  await screenshot(page, "schedule-no-channel");
  await page.context().close();
}, 240_000);

test("a daily series shows its planned repeats with the drafts they will take, and deleting one stops the series", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Первый выпуск", "Второй выпуск"] });
  const tomorrow = toCalendarDate(now(TZ)).add({ days: 1 });
  const nineAm = toZoned(new CalendarDateTime(tomorrow.year, tomorrow.month, tomorrow.day, 9, 0), TZ);
  const created = await stack.call("POST", `${p.base}/posts`, {
    projectId: p.project.id,
    scheduledFor: nineAm.toAbsoluteString(),
    isRecurring: true,
    recurringType: "daily",
    title: "Регулярный пост",
    content: "",
  }, p.cookie);
  expect(created.status).toBe(201);
  const seriesId = created.json.id as number;

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);
  // The first three repeats take the drafts in order; the third has none left.
  const expected = ["Первый выпуск", "Второй выпуск", "Нет черновика"];
  for (const [offset, title] of expected.entries()) {
    const day = tomorrow.add({ days: offset });
    if ((await dayCell(page, day).count()) === 0) await page.getByTestId("calendar-next").click();
    const repeat = dayCell(page, day).getByTestId("calendar-post");
    await expect.poll(() => repeat.count(), soon).toBe(1);
    expect(await repeat.getAttribute("data-status")).toBe("virtual");
    expect(await repeat.getAttribute("data-post-id")).toBe(String(seriesId * 1_000_000 + offset));
    // Its name: the time and title it shows, then the status (hidden text for screen readers).
    expect(await repeat.textContent()).toBe(`09:00 ${title}, Будущий повтор`);
  }
  await showMonthOf(page, tomorrow);
  await screenshot(page, "schedule-series");
  const third = tomorrow.add({ days: 2 });
  await showMonthOf(page, third);
  await dayCell(page, third).getByTestId("calendar-post").click();
  await expect.poll(() => page.getByTestId("post-details-title").textContent(), soon).toBe("Нет доступных черновиков");
  expect(await page.getByTestId("post-details").getByTestId("post-status").textContent()).toBe("Будущий повтор");
  await page.waitForTimeout(300);
  await screenshot(page, "schedule-series-details");
  // Editing a repeat edits the series, from the next time it runs.
  await page.getByTestId("post-edit").click();
  const edit = page.getByRole("dialog", { name: "Изменить регулярный пост" });
  await expect.poll(() => edit.getByTestId("schedule-date").inputValue(), soon).toBe(tomorrow.toString());
  expect(await edit.getByTestId("schedule-time").inputValue()).toBe("09:00");
  expect(await edit.getByRole("radio", { name: "Ежедневно" }).isChecked()).toBe(true);
  expect(await edit.getByRole("radio", { name: "Один раз" }).isDisabled()).toBe(true);
  expect(await edit.getByText("Доступно черновиков: 2.", { exact: false }).count()).toBe(1);
  await page.waitForTimeout(300);
  await screenshot(page, "schedule-series-edit");
  await page.keyboard.press("Escape");
  await expect.poll(() => edit.count(), soon).toBe(0);

  await page.setViewportSize(phone);
  await expect.poll(() => page.getByTestId("schedule-calendar").getAttribute("data-layout"), soon).toBe("compact");
  // The compact grid offers every day it shows, the next month's first days included; tomorrow
  // may still be beyond the shown grid (the calendar opened on another month).
  for (const step of ["calendar-next", "calendar-prev", "calendar-prev"]) {
    if ((await dayCell(page, tomorrow).count()) > 0) break;
    await page.getByTestId(step).click();
    await page.waitForTimeout(300);
  }
  await dayCell(page, tomorrow).click();
  await expect.poll(() => page.getByTestId("calendar-agenda").getAttribute("data-date"), soon).toBe(tomorrow.toString());
  await screenshot(page, "schedule-series-phone");
  await page.getByTestId("calendar-agenda").getByTestId("add-post").click();
  const phoneForm = page.getByRole("dialog", { name: "Запланировать пост" });
  await expect.poll(() => phoneForm.getByTestId("schedule-date").inputValue(), soon).toBe(tomorrow.toString());
  await page.waitForTimeout(300);
  await screenshot(page, "schedule-dialog-phone");
  await page.keyboard.press("Escape");
  await expect.poll(() => phoneForm.count(), soon).toBe(0);
  await page.setViewportSize(desktop);
  await showMonthOf(page, tomorrow);

  // A repeat is not a post of its own: deleting it deletes the series (its original id).
  await dayCell(page, tomorrow).getByTestId("calendar-post").click();
  await expect.poll(() => page.getByTestId("post-details").getAttribute("data-post-id"), soon).toBe(String(seriesId * 1_000_000));
  await page.getByTestId("post-delete").click();
  const confirm = page.getByRole("dialog", { name: "Удалить регулярный пост?" });
  await expect.poll(() => confirm.count(), soon).toBe(1);
  await page.waitForTimeout(300);
  await screenshot(page, "schedule-delete-series");
  await confirm.getByTestId("confirm-delete").click();
  await expect.poll(() => toasts(page), soon).toContain("Пост удалён");
  expect((await stack.sql`select count(*)::int as n from app_public.posts where id = ${seriesId}`)[0].n).toBe(0);
  await expect.poll(() => page.getByTestId("calendar-post").count(), soon).toBe(0);
  await page.context().close();
}, 120_000);

test("a series that ran out of drafts says it stopped, in the interface language", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Единственный"] });
  const tomorrow = toCalendarDate(now(TZ)).add({ days: 1 });
  const at = toZoned(new CalendarDateTime(tomorrow.year, tomorrow.month, tomorrow.day, 18, 30), TZ);
  const created = await stack.call("POST", `${p.base}/posts`, {
    projectId: p.project.id, scheduledFor: at.toAbsoluteString(), isRecurring: true, recurringType: "weekly", title: "Регулярный пост", content: "",
  }, p.cookie);
  // What the rotation does when no draft is left (spawn_series_occurrence).
  await stack.sql`update app_public.posts set status = 'failed', last_error_code = 'schedule.seriesOutOfDrafts' where id = ${created.json.id}`;
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const banner = page.getByTestId("series-stopped");
  await expect.poll(() => banner.count(), soon).toBe(1);
  expect(await banner.textContent()).toContain("Серия остановлена: черновики закончились.");
  expect(await banner.textContent()).toContain("Регулярный пост «Еженедельно в 18:30» остановлен");
  // A stopped series has no planned repeats.
  expect(await page.getByTestId("calendar-post").count()).toBe(0);
  await screenshot(page, "schedule-series-stopped");

  await page.evaluate(() => localStorage.setItem("pressa.language", "en"));
  await page.reload();
  await expect.poll(() => banner.textContent(), soon).toContain("The series stopped because no drafts remain.");
  await banner.getByRole("button", { name: "Details" }).click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.getByTestId("post-status").textContent(), soon).toBe("Stopped");
  expect(await details.getByTestId("post-details-error").textContent()).toContain("The series stopped because no drafts remain.");
  expect(await page.getByTestId("post-details-title").textContent()).toBe("Weekly at 18:30");
  expect(await details.getByTestId("post-edit").count()).toBe(0);
  await page.waitForTimeout(300);
  await screenshot(page, "schedule-series-stopped-details-en");
  await page.context().close();
}, 60_000);

test("a failed post's details say why in the interface language, with the names the reason carries", async () => {
  const p = await projectWithChannel(stack);
  const at = new Date(Date.now() + 26 * 3600_000).toISOString();
  // What the worker records when the approver lost their rights (fail_post_for_channel_rights).
  await stack.sql`
    insert into app_public.posts (project_id, title, content, status, scheduled_for, last_error_code, last_error_params)
    values (${p.project.id}, 'Без прав', 'Текст', 'failed', ${at},
            'posts.error.approverLost', ${stack.sql.json({ handle: "olga_admin", channel: `@${p.channel.username}` })})`;
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const failed = page.getByTestId("calendar-post").filter({ hasText: "Без прав" });
  await expect.poll(() => failed.count(), soon).toBe(1);
  await failed.click();
  const error = page.getByTestId("post-details").getByTestId("post-details-error");
  await expect.poll(() => error.textContent(), soon)
    .toContain(`@olga_admin больше не администратор канала @${p.channel.username} с правом публикации.`);
  await page.context().close();
}, 60_000);

test("a long Published list shows 50 posts and the next ones on 'Show more'", async () => {
  const p = await projectWithChannel(stack);
  await stack.sql`
    insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, published_links)
    select ${p.project.id}, 'Пост ' || i, '', 'published', now() - make_interval(hours => i), now() - make_interval(hours => i),
           jsonb_build_object(${p.channel.username!}::text, 'https://t.me/' || ${p.channel.username!}::text || '/' || i)
    from generate_series(1, 65) as i`;
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/published`);
  const rows = page.getByTestId("published-title");
  // a cold page (its chunks, its dictionary, then the list): under a loaded machine (two
  // test files in parallel) this took over 5 s twice in this file's runs
  await expect.poll(() => rows.count(), refetch).toBe(50).catch(async (err) => {
    await screenshot(page, "published-list-failed");
    throw err;
  });
  expect(await rows.first().textContent()).toBe("Пост 1");
  await page.getByRole("button", { name: "Показать ещё" }).click();
  await expect.poll(() => rows.count(), soon).toBe(65);
  expect(await rows.last().textContent()).toBe("Пост 65");
  expect(await page.getByRole("button", { name: "Показать ещё" }).count()).toBe(0);
  await page.context().close();
}, 60_000);

test("an uncertain post asks the owner too: 'Send again' in its details publishes it once", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Спорный пост"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3_000);
  telegram.failNext("sendMessage", { drop: true }); // the send is lost: nothing reached the channel
  telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await expect.poll(async () => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status, { timeout: 20_000 }).toBe("uncertain");

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await expect.poll(() => chip(page, "Спорный пост").count(), soon).toBe(1);
  await chip(page, "Спорный пост").click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.getByText("Проверьте канал: пост там есть?").count(), soon).toBe(1);
  await page.waitForTimeout(300); // the dialog's opening transition
  await screenshot(page, "schedule-post-uncertain");
  await details.getByTestId("post-send-again").click();
  await expect.poll(() => page.getByTestId("toast-region").textContent(), soon).toContain("Пост будет отправлен снова");
  await expect.poll(() => telegram.messages(p.channel.id).filter((m) => m.text === "Спорный пост").length, refetch).toBe(1);
  await expect.poll(() => chip(page, "Спорный пост").getAttribute("data-status"), refetch).toBe("published");
  await page.context().close();
}, 90_000);

test("a project with 10,000 posts over three years: the calendar moves between months reading one range each", async () => {
  const p = await projectWithChannel(stack);
  // four a day from 18 months ago to 18 months ahead, published in the past, drafts ahead
  await stack.sql`
    insert into app_public.posts (project_id, title, scheduled_for, status, published_at)
    select ${p.project.id}, 'Пост ' || i, t, case when t < now() then 'published' else 'draft' end,
           case when t < now() then t end
    from generate_series(0, 9999) as i, lateral (select now() - interval '548 days' + i * interval '6 hours' - interval '1 minute' as t) x`;
  const page = await pageAs(p.cookie);
  const postsReads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "GET" && url.pathname.endsWith(`/projects/${p.project.id}/posts`)) postsReads.push(url.search);
  });
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await page.getByTestId("calendar-next").waitFor();
  const today = toCalendarDate(now(TZ));
  // this month's posts are on the grid: about four a day
  await expect.poll(() => page.getByTestId("calendar-post").count(), soon).toBeGreaterThan(100);
  for (const step of ["calendar-next", "calendar-next", "calendar-prev", "calendar-prev", "calendar-prev"]) {
    await page.getByTestId(step).click();
    await expect.poll(() => page.getByTestId("calendar-post").count(), soon).toBeGreaterThan(100);
  }
  await screenshot(page, "schedule-long-history");
  // last month's first day holds its four posts, and no cell holds another month's
  const lastMonth = today.subtract({ months: 1 }).set({ day: 1 });
  await expect.poll(() => dayCell(page, lastMonth).getByTestId("calendar-post").count(), soon).toBeGreaterThanOrEqual(1);
  // every posts read the page made was one grid's range (never the whole list)
  expect(postsReads.length).toBeGreaterThan(0);
  for (const search of postsReads) {
    const query = new URLSearchParams(search);
    const days = (Date.parse(query.get("to")!) - Date.parse(query.get("from")!)) / 86_400_000;
    expect(days, search).toBeGreaterThanOrEqual(28);
    expect(days, search).toBeLessThanOrEqual(42);
  }
  await page.context().close();
}, 90_000);

test("a draft taken by a series says so and links to the series; the next free one says the series takes it next", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Первый выпуск", "Второй выпуск", "Третий выпуск"] });
  const tomorrow = toCalendarDate(now(TZ)).add({ days: 1 });
  const nineAm = toZoned(new CalendarDateTime(tomorrow.year, tomorrow.month, tomorrow.day, 9, 0), TZ);
  const created = await stack.call("POST", `${p.base}/posts`, {
    scheduledFor: nineAm.toAbsoluteString(), isRecurring: true, recurringType: "daily", title: "Регулярный пост", content: "",
  }, p.cookie);
  const seriesId = created.json.id as number;
  // the series' first occurrence is made (its time's approval lead reached): it takes the first draft
  await stack.sql`select app_public.spawn_series_occurrence(${seriesId}, ${new Date(nineAm.toDate().getTime() - 2 * 3600_000)})`;

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/drafts`);
  const row = (title: string) => page.getByTestId("draft-row").filter({ hasText: title }).getByTestId("draft-use");
  await expect.poll(() => row("Первый выпуск").textContent(), soon).toBe("Взят регулярным постом");
  expect(await row("Первый выпуск").getAttribute("href")).toBe(`/project/${p.project.id}/schedule?post=${seriesId}`);
  expect(await row("Второй выпуск").textContent()).toBe("Следующим возьмёт регулярный пост");
  expect(await row("Третий выпуск").textContent()).toBe("Свободен");
  // the banner counts the free drafts the list shows
  await expect.poll(() => page.getByTestId("queue-health").textContent(), soon).toContain("Свободных черновиков: 2");
  await screenshot(page, "drafts-held-by-series");
  await row("Первый выпуск").click();
  await expect.poll(() => page.getByTestId("post-details").count(), soon).toBe(1);
  expect(page.url()).toContain(`/project/${p.project.id}/schedule`);
  // the series' details name the draft it takes next
  await expect.poll(() => page.getByTestId("post-details-next-draft").textContent(), soon).toBe("Второй выпуск");
  await page.context().close();
}, 60_000);

test("write, then schedule in one dialog: the post is on the calendar, its draft says which post holds it, the approver reads its text", async () => {
  const telegram = stack.telegram!;
  // a ready draft too, so the dialog offers the list first and writing here is the other way
  const p = await projectWithChannel(stack, { drafts: ["Готовый черновик"] });
  const counts = async () => (await stack.sql`select (select count(*)::int from app_public.posts where project_id = ${p.project.id}) as posts,
    (select count(*)::int from app_public.drafts where project_id = ${p.project.id}) as drafts`)[0];
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);
  await page.getByTestId("new-post").click();
  const form = page.getByRole("dialog", { name: "Запланировать пост" });
  await expect.poll(() => form.getByTestId("schedule-write-post").count(), soon).toBe(1);
  await page.waitForTimeout(300); // the dialog's opening transition
  await form.getByTestId("schedule-write-post").click();
  // the list gives way to the title and text, and the typing goes on in the title
  const title = form.getByTestId("schedule-written-title");
  await expect.poll(() => title.evaluate((el) => el === document.activeElement), soon).toBe(true);
  expect(await form.getByTestId("schedule-draft").count()).toBe(0);

  // Within two hours: the server asks the approver at once. Near midnight that is tomorrow.
  const ahead = now(TZ).add({ hours: 1 });
  const day = toCalendarDate(ahead);
  const time = `${pad(ahead.hour)}:${pad(ahead.minute)}`;
  await form.getByTestId("schedule-date").fill(day.toString());
  await form.getByTestId("schedule-time").fill(time);
  // typed as a person types, with a bold word (Ctrl+B), in the same editor as a draft's
  const text = "Пост написан прямо в окне планирования.\nДо встречи в парке!";
  await form.getByTestId("schedule-written-content").click();
  await page.keyboard.type("Пост написан прямо в окне планирования.");
  await page.keyboard.press("Enter");
  await page.keyboard.type("До встречи в ");
  await page.keyboard.press("Control+b");
  await page.keyboard.type("парке");
  await page.keyboard.press("Control+b");
  await page.keyboard.type("!");

  // No title: said under the title, and nothing is made.
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => form.getByText("Для разового поста нужен заголовок").count(), soon).toBe(1);
  expect(await title.getAttribute("aria-invalid")).toBe("true");
  expect(await counts()).toEqual({ posts: 0, drafts: 1 });
  await screenshot(page, "schedule-dialog-write-empty-title");

  await title.fill("Прогулка в парке");
  await screenshot(page, "schedule-dialog-write");
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => toasts(page), soon).toContain("Пост запланирован");
  await expect.poll(() => form.count(), soon).toBe(0);

  // On its day at its time, with its title.
  await showMonthOf(page, day);
  const post = dayCell(page, day).getByTestId("calendar-post").filter({ hasText: "Прогулка в парке" });
  await expect.poll(() => post.count(), soon).toBe(1);
  expect(await post.textContent()).toContain(time);
  const postId = Number(await post.getAttribute("data-post-id"));
  expect(await counts()).toEqual({ posts: 1, drafts: 2 });

  // The approver's preview in Telegram carries the text as written.
  await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "approve", postId)), 10_000);
  const previewed = telegram.messages(p.admin.id).find((m) => m.text === text);
  expect(previewed?.entities).toEqual([{ type: "bold", offset: text.indexOf("парке"), length: 5 }]);

  // Its details show the text.
  await post.click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => page.getByTestId("post-details-title").textContent(), soon).toBe("Прогулка в парке");
  expect(await details.getByTestId("post-details-time").textContent()).toContain(time);
  expect(await details.getByTestId("post-preview-text").innerText()).toBe(text);
  expect(await details.getByTestId("post-preview-text").locator("strong, b").textContent()).toBe("парке");
  await page.keyboard.press("Escape");

  // The Drafts page lists the new draft as held by that post, linking there.
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/drafts`);
  const holder = page.getByTestId("draft-row").filter({ hasText: "Прогулка в парке" }).getByTestId("draft-use");
  await expect.poll(() => holder.textContent(), soon).toBe("В запланированном посте");
  expect(await holder.getAttribute("href")).toBe(`/project/${p.project.id}/schedule?post=${postId}`);
  expect(await page.getByTestId("draft-row").filter({ hasText: "Готовый черновик" }).getByTestId("draft-use").textContent()).toBe("Свободен");

  // On a phone, in English: the dialog fills the screen and refuses an empty title in English.
  await page.evaluate(() => localStorage.setItem("pressa.language", "en"));
  await page.setViewportSize(phone);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await page.getByTestId("new-post").click();
  const phoneForm = page.getByRole("dialog", { name: "Schedule a post" });
  await expect.poll(() => phoneForm.getByTestId("schedule-write-post").count(), soon).toBe(1);
  await page.waitForTimeout(300);
  await phoneForm.getByTestId("schedule-write-post").click();
  expect((await phoneForm.boundingBox())?.width).toBe(phone.width);
  await phoneForm.getByTestId("schedule-submit").click();
  await expect.poll(() => phoneForm.getByText("Title is required for non-recurring posts").count(), soon).toBe(1);
  await screenshot(page, "schedule-dialog-write-phone", { fullPage: false });
  expect(await counts()).toEqual({ posts: 1, drafts: 2 });
  await page.context().close();
}, 60_000);
