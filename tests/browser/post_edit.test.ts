/*
 * The edit of a published post from its details dialog (docs/post-format.md "Editing a published post"),
 * in Chromium: the details show the post's options, "Edit text and buttons" opens the editor
 * with its formatted text, Ctrl+B makes a bold word, "Send for approval" leaves the post as it
 * is with the edit waiting; the approver's Approve in Telegram edits the channel's message in
 * place, and the details then say when it was edited. Its URL buttons are edited the same way
 * (changed, added, a wrong address refused before sending), and the Published page opens a
 * post straight in that edit (its button removed here).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { MessageEntity } from "../../contract/entities.ts";
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

const soon = { timeout: 5_000 };
// The calendar refetches posts every 5 seconds.
const refetch = { timeout: 12_000 };

const TEXT = "Мост открыт.";
const ENTITIES: MessageEntity[] = [{ type: "italic", offset: 0, length: 4 }];
const BUTTONS = [[{ text: "Карта", url: "https://maps.example/bridge" }]];

const pageAs = (cookie: string) => signedInPage({ stack, browser }, cookie);

const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status;

type Project = Awaited<ReturnType<typeof projectWithChannel>>;
type Options = Record<string, unknown>;

/** A draft published through approval in Telegram: the post and its message in the channel. */
async function publishedPost(p: Project, draft: { title: string; content: string; entities?: MessageEntity[]; options: Options }) {
  const telegram = stack.telegram!;
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, draft, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 2_000);
  const approved = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(approved), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  const message = telegram.messages(p.channel.id).find((m) => !m.pinned_message && m.text === draft.content)!;
  return { postId, message };
}

/** The approver's preview of the post's edit once its Approve counts; answers the message its Approve is on. */
async function editPreview(p: Project, postId: number) {
  const telegram = stack.telegram!;
  const decision = await telegram.waitFor(
    () => telegram.messages(p.admin.id).findLast((m) => hasButton(m, "editok", postId)),
    10_000,
  );
  await expect.poll(async () => (await stack.sql`select pending_edit ? 'buttonsMessageId' as sent from app_public.posts where id = ${postId}`)[0].sent,
    { timeout: 10_000 }).toBe(true);
  return decision;
}

async function approveEdit(p: Project, postId: number, decision: Parameters<typeof buttonData>[0] & { message_id: number }) {
  const telegram = stack.telegram!;
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, decision.message_id, buttonData(decision, "editok", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
}

/** The URL buttons (text and address) of a message, row by row. */
const urlButtonsOf = (m: { reply_markup?: unknown }) =>
  ((m.reply_markup as { inline_keyboard?: { text: string; url?: string }[][] } | undefined)?.inline_keyboard ?? [])
    .map((row) => row.filter((b) => b.url !== undefined).map(({ text, url }) => ({ text, url })))
    .filter((row) => row.length > 0);

test("a published post's text is edited from its details, approved in Telegram, and changed in place", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const options = { silent: true, pin: true, unpinAfterHours: 6, buttons: BUTTONS };
  const { postId, message } = await publishedPost(p, { title: "Мост", content: TEXT, entities: ENTITIES, options });

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
  await approveEdit(p, postId, await editPreview(p, postId));

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

test("a published post's buttons are changed and added in its edit: the approver sees them, and Approve puts them on the channel's message", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const FAIR = "Ярмарка в субботу.";
  const OLD = [[{ text: "Карта", url: "https://maps.example/fair" }]];
  const NEW = [[{ text: "Карта ярмарки", url: "https://maps.example/fair-2" }], [{ text: "Билеты", url: "tg://resolve?domain=fair_tickets" }]];
  const { postId, message } = await publishedPost(p, { title: "Ярмарка", content: FAIR, options: { buttons: OLD } });
  const channelMessage = () => telegram.messageInfo(p.channel.id, message.message_id)!.message;

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  const chip = page.getByTestId("calendar-post").filter({ hasText: "Ярмарка" });
  await expect.poll(() => chip.count(), soon).toBe(1);
  await chip.click();
  const details = page.getByTestId("post-details");
  await details.getByTestId("post-edit-text").click();
  const form = details.getByTestId("post-edit-form");
  const buttons = form.getByTestId("url-buttons");
  const texts = buttons.getByTestId("option-button-text");
  const urls = buttons.getByTestId("option-button-url");

  // The editor starts from the post's button; it is renamed and moved, and a row is added.
  await expect.poll(() => texts.inputValue(), soon).toBe("Карта");
  expect(await urls.inputValue()).toBe("https://maps.example/fair");
  await texts.fill("Карта ярмарки");
  await urls.fill("https://maps.example/fair-2");
  await buttons.getByTestId("option-add-row").click();
  await texts.nth(1).fill("Билеты");
  await urls.nth(1).fill("http://tickets.example/fair");

  // A plain http address is refused on the spot, and nothing goes to the approver.
  await form.getByTestId("post-edit-send").click();
  await expect.poll(() => buttons.getByText("Кнопка ведёт только на адрес https:// или tg://").count(), soon).toBe(1);
  expect((await stack.sql`select pending_edit from app_public.posts where id = ${postId}`)[0].pendingEdit).toBeNull();
  await urls.nth(1).fill("tg://resolve?domain=fair_tickets");
  await expect.poll(() => buttons.getByText("Кнопка ведёт только на адрес https:// или tg://").count(), soon).toBe(0);

  // The preview shows the buttons as the channel will.
  const preview = form.getByTestId("post-preview-buttons").getByRole("link");
  await expect.poll(() => preview.allTextContents(), soon).toEqual(["Карта ярмарки", "Билеты"]);
  expect(await preview.nth(1).getAttribute("href")).toBe("tg://resolve?domain=fair_tickets");
  await page.waitForTimeout(300);
  await screenshot(page, "post-edit-buttons");
  await form.getByTestId("post-edit-send").click();
  await expect.poll(() => page.getByTestId("toast-region").textContent(), soon).toContain("Отправлено на одобрение");

  // The approver's preview of the edit carries the new buttons; the channel keeps the old ones.
  const decision = await editPreview(p, postId);
  const previewed = telegram.messages(p.admin.id).filter((m) => m.message_id <= decision.message_id).findLast((m) => urlButtonsOf(m).length > 0)!;
  expect(previewed.text).toBe(FAIR);
  expect(urlButtonsOf(previewed)).toEqual(NEW);
  expect(urlButtonsOf(channelMessage())).toEqual(OLD);

  // Approve: the channel's message gets them in place, its text as it was.
  await approveEdit(p, postId, decision);
  await telegram.waitFor(() => urlButtonsOf(channelMessage()).length === 2 || undefined, 15_000);
  expect(urlButtonsOf(channelMessage())).toEqual(NEW);
  expect(channelMessage().text).toBe(FAIR);
  await expect.poll(() => details.getByTestId("post-details-options").textContent(), refetch).toBe("Кнопки: Карта ярмарки, Билеты");
  await page.context().close();
}, 120_000);

test("the Published page opens a post straight in its edit: new words, its button removed, approved in Telegram", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const CONCERT = "Концерт в парке.";
  const EDITED = `${CONCERT} Вход свободный.`;
  const { postId, message } = await publishedPost(p, {
    title: "Концерт",
    content: CONCERT,
    options: { buttons: [[{ text: "Программа", url: "https://park.example/program" }]] },
  });
  const channelMessage = () => telegram.messageInfo(p.channel.id, message.message_id)!.message;

  const page = await pageAs(p.cookie);
  await page.goto(`${stack.baseUrl}/project/${p.project.id}/published`);
  const row = page.getByTestId("published-post").filter({ hasText: "Концерт" });
  await expect.poll(() => row.count(), soon).toBe(1);
  await row.getByRole("button", { name: "Изменить «Концерт»" }).click();

  // The post's details open in the edit, its text in the editor.
  const dialog = page.getByRole("dialog", { name: "Концерт" });
  const form = dialog.getByTestId("post-edit-form");
  const editor = form.getByTestId("post-edit-input");
  await expect.poll(() => editor.textContent(), soon).toBe(CONCERT);
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" Вход свободный.");
  await form.getByRole("button", { name: "Убрать кнопку" }).click();
  await expect.poll(() => form.getByTestId("option-button-text").count(), soon).toBe(0);
  expect(await form.getByTestId("post-preview-buttons").count()).toBe(0);
  expect(await form.getByTestId("post-preview-text").textContent()).toBe(EDITED);
  await page.waitForTimeout(300);
  await screenshot(page, "published-post-edit");
  await form.getByTestId("post-edit-send").click();
  await expect.poll(() => page.getByTestId("toast-region").textContent(), soon).toContain("Отправлено на одобрение");

  // The edit waits: the details show it, and so does the post's row once the dialog is closed.
  await expect.poll(() => dialog.getByTestId("post-details-pending-edit").count(), soon).toBe(1);
  await page.keyboard.press("Escape");
  await expect.poll(() => dialog.count(), soon).toBe(0);
  expect(await row.getByTestId("published-pending-edit").textContent()).toBe("Правка ждёт одобрения");
  expect(channelMessage().text).toBe(CONCERT);

  // Approved in Telegram: the message reads the new text and has no button left.
  await approveEdit(p, postId, await editPreview(p, postId));
  await telegram.waitFor(() => channelMessage().text === EDITED || undefined, 15_000);
  expect(urlButtonsOf(channelMessage())).toEqual([]);

  // The page reads the list again while an edit waits: the mark goes, the details say when it changed.
  await expect.poll(() => row.getByTestId("published-pending-edit").count(), refetch).toBe(0);
  await row.getByTestId("published-open").click();
  const details = dialog.getByTestId("post-details");
  await expect.poll(() => details.getByTestId("post-details-edited").textContent(), soon).toMatch(/^Изменён /);
  expect(await details.getByTestId("post-preview-text").textContent()).toBe(EDITED);
  expect(await details.getByTestId("post-preview-buttons").count()).toBe(0);
  expect(await details.getByTestId("post-details-options").count()).toBe(0);
  await page.context().close();
}, 120_000);
