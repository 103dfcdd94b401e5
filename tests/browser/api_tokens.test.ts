/*
 * API tokens as a person makes them (docs/api.md), in Chromium against the real API: Settings
 * makes a token for one project, shows it once with a curl line, lists it with its last use
 * once a script used it, and revokes it, after which the script is refused.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { type Stack, uniqueEmail } from "../helpers/stack.ts";
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

test("a token made in Settings is shown once, works for a script, shows its last use, and stops at once when revoked", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("scripts"));
  const first = (await stack.call("POST", "/api/projects", { name: "Main channel", adminHandle: "tok_admin" }, cookie)).json;
  await stack.call("POST", "/api/projects", { name: "Side channel", adminHandle: "tok_admin" }, cookie);
  const page = await signedInPage({ stack, browser }, cookie, { language: "en" });
  await page.goto(`${stack.baseUrl}/settings`);
  const section = page.getByTestId("api-tokens");
  await section.getByTestId("token-name").fill("Google Sheets");
  await section.getByTestId("token-project").selectOption(String(first.id));
  await section.getByTestId("token-scope").getByText("Read and write").click();
  await section.getByTestId("token-create").click();
  const value = page.getByTestId("token-value");
  await expect.poll(() => value.count(), soon).toBe(1);
  const token = (await value.textContent())!.trim();
  expect(token).toMatch(/^prs_[A-Za-z0-9_-]{43}$/);
  expect(await page.getByRole("dialog").textContent()).toContain(`curl -H "Authorization: Bearer ${token}"`);
  await screenshot(page, "api-token-made");
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();

  const list = section.getByTestId("token-list");
  await expect.poll(async () => (await list.textContent()) ?? "", soon).toContain("Google Sheets");
  expect(await list.textContent()).toContain("Main channel");
  expect(await list.textContent()).toContain("Never");
  // the secret is not on the page any more
  expect(await page.content()).not.toContain(token);

  const script = async () => {
    const res = await fetch(`${stack.baseUrl}/api/projects`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, json: await res.json() };
  };
  const used = await script();
  expect(used.status).toBe(200);
  expect(used.json.map((p: { name: string }) => p.name)).toEqual(["Main channel"]);
  await page.reload();
  await expect.poll(async () => (await section.getByTestId("token-list").textContent()) ?? "", soon).not.toContain("Never");
  await screenshot(page, "api-tokens", { fullPage: true });

  await section.getByRole("button", { name: "Revoke the token Google Sheets" }).click();
  await expect.poll(async () => await section.getByTestId("token-list").count(), soon).toBe(0);
  expect((await script()).status).toBe(401);
  await page.context().close();
});

test("deleting the account in Settings: refused while it is a shared project's last owner, naming it; then gone, back at sign-in", async () => {
  const email = uniqueEmail("leaving");
  const { cookie } = await stack.signIn(email);
  const shared = (await stack.call("POST", "/api/projects", { name: "Team channel", adminHandle: "del_admin" }, cookie)).json;
  const { user: other } = await stack.signIn(uniqueEmail("teammate"));
  await stack.sql`insert into app_public.project_members (project_id, user_id, role) values (${shared.id}, ${other.id}, 'editor')`;
  const page = await signedInPage({ stack, browser }, cookie, { language: "en" });
  await page.goto(`${stack.baseUrl}/settings`);
  await page.getByTestId("delete-account").getByRole("button", { name: "Delete my account…" }).click();
  const confirm = page.getByTestId("delete-account-confirm");
  expect(await confirm.isDisabled()).toBe(true);
  await page.getByTestId("delete-account-email").fill(email.toUpperCase());
  await confirm.click();
  await expect.poll(async () => (await page.getByRole("dialog").textContent()) ?? "", soon).toContain("last owner of «Team channel»");
  await screenshot(page, "delete-account-refused");

  await stack.sql`update app_public.project_members set role = 'owner' where project_id = ${shared.id} and user_id = ${other.id}`;
  await confirm.click();
  await page.waitForURL((url) => !url.pathname.startsWith("/settings"), soon);
  await expect.poll(async () => await page.getByLabel("Email").count(), soon).toBeGreaterThan(0);
  expect((await stack.sql`select 1 from app_public.users where email = ${email}`).length).toBe(0);
  // the shared project stays with its team
  expect((await stack.sql`select 1 from app_public.projects where id = ${shared.id}`).length).toBe(1);
  await page.context().close();
});
