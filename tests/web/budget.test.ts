/*
 * The front-end budget, read from the Vite build the browser would load first:
 * initial JavaScript ≤ 170 kB and CSS ≤ 20 kB, gzipped. `npm test` builds web/dist first.
 */
import { expect, test } from "vitest";
import { CSS_BUDGET_BYTES, initialLoad, JS_BUDGET_BYTES } from "../../scripts/web_budget.ts";
import { ensureWebBuilt, WEB_DIST } from "../helpers/web.ts";

test("initial JavaScript and CSS stay within budget (gzipped)", async () => {
  await ensureWebBuilt();
  const { js, jsGzip, cssGzip } = await initialLoad(WEB_DIST);
  expect(js.length).toBeGreaterThan(0);
  console.log(`initial JS ${(jsGzip / 1024).toFixed(1)} kB gz (budget 170), CSS ${(cssGzip / 1024).toFixed(1)} kB gz (budget 20)`);
  expect(jsGzip).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  expect(cssGzip).toBeLessThanOrEqual(CSS_BUDGET_BYTES);
});
