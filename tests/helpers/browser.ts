/*
 * Real Chromium (Debian's /usr/bin/chromium) driven by playwright-core; never a browser
 * download. Flags: the machine has no network beyond loopback, so background services
 * that phone home are switched off.
 */
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Saves a screenshot under .test-results/screenshots for people to look at. */
export async function screenshot(page: Page, name: string) {
  const dir = new URL("../../.test-results/screenshots/", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  await page.screenshot({ path: `${dir}${name}.png`, fullPage: true });
}
