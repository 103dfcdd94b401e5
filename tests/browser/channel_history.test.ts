/*
 * A post of a former channel in the web app (docs/trust-model.md), in Chromium: after the
 * owner swaps channel X for Y, X's published post is read-only history. The Published page
 * offers no edit for it, its details say why and have no "Edit text and buttons", and its
 * delete dialog offers no "delete from the channel" (Pressa's record can still go).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { buttonData, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
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

const soon = { timeout: 5_000 };

test("a former channel's post: no edit on the Published page, its details say it is history, no delete from that channel", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Ярмарка", content: "Ярмарка в субботу." }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 2_000);
  const approved = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(approved), 10_000);
  await expect.poll(async () => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status, { timeout: 20_000 })
    .toBe("published");

  // the owner swaps X for their own channel Y
  const [x] = await stack.sql`select id from app_public.channels where project_id = ${p.project.id}`;
  expect((await stack.call("DELETE", `${p.base}/channels/${x.id}`, undefined, p.cookie)).status).toBe(200);
  const y = telegram.addChannel({ username: `${p.channel.username}_y`, title: "Channel Y", owner: p.admin.id });
  expect((await stack.call("POST", `${p.base}/channels`, { type: "telegram", link: `@${y.username}` }, p.cookie)).status).toBe(201);
  await stack.sql`update app_public.channels set status = 'connected' where project_id = ${p.project.id}`;

  const page = await signedInPage({ stack, browser }, p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/published`);
  const row = page.getByTestId("published-post").filter({ hasText: "Ярмарка" });
  // the first page of a fresh browser loads the app's code first
  await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
  expect(await row.getByTestId("published-edit").count()).toBe(0);
  await row.getByTestId("published-history").click();

  const dialog = page.getByRole("dialog", { name: "Ярмарка" });
  await expect.poll(() => dialog.getByTestId("post-details-channel-changed").textContent(), soon)
    .toBe("Этот пост вышел в канале, который больше не подключён к проекту. Он остаётся здесь как история только для чтения: изменить его или удалить из того канала больше нельзя.");
  expect(await dialog.getByTestId("post-edit-text").count()).toBe(0);
  expect(await dialog.getByTestId("post-edit-form").count()).toBe(0);
  await screenshot(page, "post-details-channel-changed");

  await dialog.getByTestId("post-delete").click();
  const confirm = page.getByRole("dialog", { name: "Удалить пост?" });
  await expect.poll(() => confirm.getByTestId("delete-channel-changed").count(), soon).toBe(1);
  expect(await confirm.getByTestId("delete-from-channels").count()).toBe(0);
  await page.context().close();
}, 120_000);
