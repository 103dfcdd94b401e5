/*
 * The home screen's project cards (issue 27) in Chromium against the real API, the worker, the
 * bot and the Bot API double: a card shows the subscribers and their change over 7 days, the
 * next post in the project's time, the posts waiting for review (an author's, which the owner
 * decides), for approval and the failures, whose link opens the schedule; a project without a channel offers to connect one. Every card's
 * figures come from one request. In Russian and English, light and dark, desktop and phone.
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { failedInTelegram, postReaches, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack } from "../helpers/stack.ts";
import { memberUpdates, subscriberHistory } from "../helpers/stats.ts";
import { addMember } from "../helpers/team.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let p: Awaited<ReturnType<typeof projectWithChannel>>;
let bare: { id: number };
let waiting: { id: number };
let awaitingAt: string;

const soon = { timeout: 10_000 };
const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };

beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ bot: true }));
  const telegram = stack.telegram!;
  p = await projectWithChannel(stack, { drafts: ["Провал", "Утренний дайджест", "От автора"] });
  await stack.call("PATCH", `${p.base}`, { description: "Новости кофейни: обжарка, новые зёрна и мастер-классы." }, p.cookie);
  // 1,200 a week ago, 1,230 at the last sample, 6 joins and 2 leaves since: 1,234, +34.
  await subscriberHistory(stack, p.project.id, 1200, 1230);
  await memberUpdates(stack, p.channel.id, "join", 6);
  await memberUpdates(stack, p.channel.id, "leave", 2);
  // one post failed in Telegram, one waits for the approver
  await failedInTelegram(stack, p, p.drafts[0].id);
  const awaiting = await sentForApproval(stack, p, p.drafts[1].id, 3600_000);
  awaitingAt = (await postReaches(stack, awaiting.postId, "scheduled")).scheduledFor as string;
  // an author's post, three days ahead, waits for the owner's review
  const author = await addMember(stack, p.project.id, p.cookie, "author");
  const review = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[2].id, scheduledFor: new Date(Date.now() + 72 * 3600_000).toISOString() }, author.cookie);
  if (review.json?.status !== "in_review") throw new Error(`not in review: ${review.text}`);
  bare = (await stack.call("POST", "/api/projects", { name: "Без канала", adminHandle: "someone_else" }, p.cookie)).json;
  // a channel asked of the approver, not allowed yet
  waiting = (await stack.call("POST", "/api/projects", { name: "Ждёт подтверждения", adminHandle: p.admin.username }, p.cookie)).json;
  const other = telegram.addChannel({ username: `pending_${Date.now().toString(36)}`, title: "Pending", owner: p.admin.id });
  await stack.call("POST", `/api/projects/${waiting.id}/channels`, { type: "telegram", link: `@${other.username}` }, p.cookie);
}, 120_000);

afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const pageAs = (options: BrowserContextOptions & { language?: "ru" | "en" } = {}) =>
  signedInPage({ stack, browser }, p.cookie, { viewport: desktop, language: "ru", ...options });
const card = (page: Page, id: number) => page.locator(`[data-testid="project-card"][data-project-id="${id}"]`);
const text = async (page: Page, id: number, testId: string) =>
  ((await card(page, id).getByTestId(testId).textContent()) ?? "").replace(/\s+/g, " ");

async function openHome(page: Page) {
  await page.goto(`${stack.baseUrl}/`);
  await expect.poll(() => card(page, p.project.id).getByTestId("project-figures").count(), soon).toBe(1);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

/** "Сегодня" / "Today" or the next day's word, as the awaiting post's time reads in Moscow. */
function dayWord(language: "ru" | "en") {
  const moscowDay = (ms: number) => new Date(ms + 3 * 3600_000).toISOString().slice(0, 10);
  const today = moscowDay(Date.now()) === moscowDay(Date.parse(awaitingAt));
  return language === "ru" ? (today ? "Сегодня" : "Завтра") : today ? "Today" : "Tomorrow";
}
const moscowClock = () => new Date(Date.parse(awaitingAt) + 3 * 3600_000).toISOString().slice(11, 16);

test("a card tells the project's week and what needs the owner; one request answers every card", async () => {
  const page = await pageAs();
  const asked = stack.answered.length;
  await openHome(page);
  expect(stack.answered.slice(asked).filter((r) => r.path === "/api/projects/overview")).toEqual([
    { method: "GET", path: "/api/projects/overview", status: 200 },
  ]);

  expect(await text(page, p.project.id, "card-subscribers")).toBe("1 234");
  expect(await text(page, p.project.id, "card-subscribers-change")).toBe("+34 за 7 дней");
  expect(await card(page, p.project.id).getByTestId("card-subscribers-change").getAttribute("data-trend")).toBe("up");
  expect(await text(page, p.project.id, "card-next-post")).toBe(`${dayWord("ru")}, ${moscowClock()}`);
  expect(await text(page, p.project.id, "card-next-post-title")).toBe("Утренний дайджест");
  expect(await text(page, p.project.id, "card-awaiting")).toBe("Ждут согласования: 1");
  expect(await text(page, p.project.id, "card-in-review")).toBe("Ждут проверки: 1");
  expect(await text(page, p.project.id, "card-failures")).toBe("Не опубликовано: 1");

  // the project without a channel: no figures of its own, a way to connect one
  const connect = card(page, bare.id).getByTestId("card-subscribers");
  expect(await connect.getAttribute("data-state")).toBe("no-channel");
  expect(await connect.textContent()).toBe("Подключить канал");
  expect(await connect.getAttribute("href")).toBe(`/project/${bare.id}/channels`);
  expect(await text(page, bare.id, "card-next-post")).toBe("Ничего не запланировано");
  expect(await card(page, bare.id).getByTestId("card-failures").count()).toBe(0);
  expect(await card(page, bare.id).getByTestId("card-subscribers-change").count()).toBe(0);
  // the one still waiting for the approver's Allow says for whom
  const waitingFor = card(page, waiting.id).getByTestId("card-subscribers");
  expect(await waitingFor.getAttribute("data-state")).toBe("awaiting");
  expect(await waitingFor.textContent()).toBe(`Ждём ответа @${p.admin.username}`);
  expect(await waitingFor.getAttribute("href")).toBe(`/project/${waiting.id}/channels`);

  await screenshot(page, "home-cards-light-ru", { fullPage: false });

  // The failures' link opens the schedule, not the project page the card's own link opens.
  await card(page, p.project.id).getByTestId("card-failures").click();
  await page.waitForURL(new RegExp(`/project/${p.project.id}/schedule$`));
  await page.context().close();
}, 60_000);

test("in English, dark; and on a 390-px phone in both themes, nothing wider than the screen", async () => {
  const dark = await pageAs({ language: "en", colorScheme: "dark" });
  await openHome(dark);
  expect(await dark.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe("dark");
  expect(await text(dark, p.project.id, "card-subscribers")).toBe("1,234");
  expect(await text(dark, p.project.id, "card-subscribers-change")).toBe("+34 in 7 days");
  expect(await text(dark, p.project.id, "card-next-post")).toBe(`${dayWord("en")}, ${moscowClock()}`);
  expect(await text(dark, p.project.id, "card-awaiting")).toBe("Awaiting approval: 1");
  expect(await text(dark, p.project.id, "card-in-review")).toBe("Waiting for review: 1");
  expect(await text(dark, p.project.id, "card-failures")).toBe("Not published: 1");
  await screenshot(dark, "home-cards-dark-en", { fullPage: false });

  for (const colorScheme of ["light", "dark"] as const) {
    const page = await pageAs({ viewport: phone, colorScheme });
    await openHome(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    for (const id of [p.project.id, waiting.id]) {
      // a tile's content (a long handle too) stays inside its card
      const box = (await card(page, id).boundingBox())!;
      const inner = (await card(page, id).getByTestId("card-subscribers").boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
      expect(inner.x + inner.width).toBeLessThanOrEqual(box.x + box.width);
    }
    await screenshot(card(page, p.project.id), `home-card-${colorScheme}-ru-390`);
    await screenshot(card(page, waiting.id), `home-card-waiting-${colorScheme}-ru-390`);
    await page.context().close();
  }
  await dark.context().close();
}, 60_000);
