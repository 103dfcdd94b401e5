/*
 * Serves the built SPA: hashed assets with long cache headers, and index.html (never
 * cached) for every other non-API path so client-side routes survive a reload.
 */
import type { Context } from "hono";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

export function serveSpa(distDir: string) {
  return async (c: Context) => {
    const path = normalize(decodeURIComponent(c.req.path)).replace(/^(\.\.[/\\])+/, "");
    const file = join(distDir, path);
    if (file.startsWith(distDir) && path !== "/") {
      try {
        const data = await Deno.readFile(file);
        const immutable = path.startsWith("/assets/");
        return c.body(data, 200, {
          "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
          "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        });
      } catch { /* not a file: fall through to the SPA */ }
    }
    try {
      const html = await Deno.readTextFile(join(distDir, "index.html"));
      return c.html(html, 200, { "Cache-Control": "no-cache" });
    } catch {
      return c.text("The web app is not built yet: run `npm run build`.", 503);
    }
  };
}
