/*
 * The Activity page as a team member reads it (docs/teams.md), in Chromium against the real
 * API: the owner's and an author's acts, newest first, each with who did it; the filters by
 * member and by kind; in Russian and English.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import type { Stack } from "../helpers/stack.ts";
import { uniqueEmail } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack());
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 20_000 };

test("an author reads who did what, newest first, and narrows it to one member or one kind", async () => {
  const owner = await stack.signIn(uniqueEmail("owner"));
  const project = (await stack.call("POST", "/api/projects", { name: "Team log", adminHandle: "log_admin" }, owner.cookie)).json;
  const base = `/api/projects/${project.id}`;
  await stack.call("POST", `${base}/drafts`, { title: "Owner's idea", content: "" }, owner.cookie);
  const author = await addMember(stack, project.id, owner.cookie, "author");
  await stack.call("POST", `${base}/drafts`, { title: "Author's idea", content: "" }, author.cookie);

  for (const language of ["ru", "en"] as const) {
    const page = await signedInPage({ stack, browser }, author.cookie, { language });
    await page.goto(`${stack.baseUrl}/project/${project.id}/activity`);
    const rows = page.getByTestId("activity-list").locator("li");
    await expect.poll(() => rows.count(), soon).toBe(4);
    const texts = (await rows.allTextContents()).map((t) => t.replace(/\s+/g, " "));
    const words = language === "ru"
      ? ["Создан черновик «Author's idea»", "в проекте, роль: автор", "Приглашение для", "Создан черновик «Owner's idea»"]
      : ["Draft “Author's idea” created", "joined as author", "invited as author", "Draft “Owner's idea” created"];
    words.forEach((word, i) => expect(texts[i], texts.join("\n")).toContain(word));
    expect(texts[0]).toContain(author.email.toLowerCase());
    expect(texts[3]).toContain(owner.user.email);

    await page.getByTestId("activity-member").selectOption(String(owner.user.id));
    await expect.poll(() => rows.count(), soon).toBe(2);
    await page.getByTestId("activity-kind").selectOption("draft.created");
    await expect.poll(() => rows.count(), soon).toBe(1);
    expect(await rows.first().textContent()).toContain("Owner's idea");
    await page.getByTestId("activity-member").selectOption("");
    await page.getByTestId("activity-kind").selectOption("member.joined");
    await expect.poll(() => rows.count(), soon).toBe(1);
    await screenshot(page, `activity-${language}`, { fullPage: true });
    await page.context().close();
  }
});
