/*
 * Image upload (multipart field `image`) and serving. The 10 MB limit is enforced while
 * the body streams in (api/app.ts limits every multipart body), so a huge upload is cut
 * off early instead of being buffered; the type and size come from the bytes (core/images.ts).
 */
import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { requireUser } from "../middleware/session.ts";
import { isStorageKey } from "../../core/storage.ts";
import { parseMultipart, readImageField, storeUpload } from "../multipart.ts";
import { idParam } from "../validate.ts";

export function projectUploadRoutes(deps: ApiDeps) {
  const { sql } = deps;
  return new Hono<AppEnv>()
    .use(requireUser)
    .post("/", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      // ownership before reading the body: a stranger's upload is refused without storing
      await sql`select app_public.get_project(${currentUser(c).id}, ${projectId})`;
      const image = await readImageField(await parseMultipart(c.req.raw), "image");
      const imageUrl = await storeUpload(deps, currentUser(c).id, projectId, image);
      return c.json({ imageUrl, width: image.info.width, height: image.info.height }, 201);
    });
}

/**
 * Uploads are private: a file is served only to the account it belongs to (and a bug
 * report's screenshot to admins); anyone else gets the same 404 as for a key that does not
 * exist. The bytes behind a key never change, so the owner's browser may keep them.
 */
export function uploadServingRoutes({ sql, storage }: ApiDeps) {
  return new Hono<AppEnv>().get("/:key", async (c) => {
    const key = c.req.param("key");
    const user = c.get("user");
    // signed out is "anyone else" too: the same 404, so a URL tells nothing about its file
    if (!isStorageKey(key) || !user) throw new ApiError("notFound");
    const [readable] = await sql<{ contentType: string | null }[]>`
      select app_public.readable_upload(${user.id}, ${key}, ${c.get("apiToken")?.projectId ?? null}) as content_type`;
    if (!readable?.contentType) throw new ApiError("notFound");
    const file = await storage.get(key);
    if (!file) throw new ApiError("notFound");
    return c.body(file.bytes, 200, {
      "Content-Type": file.contentType,
      "Cache-Control": "private, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
