/*
 * Image upload (multipart field `image`) and serving. The 10 MB limit is enforced while
 * the body streams in (api/app.ts limits every multipart body), so a huge upload is cut
 * off early instead of being buffered; the type and size come from the bytes (core/images.ts).
 */
import { Hono } from "hono";
import { IMAGE_MAX_BYTES } from "../../contract/limits.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { acceptableDimensions, inspectImage } from "../../core/images.ts";
import { requireUser } from "../middleware/session.ts";
import { isStorageKey, newStorageKey } from "../../core/storage.ts";
import { idParam } from "../validate.ts";

const tooBig = () => new ApiError("drafts.imageTooBig");
const invalid = () => new ApiError("drafts.invalidImageType");

/** Reads and checks the `field` image of a multipart request; answers its bytes and info. */
export async function readImageField(form: FormData, field: string) {
  const file = form.get(field);
  if (!(file instanceof File)) throw invalid();
  if (file.size > IMAGE_MAX_BYTES) throw tooBig();
  const bytes = new Uint8Array(await file.arrayBuffer());
  const info = inspectImage(bytes);
  if (!info || !acceptableDimensions(info)) throw invalid();
  return { bytes, info };
}

export async function parseMultipart(req: Request | { formData(): Promise<FormData> }) {
  try {
    return await req.formData();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError("request.notMultipart");
  }
}

/**
 * Stores a checked image for the user (in a project of theirs, or for a bug report when
 * projectId is null); answers its URL. The upload is recorded first, which counts it
 * against the account's storage quota (409 uploads.quotaReached) before any byte is
 * written; a file that cannot be stored is forgotten again.
 */
export async function storeUpload(
  { sql, storage, config }: Pick<ApiDeps, "sql" | "storage" | "config">,
  userId: number,
  projectId: number | null,
  { bytes, info }: Awaited<ReturnType<typeof readImageField>>,
) {
  const key = newStorageKey(info.type);
  await sql`select app_public.record_upload(${userId}, ${projectId}, ${key}, ${info.contentType}, ${bytes.length},
    ${config.limits.uploadBytesPerAccount})`;
  try {
    await storage.put(key, bytes, info.contentType);
  } catch (err) {
    await sql`select app_public.forget_upload(${key})`;
    throw err;
  }
  return `/api/uploads/${key}`;
}

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
      select app_public.readable_upload(${user.id}, ${key}) as content_type`;
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
