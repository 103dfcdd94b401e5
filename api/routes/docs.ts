/*
 * The API reference's renderer (docs/api.md "The OpenAPI document"): Swagger UI's own built
 * files, served as they come in the npm package, for the SPA's /api-docs page to load when it
 * opens (never before). Two files, named here: nothing else of node_modules is reachable.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../../core/errors.ts";

const FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

export function docsRoutes() {
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  return new Hono<AppEnv>().get("/assets/:file", async (c) => {
    const file = c.req.param("file");
    const type = FILES[file];
    if (!type) throw new ApiError("notFound");
    let bytes = cache.get(file);
    if (!bytes) {
      bytes = await Deno.readFile(new URL(`../../node_modules/swagger-ui-dist/${file}`, import.meta.url)) as Uint8Array<ArrayBuffer>;
      cache.set(file, bytes);
    }
    return c.body(bytes, 200, { "content-type": type, "cache-control": "public, max-age=86400" });
  });
}
