/*
 * Images sent as multipart form data (an upload, a bug report's screenshot): the form read,
 * the image checked (size, type, dimensions), and stored against the account's quota.
 */
import { IMAGE_MAX_BYTES } from "../contract/limits.ts";
import type { ApiDeps } from "./deps.ts";
import { ApiError } from "../core/errors.ts";
import { acceptableDimensions, inspectImage } from "../core/images.ts";
import { newStorageKey } from "../core/storage.ts";

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
