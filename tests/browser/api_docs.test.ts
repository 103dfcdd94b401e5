/*
 * The API reference page (/api-docs, docs/api.md): the OpenAPI document rendered by the kept
 * renderer (Swagger UI, loaded only when the page opens), needing no session, under the app's
 * Content-Security-Policy: its routes and their operations are there to read. The renderer's
 * files come from api/routes/docs.ts.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { screenshot } from "../helpers/browser.ts";
import type { Stack } from "../helpers/stack.ts";
import { closeBrowserStack, openBrowserStack } from "../helpers/web.ts";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  ({ stack, browser } = await openBrowserStack());
});
afterAll(async () => {
  await closeBrowserStack({ stack, browser });
});

test("the reference renders the document's routes, signed out, and no script is refused by the CSP", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text()) && /script/i.test(message.text())) refused.push(message.text());
  });
  await page.goto(`${stack.baseUrl}/api-docs`);
  const docs = page.getByTestId("api-docs");
  await expect.poll(async () => (await docs.textContent()) ?? "", { timeout: 30_000 }).toContain("Pressa API");
  await expect.poll(async () => (await docs.textContent()) ?? "", { timeout: 30_000 }).toContain("/api/projects/{projectId}/drafts");
  expect(refused).toEqual([]);
  await screenshot(page, "api-docs", { fullPage: false });
  await context.close();
});
