/*
 * Serves the built SPA: hashed assets with long cache headers, and index.html (never
 * cached) for every other non-API path so client-side routes survive a reload. Every
 * answer carries the Content-Security-Policy below (app.ts adds nosniff, Referrer-Policy
 * and the other secure headers to every response).
 */
import type { Context } from "hono";
import { extname, join, normalize } from "node:path";
import { ApiError } from "../core/errors.ts";
import { answer } from "./errors.ts";

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

/**
 * What the built SPA needs and nothing more. Scripts: only our own files (Vite emits no
 * inline script; no eval). Styles: our CSS files plus inline <style> elements, which
 * Mantine injects at run time (its CSS variables and responsive style props), hence
 * 'unsafe-inline' for styles only. Images: our own (uploads are /api/uploads/…) and blob:
 * for the preview of a picked file (ImageField, BugReportDialog, lib/imageFile.ts); the app
 * uses no data: URLs. Requests go only to our own API. Nobody may frame the app.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS = { "Content-Security-Policy": CONTENT_SECURITY_POLICY };

/** The path as a file path: percent-escapes decoded once; undefined when one is malformed. */
function decodedPath(url: string): string | undefined {
  try {
    // the URL parser has already resolved dot segments, %2e%2e included
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return undefined;
  }
}

export function serveSpa(distDir: string) {
  return async (c: Context) => {
    const decoded = decodedPath(c.req.url);
    if (decoded === undefined || decoded.includes("\0")) {
      return answer(c, new ApiError("request.malformedAddress"), HEADERS);
    }
    const path = normalize(decoded).replace(/^(\.\.[/\\])+/, "");
    const file = join(distDir, path);
    if (file.startsWith(distDir) && path !== "/") {
      try {
        const data = await Deno.readFile(file);
        const immutable = path.startsWith("/assets/");
        return c.body(data, 200, {
          ...HEADERS,
          "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
          "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        });
      } catch { /* not a file: fall through to the SPA */ }
    }
    try {
      const html = await Deno.readTextFile(join(distDir, "index.html"));
      return c.html(html, 200, { ...HEADERS, "Cache-Control": "no-cache" });
    } catch {
      return c.text("The web app is not built yet: run `npm run build`.", 503, HEADERS);
    }
  };
}
