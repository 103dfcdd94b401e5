/*
 * Image upload (multipart field `image`) and serving. The 10 MB limit is enforced while
 * the body streams in (api/app.ts limits every multipart body), so a huge upload is cut
 * off early instead of being buffered; the type and size come from the bytes (api/images.ts).
 */
import { Hono } from "hono";
import { IMAGE_MAX_BYTES } from "../contract/limits.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { ApiError } from "../errors.ts";
import { acceptableDimensions, inspectImage } from "../images.ts";
import { requireUser } from "../middleware/session.ts";
import { isStorageKey, newStorageKey } from "../storage.ts";
import { idParam } from "../validate.ts";

const tooBig = () => new ApiError(413, "drafts.imageTooBig", "drafts.imageTooBig");
const invalid = () => new ApiError(400, "drafts.invalidImageType", "drafts.invalidImageType");

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
    throw new ApiError(400, "badRequest", "Expected a multipart/form-data body");
  }
}

export function projectUploadRoutes({ sql, storage }: ApiDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .post("/", async (c) => {
      const projectId = idParam(c.req.param("projectId"));
      // ownership before reading the body: a stranger's upload is refused without storing
      await sql`select app_public.get_project(${currentUser(c).id}, ${projectId})`;
      const { bytes, info } = await readImageField(await parseMultipart(c.req.raw), "image");
      const key = newStorageKey(info.type);
      await storage.put(key, bytes, info.contentType);
      await sql`select app_public.record_upload(${currentUser(c).id}, ${projectId}, ${key}, ${info.contentType}, ${bytes.length})`;
      return c.json({ imageUrl: `/api/uploads/${key}`, width: info.width, height: info.height }, 201);
    });
}

export function uploadServingRoutes({ storage }: ApiDeps) {
  return new Hono<AppEnv>().get("/:key", async (c) => {
    const key = c.req.param("key");
    if (!isStorageKey(key)) throw new ApiError(404, "notFound", "Not found");
    const file = await storage.get(key);
    if (!file) throw new ApiError(404, "notFound", "Not found");
    return c.body(file.bytes, 200, {
      "Content-Type": file.contentType,
      // keys are random and never reused, so the bytes behind a URL never change
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
