/*
 * What the browser downloads first from the Vite build (web/dist/index.html: its entry
 * script, the modules it preloads, its stylesheets), gzipped. Read by the budget test and
 * printed by `npm run bench:web`.
 */
import { gzipSync } from "node:zlib";
import { join } from "node:path";

export const JS_BUDGET_BYTES = 170 * 1024;
export const CSS_BUDGET_BYTES = 20 * 1024;

export type Asset = { file: string; bytes: number; gzipBytes: number };

async function asset(dist: string, file: string): Promise<Asset> {
  const bytes = await Deno.readFile(join(dist, file));
  return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
}

export async function initialLoad(dist: string): Promise<{ js: Asset[]; css: Asset[]; jsGzip: number; cssGzip: number }> {
  const html = await Deno.readTextFile(join(dist, "index.html"));
  const refs = (pattern: RegExp) => [...new Set([...html.matchAll(pattern)].map((m) => m[1].replace(/^\//, "")))];
  const js = await Promise.all([
    ...refs(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...refs(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((file) => asset(dist, file)));
  const css = await Promise.all(refs(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g).map((file) => asset(dist, file)));
  const sum = (list: Asset[]) => list.reduce((total, a) => total + a.gzipBytes, 0);
  return { js, css, jsGzip: sum(js), cssGzip: sum(css) };
}

/** Every other chunk (pages, dialogs, dictionaries), loaded when first needed. */
export async function lazyAssets(dist: string, initial: Asset[]): Promise<Asset[]> {
  const skip = new Set(initial.map((a) => a.file));
  const files: string[] = [];
  for await (const entry of Deno.readDir(join(dist, "assets"))) {
    const file = `assets/${entry.name}`;
    if (entry.isFile && /\.(js|css)$/.test(entry.name) && !skip.has(file)) files.push(file);
  }
  return Promise.all(files.map((file) => asset(dist, file)));
}
