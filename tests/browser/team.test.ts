/*
 * A project's team in Chromium against the real API, the worker and the SMTP sink
 * (docs/teams.md): the owner invites from the Members screen, the invitee opens the mail's
 * link signed out, signs in, comes back to it and accepts, and finds the shared project on
 * the home screen with its role; a link for another address says who is signed in; a
 * viewer's pages leave out what a viewer cannot do; the last owner cannot leave; a member's
 * open tab follows a new role, and once removed is taken to the dashboard and told why.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { codeFrom } from "../helpers/smtp.ts";
import { type Stack, uniqueEmail } from "../helpers/stack.ts";
import { addMember, tokenFrom } from "../helpers/team.ts";
import { closeBrowserStack, openBrowserStack, signedInPage, signInThroughUi } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
let owner: { cookie: string; email: string };
let project: { id: number };

const soon = { timeout: 10_000 };
const toastTexts = (page: Page) => page.getByTestId("toast-region").textContent();

beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack());
  const email = uniqueEmail("owner");
  owner = { cookie: (await stack.signIn(email)).cookie, email };
  project = (await stack.call("POST", "/api/projects", { name: "Кофейня на углу", adminHandle: "coffee_admin" }, owner.cookie)).json;
  await stack.call("POST", `/api/projects/${project.id}/drafts/bulk`, { titles: ["Новые зёрна", "Мастер-класс"] }, owner.cookie);
}, 120_000);

afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

const members = (id = project.id) => `${stack.baseUrl}/project/${id}/members`;
const row = (page: Page, testId: string, email: string) => page.locator(`[data-testid="${testId}"][data-email="${email}"]`);

test("the owner invites by e-mail; the invitee signs in from the link, accepts and sees the shared project as Editor", async () => {
  const page = await signedInPage({ stack, browser }, owner.cookie);
  await page.goto(members());
  await expect.poll(() => row(page, "member-row", owner.email).count(), soon).toBe(1);
  expect(await row(page, "member-row", owner.email).getByTestId("member-role").inputValue()).toBe("owner");

  // A wrong address is worded under the field, and nothing is sent.
  await page.getByTestId("invite-email").fill("not an address");
  await page.getByTestId("invite-submit").click();
  await expect.poll(() => page.getByText("Введите e-mail, на который отправить приглашение").count(), soon).toBe(1);
  // The owner's own address: the server's answer, worded with the address.
  await page.getByTestId("invite-email").fill(owner.email);
  await page.getByTestId("invite-submit").click();
  await expect.poll(() => page.getByText(`${owner.email} уже участник этого проекта`).count(), soon).toBe(1);

  const invitee = uniqueEmail("editor");
  await page.getByTestId("invite-email").fill(invitee);
  await page.getByTestId("invite-role").selectOption("editor");
  await page.getByTestId("invite-submit").click();
  await expect.poll(() => row(page, "invitation-row", invitee).count(), soon).toBe(1);
  expect(await row(page, "invitation-row", invitee).textContent()).toContain("Редактор");
  await screenshot(page, "team-members-owner");
  const token = tokenFrom((await stack.smtp.waitForMail(invitee)).text);

  // Signed out, the link leads to sign-in, and sign-in back to the link.
  const guest = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await guest.goto(`${stack.baseUrl}/invite/${token}`);
  await guest.waitForURL(/\/auth$/);
  await guest.getByTestId("email-input").fill(invitee);
  await guest.getByTestId("request-code").click();
  await guest.getByTestId("code-input").fill(codeFrom(await stack.smtp.waitForMail(invitee, 2)));
  await guest.waitForURL(`${stack.baseUrl}/invite/${token}`);
  expect(await guest.getByTestId("invite-card").textContent()).toContain(`Вы вошли как ${invitee}`);
  await guest.getByTestId("accept-invitation").click();
  await guest.waitForURL(`${stack.baseUrl}/project/${project.id}`);
  await expect.poll(() => toastTexts(guest), soon).toContain("Ваша роль: Редактор");
  // an editor writes and publishes, but the project's settings are the owner's
  await expect.poll(() => guest.getByRole("heading", { name: "Кофейня на углу" }).count(), soon).toBe(1);
  expect(await guest.getByRole("button", { name: "Удалить" }).count()).toBe(0);

  await guest.goto(`${stack.baseUrl}/`);
  const card = guest.locator(`[data-testid="project-card"][data-project-id="${project.id}"]`);
  await expect.poll(() => card.getByTestId("card-role").textContent(), soon).toBe("Редактор");
  await screenshot(guest, "team-home-editor");

  // The link served once: opened again it says so.
  await guest.goto(`${stack.baseUrl}/invite/${token}`);
  await guest.getByTestId("accept-invitation").click();
  await expect.poll(() => guest.getByTestId("invite-gone").textContent(), soon).toContain("Приглашение больше не действует");
  await guest.close();

  // The owner sees the new member, with the role, among the members; the invitation is gone.
  await page.reload();
  await expect.poll(() => row(page, "member-row", invitee).count(), soon).toBe(1);
  expect(await row(page, "invitation-row", invitee).count()).toBe(0);
  await page.context().close();
});

test("a link sent to another address names the account signed in and offers to sign out", async () => {
  const addressed = uniqueEmail("addressed");
  await stack.call("POST", `/api/projects/${project.id}/invitations`, { email: addressed, role: "author" }, owner.cookie);
  const token = tokenFrom((await stack.smtp.waitForMail(addressed)).text);
  const someoneElse = uniqueEmail("someone");
  const page = await signedInPage({ stack, browser }, (await stack.signIn(someoneElse)).cookie, { language: "en" });
  await page.goto(`${stack.baseUrl}/invite/${token}`);
  await page.getByTestId("accept-invitation").click();
  const refused = page.getByTestId("invite-another-email");
  await expect.poll(() => refused.textContent(), soon).toContain(`You are signed in as ${someoneElse}`);
  await screenshot(page, "team-invite-another-email");
  await page.getByTestId("invite-sign-out").click();
  await page.waitForURL(/\/auth$/);
  await page.context().close();
});

test("a viewer reads the project: no Add draft, no draft buttons, and the channel is the owner's", async () => {
  const viewer = await addMember(stack, project.id, owner.cookie, "viewer");
  const page = await signedInPage({ stack, browser }, viewer.cookie, { language: "en" });
  await page.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await expect.poll(() => page.getByTestId("draft-row").count(), soon).toBe(2);
  expect(await page.getByTestId("new-draft").count()).toBe(0);
  expect(await page.getByTestId("bulk-add").count()).toBe(0);
  expect(await page.getByTestId("edit-draft").count()).toBe(0);
  expect(await page.getByTestId("drag-handle").count()).toBe(0);

  await page.goto(`${stack.baseUrl}/project/${project.id}/channels`);
  await expect.poll(() => page.getByTestId("channels-owner-only").textContent(), soon).toBe("Only an owner can connect a channel");
  expect(await page.getByTestId("add-channel").count()).toBe(0);

  await page.goto(members());
  await expect.poll(() => page.getByTestId("members-owner-only").textContent(), soon).toBe("Only an owner can invite people");
  expect(await page.getByTestId("invite-form").count()).toBe(0);
  expect(await page.getByTestId("remove-member").count()).toBe(0);
  await screenshot(page, "team-members-viewer");
  await page.context().close();
});

test("demoted, then removed by the owner: a member's open tab follows the new role, then goes to the dashboard and says why", async () => {
  const author = await addMember(stack, project.id, owner.cookie, "author");
  const tab = await signedInPage({ stack, browser }, author.cookie);
  await tab.goto(`${stack.baseUrl}/project/${project.id}/drafts`);
  await expect.poll(() => tab.getByTestId("draft-row").count(), soon).toBe(2);
  // an author writes drafts
  expect(await tab.getByTestId("new-draft").count()).toBe(1);

  const page = await signedInPage({ stack, browser }, owner.cookie);
  await page.goto(members());
  // Made a viewer meanwhile: the open tab's next write is refused in words, and its controls go.
  await row(page, "member-row", author.email).getByTestId("member-role").selectOption("viewer");
  await expect.poll(() => toastTexts(page), soon).toContain("теперь Наблюдатель");
  await tab.getByTestId("delete-draft").first().click();
  await tab.getByTestId("confirm-delete").click();
  await expect.poll(() => toastTexts(tab), soon).toContain("Ваша роль в этом проекте не позволяет это сделать");
  await expect.poll(() => tab.getByTestId("new-draft").count(), soon).toBe(0);
  expect(await tab.getByTestId("draft-row").count()).toBe(2);

  await row(page, "member-row", author.email).getByTestId("remove-member").click();
  await page.getByTestId("confirm-delete").click();
  await expect.poll(() => row(page, "member-row", author.email).count(), soon).toBe(0);
  // The only owner cannot leave: the refusal in words, and the owner stays.
  await page.getByTestId("leave-project").click();
  await page.getByTestId("confirm-delete").click();
  await expect.poll(() => toastTexts(page), soon).toContain("У проекта должен остаться хотя бы один владелец");
  expect(page.url()).toBe(members());

  // The open tab's next request answers 404: the dashboard, with the reason.
  await tab.getByRole("link", { name: "Расписание" }).first().click();
  await tab.waitForURL(`${stack.baseUrl}/`);
  await expect.poll(() => toastTexts(tab), soon).toContain("У вас больше нет доступа к этому проекту");
  await expect.poll(() => tab.locator(`[data-testid="project-card"][data-project-id="${project.id}"]`).count(), soon).toBe(0);
  await screenshot(tab, "team-removed");
  await tab.context().close();
  await page.context().close();
});
