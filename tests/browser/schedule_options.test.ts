/*
 * A one-time post's own options in the schedule dialog (docs/post-format.md: a post made from
 * a draft takes the draft's options unless the request gives its own), in Chromium with the
 * real worker, bot and local Bot API: choosing a draft shows its options, "Silent" is switched
 * on for this post only, and the post reaches the channel without a sound, with the draft's
 * URL button; the draft keeps its options as they were.
 */
import { now, toCalendarDate } from "@internationalized/date";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { approvalPreview, buttonData, projectWithChannel } from "../helpers/publishing.ts";
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
const pad = (value: number) => String(value).padStart(2, "0");

const pageAs = (cookie: string) => signedInPage({ stack, browser }, cookie);

const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status;

test("a post scheduled with 'Silent' arrives without a sound and with its draft's button; the draft keeps its options", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const TEXT = "Джаз на набережной в пятницу.";
  const BUTTON = { text: "Билеты", url: "https://tickets.example/jazz" };
  const draft = (await stack.call("POST", `${p.base}/drafts`, { title: "Джаз", content: TEXT, options: { buttons: [[BUTTON]] } }, p.cookie)).json;
  await stack.call("POST", `${p.base}/drafts`, { title: "Без кнопок", content: "Просто текст." }, p.cookie);

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await page.getByTestId("new-post").click();
  const form = page.getByRole("dialog", { name: "Запланировать пост" });
  // Ten minutes ahead in the project's timezone (tomorrow, late at night): a post due within
  // two hours goes to the approver at once.
  const at = now(TZ).add({ minutes: 10 });
  await form.getByTestId("schedule-date").fill(toCalendarDate(at).toString());
  await form.getByTestId("schedule-time").fill(`${pad(at.hour)}:${pad(at.minute)}`);

  // The options follow the chosen draft while untouched: its button, then none, then its button.
  const summary = form.getByTestId("post-options-summary");
  const draftSelect = form.getByTestId("schedule-draft");
  await draftSelect.selectOption({ label: "Джаз" });
  await expect.poll(() => summary.textContent(), soon).toBe("Кнопок: 1");
  await draftSelect.selectOption({ label: "Без кнопок" });
  await expect.poll(() => summary.count(), soon).toBe(0);
  await draftSelect.selectOption({ label: "Джаз" });
  await expect.poll(() => summary.textContent(), soon).toBe("Кнопок: 1");

  // Opened, they show the draft's button; "Silent" is switched on for this post.
  await form.getByTestId("post-options-toggle").click();
  const options = form.getByTestId("post-options");
  await expect.poll(() => options.isVisible(), soon).toBe(true);
  expect(await options.getByTestId("option-button-text").inputValue()).toBe(BUTTON.text);
  expect(await options.getByTestId("option-button-url").inputValue()).toBe(BUTTON.url);
  const silent = options.getByRole("switch", { name: "Без звука" });
  expect(await silent.isChecked()).toBe(false);
  await silent.check();
  await expect.poll(() => summary.textContent(), soon).toBe("Без звука · Кнопок: 1");
  await page.waitForTimeout(300); // the panel's opening
  await screenshot(page, "schedule-dialog-options");
  await form.getByTestId("schedule-submit").click();
  await expect.poll(() => page.getByTestId("toast-region").textContent(), soon).toContain("Пост запланирован");

  // The post has its own options; the draft's are as they were.
  const [post] = await stack.sql`select id, options from app_public.posts where draft_id = ${draft.id}`;
  expect(post.options).toEqual({ silent: true, buttons: [[BUTTON]] });
  expect((await stack.sql`select options from app_public.drafts where id = ${draft.id}`)[0].options).toEqual({ buttons: [[BUTTON]] });

  // Approved in Telegram, and its time brought to now: it goes out silently, with the button.
  const postId = Number(post.id);
  const preview = await approvalPreview(stack, p, postId);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 10_000 }).toBe("approved");
  await stack.sql`update app_public.posts set scheduled_for = now() where id = ${postId}`;
  await stack.sql`select graphile_worker.add_job('posts__publish', json_build_object('postId', ${postId}::bigint),
    job_key := app_private.post_job_key(${postId}::bigint, 'publish'))`;
  const sent = await telegram.waitFor(() => telegram.messages(p.channel.id).find((m) => m.text === TEXT), 15_000);
  expect(telegram.messageInfo(p.channel.id, sent.message_id)!.silent).toBe(true);
  expect(sent.reply_markup?.inline_keyboard).toEqual([[BUTTON]]);
  await page.context().close();
}, 90_000);

test("an untouched dialog sends no options, and a post's own options stay when its time is edited", async () => {
  const p = await projectWithChannel(stack);
  const draftOptions = { pin: true, unpinAfterHours: 12 };
  const draft = (await stack.call("POST", `${p.base}/drafts`, { title: "Анонс", content: "Завтра анонс.", options: draftOptions }, p.cookie)).json;
  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);

  // Scheduled without opening the options: the request has none, the post takes the draft's.
  await page.getByTestId("new-post").click();
  const form = page.getByRole("dialog", { name: "Запланировать пост" });
  const at = now(TZ).add({ days: 2 });
  await form.getByTestId("schedule-date").fill(toCalendarDate(at).toString());
  await form.getByTestId("schedule-time").fill("12:00");
  await form.getByTestId("schedule-draft").selectOption({ label: "Анонс" });
  await expect.poll(() => form.getByTestId("post-options-summary").textContent(), soon).toBe("Закрепить в канале");
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/api/projects/${p.project.id}/posts`)),
    form.getByTestId("schedule-submit").click(),
  ]);
  expect(request.postDataJSON()).not.toHaveProperty("options");
  await expect.poll(() => form.count(), soon).toBe(0);
  const [post] = await stack.sql`select id, options from app_public.posts where draft_id = ${draft.id}`;
  expect(post.options).toEqual(draftOptions);

  // With options of its own (silent, no pin), its time changed in the dialog: the dialog shows
  // and keeps the post's own; left out, the server would put the draft's back.
  await stack.sql`update app_public.posts set options = ${stack.sql.json({ silent: true })} where id = ${post.id}`;
  await page.reload();
  await expect.poll(() => page.getByTestId("schedule-calendar").count(), soon).toBe(1);
  if (at.month !== now(TZ).month) await page.getByTestId("calendar-next").click();
  const chip = page.getByTestId("calendar-post").filter({ hasText: "Анонс" });
  await chip.click();
  await page.getByTestId("post-edit").click();
  const edit = page.getByRole("dialog", { name: "Изменить пост" });
  await expect.poll(() => edit.getByTestId("post-options-summary").textContent(), soon).toBe("Без звука");
  await edit.getByTestId("schedule-time").fill("13:30");
  await edit.getByTestId("schedule-submit").click();
  await expect.poll(() => edit.count(), soon).toBe(0);
  const [edited] = await stack.sql`select options, scheduled_for from app_public.posts where id = ${post.id}`;
  expect(edited.options).toEqual({ silent: true });
  expect(new Date(edited.scheduledFor as string).toISOString()).toBe(at.set({ hour: 13, minute: 30, second: 0, millisecond: 0 }).toDate().toISOString());
  await page.context().close();
}, 60_000);
