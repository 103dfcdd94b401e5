/*
 * The front-end budget, read from the Vite build the browser would load first
 * (web/dist/index.html: its entry script, the modules it preloads, its stylesheets):
 * initial JavaScript ≤ 170 kB and CSS ≤ 20 kB, gzipped. `npm test` builds web/dist first.
 */
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ensureWebBuilt, WEB_DIST } from "../helpers/web.ts";

const JS_BUDGET = 170 * 1024;
const CSS_BUDGET = 20 * 1024;

test("initial JavaScript and CSS stay within budget (gzipped)", async () => {
  await ensureWebBuilt();
  const html = await Deno.readTextFile(join(WEB_DIST, "index.html"));
  const refs = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]);
  const js = [
    ...refs(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...refs(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ];
  const css = refs(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g);
  expect(js.length).toBeGreaterThan(0);
  const gz = async (files: string[]) => {
    let total = 0;
    for (const file of new Set(files)) total += gzipSync(await Deno.readFile(join(WEB_DIST, file))).length;
    return total;
  };
  const jsBytes = await gz(js);
  const cssBytes = await gz(css);
  console.log(`initial JS ${(jsBytes / 1024).toFixed(1)} kB gz (budget 170), CSS ${(cssBytes / 1024).toFixed(1)} kB gz (budget 20)`);
  expect(jsBytes).toBeLessThanOrEqual(JS_BUDGET);
  expect(cssBytes).toBeLessThanOrEqual(CSS_BUDGET);
});
