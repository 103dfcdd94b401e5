/*
 * The Webhooks screen (docs/api.md "Webhooks") in Chromium against the real API and worker: an
 * owner adds an endpoint and sees its secret once, an event arrives at the receiver and shows
 * in the delivery log as delivered, and Redeliver sends it again; a viewer is told who manages them.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import { type Stack, uniqueEmail } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";
import { closeBrowserStack, openBrowserStack, signedInPage } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
const received: { id: string | null; body: string }[] = [];
let receiver: Deno.HttpServer<Deno.NetAddr>;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack({ env: { WEBHOOKS_ALLOW_PRIVATE: "true" } }));
  receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push({ id: req.headers.get("webhook-id"), body: await req.text() });
    return new Response("ok");
  });
});
afterAll(async () => {
  await receiver.shutdown();
  await closeBrowserStack({ stack, browser });
});

const soon = { timeout: 20_000 };

test("an owner adds an endpoint, sees the secret once, reads the delivery log and redelivers; a viewer reads where it goes and its log, and is told who may change them", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("hooks"));
  const project = (await stack.call("POST", "/api/projects", { name: "Hooked channel", adminHandle: "hook_admin" }, cookie)).json;
  const page = await signedInPage({ stack, browser }, cookie, { language: "en" });
  await page.goto(`${stack.baseUrl}/project/${project.id}/webhooks`);
  await page.getByTestId("webhook-url").fill(`http://127.0.0.1:${receiver.addr.port}/pressa`);
  await page.getByTestId("webhook-add").getByText("draft.created").click();
  await page.getByTestId("webhook-create").click();
  const secret = page.getByTestId("webhook-secret");
  await expect.poll(() => secret.count(), soon).toBe(1);
  expect(await secret.textContent()).toMatch(/^whsec_/);
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();

  await stack.call("POST", `/api/projects/${project.id}/drafts`, { title: "Announced", content: "" }, cookie);
  await expect.poll(() => received.filter((r) => r.body.includes("draft.created")).length, soon).toBe(1);
  await page.getByTestId("webhook-log-toggle").click();
  const log = page.getByTestId("webhook-deliveries");
  await expect.poll(async () => (await log.textContent()) ?? "", soon).toContain("Delivered");
  expect(await log.textContent()).toContain("draft.created");
  await screenshot(page, "webhooks", { fullPage: true });
  await page.getByTestId("webhook-redeliver").click();
  await expect.poll(() => received.filter((r) => r.body.includes("draft.created")).length, soon).toBe(2);
  expect(received[1].id).toBe(received[0].id);

  const viewer = await addMember(stack, project.id, cookie, "viewer");
  const theirs = await signedInPage({ stack, browser }, viewer.cookie, { language: "en" });
  await theirs.goto(`${stack.baseUrl}/project/${project.id}/webhooks`);
  await expect.poll(() => theirs.getByTestId("webhooks-readonly").count(), soon).toBe(1);
  expect(await theirs.getByTestId("webhook-add").count()).toBe(0);
  // they read where it goes, not its path (an address may be a secret), and its log, but change nothing
  const card = theirs.getByTestId("webhook");
  await expect.poll(() => card.count(), soon).toBe(1);
  expect(await card.textContent()).toContain(`http://127.0.0.1:${receiver.addr.port}/…`);
  expect(await card.textContent()).not.toContain("/pressa");
  await card.getByTestId("webhook-log-toggle").click();
  await expect.poll(async () => (await theirs.getByTestId("webhook-deliveries").textContent()) ?? "", soon).toContain("Delivered");
  expect(await theirs.getByTestId("webhook-redeliver").count()).toBe(0);
  expect(await card.getByRole("button", { name: "Remove" }).count()).toBe(0);
  await screenshot(theirs, "webhooks-viewer", { fullPage: true });
  await page.context().close();
  await theirs.context().close();
});
