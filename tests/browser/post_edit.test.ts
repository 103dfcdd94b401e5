/*
 * The edit of a published post from its details dialog (README "Editing a published post"),
 * in Chromium: the details show the post's options, "Edit text" opens the editor with its
 * formatted text, Ctrl+B makes a bold word, "Send for approval" leaves the post as it is with
 * the edit waiting; the approver's Approve in Telegram edits the channel's message in place,
 * and the details then say when it was edited.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { MessageEntity } from "../../api/contract/entities.ts";
import { screenshot } from "../helpers/browser.ts";
import { buttonsOf, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ bot: true }));
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 5_000 };
// The calendar refetches posts every 5 seconds.
const refetch = { timeout: 12_000 };

const TEXT = "Мост открыт.";
const ENTITIES: MessageEntity[] = [{ type: "italic", offset: 0, length: 4 }];
const BUTTONS = [[{ text: "Карта", url: "https://maps.example/bridge" }]];

async function pageAs(cookie: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const separator = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, separator), value: cookie.slice(separator + 1), url: stack.baseUrl }]);
  return await context.newPage();
}

const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status;

test("a published post's text is edited from its details, approved in Telegram, and changed in place", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const options = { silent: true, pin: true, unpinAfterHours: 6, buttons: BUTTONS };
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Мост", content: TEXT, entities: ENTITIES, options }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 2_000);
  const approved = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, `approve:${postId}`);
  await telegram.waitFor(() => telegram.callbackAnswer(approved), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  const message = telegram.messages(p.channel.id).find((m) => !m.pinned_message && m.text === TEXT)!;

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const chip = page.getByTestId("calendar-post").filter({ hasText: "Мост" });
  await expect.poll(() => chip.count(), soon).toBe(1);
  await chip.click();
  const details = page.getByTestId("post-details");
  await expect.poll(() => details.getByTestId("post-details-options").textContent(), soon)
    .toBe("Без звукаЗакреплён, открепится через 6 чКнопки: Карта");
  expect(await details.getByTestId("post-details-edited").count()).toBe(0);

  // Edit: the editor holds the post's text; a new bold word at its end.
  await details.getByTestId("post-edit-text").click();
  const editor = details.getByTestId("post-edit-input");
  await expect.poll(() => editor.textContent(), soon).toBe(TEXT);
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Фото ");
  await page.keyboard.press("Control+B");
  await page.keyboard.type("завтра");
  await page.keyboard.press("Control+B");
  await expect.poll(() => editor.locator("strong").textContent(), soon).toBe("завтра");
  expect(await editor.textContent()).toBe(`${TEXT} Фото завтра`);
  await details.getByTestId("post-edit-send").click();
  await expect.poll(() => page.getByTestId("toast-region").textContent(), soon).toContain("Отправлено на одобрение");

  // Nothing changes yet: the edit waits, shown apart, and the channel keeps the post.
  const pending = details.getByTestId("post-details-pending-edit");
  await expect.poll(() => pending.count(), refetch).toBe(1);
  expect(await pending.textContent()).toContain("Правка ждёт одобрения");
  expect(await pending.getByTestId("post-preview-text").textContent()).toBe(`${TEXT} Фото завтра`);
  expect(telegram.messageInfo(p.channel.id, message.message_id)!.message.text).toBe(TEXT);

  // The approver's edit preview, then Approve on it.
  const editPreview = await telegram.waitFor(
    () => telegram.messages(p.admin.id).findLast((m) => buttonsOf(m).includes(`editok:${postId}`)),
    10_000,
  );
  await expect.poll(async () => (await stack.sql`select pending_edit ? 'buttonsMessageId' as sent from app_public.posts where id = ${postId}`)[0].sent,
    { timeout: 10_000 }).toBe(true);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, editPreview.message_id, `editok:${postId}`);
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);

  const EDITED = `${TEXT} Фото завтра`;
  await telegram.waitFor(() => telegram.messageInfo(p.channel.id, message.message_id)!.message.text === EDITED || undefined, 15_000);
  const edited = telegram.messageInfo(p.channel.id, message.message_id)!.message;
  expect(edited.entities).toEqual([...ENTITIES, { type: "bold", offset: 18, length: 6 }]);
  expect(edited.reply_markup?.inline_keyboard).toEqual(BUTTONS);

  // Reopened, the details show the new text and when it was edited.
  await page.keyboard.press("Escape");
  await expect.poll(() => details.count(), soon).toBe(0);
  await page.waitForTimeout(5_500); // the next refetch
  await chip.click();
  await expect.poll(() => details.getByTestId("post-details-edited").textContent(), refetch).toMatch(/^Изменён /);
  expect(await details.getByTestId("post-details-pending-edit").count()).toBe(0);
  expect(await details.getByTestId("post-preview-text").textContent()).toBe(EDITED);
  await page.waitForTimeout(300); // the dialog's opening transition
  await screenshot(page, "post-details-edited");
  await page.context().close();
}, 120_000);
