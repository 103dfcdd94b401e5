/*
 * `npm run bench:web`: the front-end budget in figures. Builds the SPA when its sources are
 * newer than web/dist, then prints what the first load downloads (gzipped) against the
 * budget (JS ≤ 170 kB, CSS ≤ 20 kB) and the largest chunks loaded later.
 */
import { buildWebIfStale } from "../scripts/web_build.ts";
import { type Asset, CSS_BUDGET_BYTES, initialLoad, JS_BUDGET_BYTES, lazyAssets } from "../scripts/web_budget.ts";

const root = new URL("..", import.meta.url).pathname;
const dist = `${root}web/dist`;
await buildWebIfStale(root, (_level, message) => console.log(message));

const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(8);
const line = (a: Asset) => console.log(a.file.padEnd(52), kb(a.bytes), kb(a.gzipBytes));
const first = await initialLoad(dist);
console.log(`\nFirst load (web/dist/index.html)`.padEnd(53), "kB".padStart(8), "kB gz".padStart(8));
for (const a of [...first.js, ...first.css].sort((x, y) => y.gzipBytes - x.gzipBytes)) line(a);
const verdict = (bytes: number, budget: number) => `${kb(bytes).trim()} kB gz of ${budget / 1024} kB (${((bytes / budget) * 100).toFixed(0)}%)`;
console.log(`\nJavaScript: ${verdict(first.jsGzip, JS_BUDGET_BYTES)}`);
console.log(`CSS:        ${verdict(first.cssGzip, CSS_BUDGET_BYTES)}`);

const later = (await lazyAssets(dist, [...first.js, ...first.css])).sort((x, y) => y.gzipBytes - x.gzipBytes);
console.log(`\nLoaded when needed: ${later.length} chunks, ${kb(later.reduce((t, a) => t + a.gzipBytes, 0)).trim()} kB gz in all; the largest:`);
for (const a of later.slice(0, 10)) line(a);
if (first.jsGzip > JS_BUDGET_BYTES || first.cssGzip > CSS_BUDGET_BYTES) Deno.exitCode = 1;
