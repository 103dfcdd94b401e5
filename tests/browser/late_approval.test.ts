/*
 * A post past its time that the approver has not decided, in Chromium against the real API,
 * the worker, the bot and the Bot API double: the home card says how many are late and by how
 * much, and its figure opens the schedule; the calendar chip and the details read "late by
 * 21 min"; the approver gets one reminder (its job run at its moment, as the clock would);
 * the owner resends the preview from the details and the approver decides under the new one.
 * The post's due time is shifted 21 minutes into the past, as if the evening had gone by.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { approvalPreview, buttonData, hasButton, postReaches, press, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ bot: true }));
}, 60_000);
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 15_000 };
const toasts = (page: Page) => page.getByTestId("toast-region").textContent();

test("a late post says so everywhere, its approver is reminded once, and the owner's resend gets it decided", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Вечерний дайджест"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3600_000);
  // 20:50 for a post due at 20:29: the due time 21 minutes ago
  await stack.sql`update app_public.posts set scheduled_for = now() - interval '21 minutes' where id = ${postId}`;

  // the reminder's moment comes (its job is run now, as the clock would run it)
  await stack.sql`select graphile_worker.reschedule_jobs(array(select id from graphile_worker.jobs where key = ${`post:${postId}:reminder`}), run_at := now())`;
  const reminder = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => m.text?.startsWith("⏰")), 20_000);
  expect(reminder.text).toMatch(/должен был выйти .* и опаздывает уже на 21 мин/);
  expect(reminder.reply_to_message?.message_id).toBe(preview.message_id);

  const page = await signedInPage({ stack, browser }, p.cookie, { language: "ru", viewport: { width: 1440, height: 900 } });
  await page.goto(`${stack.baseUrl}/`);
  const card = page.locator(`[data-testid="project-card"][data-project-id="${p.project.id}"]`);
  await expect.poll(() => card.getByTestId("card-awaiting").count(), soon).toBe(1);
  expect((await card.getByTestId("card-awaiting").textContent())?.replace(/\s+/g, " ")).toBe("Ждут согласования: 1 · опаздывают: 1, до 21 мин");
  await screenshot(page, "late-home");

  // the figure opens the schedule, where the chip is late and says by how much
  await card.getByTestId("card-awaiting").click();
  await expect.poll(() => page.url(), soon).toContain(`/project/${p.project.id}/schedule`);
  const chip = page.locator(`[data-testid="calendar-post"][data-post-id="${postId}"]`);
  await expect.poll(() => chip.getAttribute("data-status"), soon).toBe("late");
  expect(await chip.textContent()).toContain("Опаздывает на 21 мин");

  await chip.click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.getByTestId("post-status").textContent(), soon).toBe("Опаздывает на 21 мин");
  expect(await details.getByTestId("post-details-hint").textContent()).toContain("бот напомнит ему один раз");
  await screenshot(page, "late-details");

  // resend: the old preview says it no longer applies, a new one comes with new buttons
  await details.getByTestId("post-resend").click();
  await expect.poll(() => toasts(page), soon).toContain("Превью отправлено заново");
  await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => m.text?.startsWith("🔁")), 20_000);
  const fresh = await telegram.waitFor(() =>
    telegram.messages(p.admin.id).find((m) => m.message_id > reminder.message_id && hasButton(m, "approve", postId)), 20_000);
  await approvalPreview(stack, p, postId);
  expect(buttonData(fresh, "approve", postId)).not.toBe(buttonData(preview, "approve", postId));
  // one reminder in all: the new round's comes 10 minutes after the resend, not now
  expect(telegram.messages(p.admin.id).filter((m) => m.text?.startsWith("⏰"))).toHaveLength(1);

  // approved late: the bot says it goes out now, and it does
  const answer = await press(stack, p.admin.id, p.admin.id, fresh.message_id, buttonData(fresh, "approve", postId));
  expect(answer.text).toMatch(/^✅ Одобрено\. Время поста \(.*\) уже прошло — он выходит сейчас\.$/);
  await postReaches(stack, postId, "published");
  expect(telegram.messages(p.channel.id).map((m) => m.text)).toEqual(["Вечерний дайджест"]);
});
