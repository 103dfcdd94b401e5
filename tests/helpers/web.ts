/*
 * Browser tests drive the built SPA served by the real API. `npm test` builds web/dist
 * first; a direct vitest run builds it only when missing.
 */
import { join } from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { buildWeb } from "../../scripts/web_build.ts";
import { launchBrowser } from "./browser.ts";
import { type Stack, type StackOptions, startStack } from "./stack.ts";
import { codeFrom } from "./smtp.ts";

export const WEB_DIST = new URL("../../web/dist", import.meta.url).pathname;

export async function ensureWebBuilt() {
  try {
    await Deno.stat(join(WEB_DIST, "index.html"));
  } catch {
    await buildWeb(new URL("../..", import.meta.url).pathname);
  }
}

export type BrowserStack = { stack: Stack; browser: Browser; page: Page };

/** What every browser test starts from: the built SPA served by a real stack, Chromium, a desktop page. */
export async function openBrowserStack(options: StackOptions = {}): Promise<BrowserStack> {
  await ensureWebBuilt();
  const stack = await startStack({ serve: true, webDist: WEB_DIST, ...options });
  try {
    const browser = await launchBrowser();
    return { stack, browser, page: await browser.newPage({ viewport: { width: 1280, height: 800 } }) };
  } catch (err) {
    await stack.close();
    throw err;
  }
}

export async function closeBrowserStack(opened: { stack?: Stack; browser?: Browser }) {
  await opened.browser?.close();
  await opened.stack?.close();
}

/**
 * A page of its own browser context, signed in with a session cookie from `stack.signIn`,
 * in `language` when one is given (else the app's default, ru), with any other context
 * options (viewport, colour scheme).
 */
export async function signedInPage(
  { stack, browser }: { stack: Stack; browser: Browser },
  cookie: string,
  options: BrowserContextOptions & { language?: "ru" | "en" } = {},
): Promise<Page> {
  const { language, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  const separator = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, separator), value: cookie.slice(separator + 1), url: stack.baseUrl }]);
  if (language) await context.addInitScript((value) => localStorage.setItem("pressa.language", value), language);
  return await context.newPage();
}

/** Creates a project as the signed-in page's user, through the API the SPA uses. */
export async function createProjectInPage(page: Page, project: { name: string; adminHandle: string }): Promise<{ id: number }> {
  return await page.evaluate(async (body) => {
    const res = await fetch("/api/projects", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return (await res.json()) as { id: number };
  }, project);
}

/** Signs in through the sign-in screen with the code from the delivered mail. */
export async function signInThroughUi(page: Page, stack: Stack, email: string) {
  await page.goto(`${stack.baseUrl}/`);
  await page.waitForURL(/\/auth$/);
  const mailsBefore = stack.smtp.mailsTo(email).length;
  await page.getByTestId("email-input").fill(email);
  await page.getByTestId("request-code").click();
  const code = codeFrom(await stack.smtp.waitForMail(email, mailsBefore + 1));
  // the sixth digit sends the code: no press of "Verify"
  await page.getByTestId("code-input").fill(code);
  await page.waitForURL(`${stack.baseUrl}/`);
}
