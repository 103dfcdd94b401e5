/*
 * Review in Chromium against the real API and worker (docs/review.md): an author's Publish reads
 * "Send for review" and holds the post; an editor sees the count beside "For review" in the
 * project's navigation, opens the post there and returns it with a comment; the author finds the
 * post back in draft with the comment in its details. The approver's chat stays empty throughout.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectWithChannel } from "../helpers/publishing.ts";
import type { Stack } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";
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

/** The post's details opened from the schedule (the next month's calendar if it falls there). */
async function openDetails(page: Page, projectId: number, postId: number) {
  await page.goto(`${stack.baseUrl}/project/${projectId}/schedule`);
  await expect.poll(() => page.getByTestId("calendar-day").count(), soon).toBeGreaterThan(0);
  const chip = page.locator(`[data-testid="calendar-post"][data-post-id="${postId}"]`);
  await page.waitForTimeout(500);
  if ((await chip.count()) === 0) await page.getByTestId("calendar-next").click();
  await chip.click();
  return page.getByTestId("post-details");
}

test("an author sends a post for review; an editor returns it with a comment from the review page; the author reads it", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Ярмарка в парке"] });
  await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { content: "В субботу в парке — ярмарка." }, p.cookie);
  const editor = await addMember(stack, p.project.id, p.cookie, "editor");
  const author = await addMember(stack, p.project.id, p.cookie, "author");
  const postId = (await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  }, p.cookie)).json.id as number;

  const authorPage = await signedInPage({ stack, browser }, author.cookie, { language: "ru", viewport: { width: 1440, height: 900 } });
  let details = await openDetails(authorPage, p.project.id, postId);
  const publish = details.getByTestId("post-publish");
  await expect.poll(() => publish.textContent(), soon).toBe("Отправить на проверку");
  await publish.click();
  await expect.poll(() => toasts(authorPage), soon).toContain("Отправлено на проверку");
  await expect.poll(() => details.getByTestId("post-status").textContent(), soon).toBe("На проверке");
  // an author does not review: no "For review" in their navigation
  expect(await authorPage.getByTestId("nav-review").count()).toBe(0);

  const editorPage = await signedInPage({ stack, browser }, editor.cookie, { language: "ru", viewport: { width: 1440, height: 900 } });
  await editorPage.goto(`${stack.baseUrl}/project/${p.project.id}`);
  await expect.poll(() => editorPage.getByTestId("review-badge").textContent(), soon).toBe("1");
  // the post's details on the calendar lead there too
  const editorDetails = await openDetails(editorPage, p.project.id, postId);
  await editorDetails.getByTestId("post-open-review").click();
  await expect.poll(() => editorPage.url(), soon).toContain(`/project/${p.project.id}/review`);
  await editorPage.goto(`${stack.baseUrl}/project/${p.project.id}/schedule`);
  await editorPage.getByTestId("nav-review").click();
  const item = editorPage.locator(`[data-testid="review-item"][data-post-id="${postId}"]`);
  await expect.poll(() => item.count(), soon).toBe(1);
  await item.getByTestId("review-open").click();
  await expect.poll(() => item.getByTestId("review-details").textContent(), soon).toContain("В субботу в парке — ярмарка.");
  await item.getByTestId("review-comment").fill("Добавьте, во сколько начало.");
  await item.getByTestId("review-return").click();
  await expect.poll(() => toasts(editorPage), soon).toContain("Возвращено автору");
  await expect.poll(() => editorPage.getByTestId("review-empty").count(), soon).toBe(1);
  expect(await editorPage.getByTestId("review-badge").count()).toBe(0);

  details = await openDetails(authorPage, p.project.id, postId);
  await expect.poll(() => details.getByTestId("post-status").textContent(), soon).toBe("Запланирован");
  await expect.poll(() => details.getByTestId("post-comment").textContent(), soon).toContain("Добавьте, во сколько начало.");
  expect(await details.getByTestId("post-comment").textContent()).toContain(editor.email.toLowerCase());
  // nothing ever reached the approver but the connection's question
  expect(stack.telegram!.messages(p.admin.id).filter((m) => m.message_id !== p.question.message_id)).toEqual([]);
}, 90_000);
