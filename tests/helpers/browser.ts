/*
 * Real Chromium from Debian driven by playwright-core; never a browser download. Flags: the
 * machine has no network beyond loopback, so background services that phone home are
 * switched off.
 */
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { CHROMIUM_HEADLESS } from "../../scripts/chromium.ts";

/** Chromium's headless build (scripts/chromium.ts), or the binary PRESSA_TEST_CHROMIUM names, e.g. /usr/bin/chromium. */
export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: Deno.env.get("PRESSA_TEST_CHROMIUM") || CHROMIUM_HEADLESS,
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

/**
 * Whether this run keeps pictures (`PRESSA_SCREENSHOTS=1 npm test -- tests/browser/x.test.ts`).
 * Off by default: a full-page picture costs Chromium 0.2-0.7 CPU-seconds, and the suite took
 * about 200 of them that nobody looked at (docs/test-time.md).
 */
export const screenshotsWanted = () => Deno.env.get("PRESSA_SCREENSHOTS") === "1";

/**
 * Saves a picture under .test-results/screenshots for people to look at, when asked for: of
 * the whole page (or only what the window shows, `fullPage: false`), or of one element.
 */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}) {
  if (!screenshotsWanted()) return;
  const dir = new URL("../../.test-results/screenshots/", import.meta.url).pathname;
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}${name}.png`;
  if ("goto" in target) await target.screenshot({ path, fullPage: options.fullPage ?? true });
  else await target.screenshot({ path });
}
