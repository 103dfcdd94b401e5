/*
 * Where uploaded files live: a folder under DATA_DIR/uploads by default, Google Cloud
 * Storage when GCS_BUCKET is set. Both sit behind this small interface.
 */
import { join } from "node:path";

export type StoredFile = { bytes: Uint8Array<ArrayBuffer>; contentType: string };

export interface FileStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{16,64}\.(png|jpg|webp|gif)$/;
const TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif" };

export function isStorageKey(key: string) {
  return KEY.test(key);
}

export function newStorageKey(extension: string) {
  const random = crypto.getRandomValues(new Uint8Array(18));
  return `${btoa(String.fromCharCode(...random)).replaceAll("+", "-").replaceAll("/", "_")}.${extension}`;
}

export function localDiskStorage(dir: string): FileStorage {
  const path = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`bad storage key ${key}`);
    return join(dir, key);
  };
  return {
    async put(key, bytes) {
      await Deno.mkdir(dir, { recursive: true });
      const tmp = `${path(key)}.tmp`;
      await Deno.writeFile(tmp, bytes);
      await Deno.rename(tmp, path(key));
    },
    async get(key) {
      try {
        const bytes = await Deno.readFile(path(key));
        return { bytes, contentType: TYPES[key.split(".").pop()!] };
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) return null;
        throw err;
      }
    },
    async delete(key) {
      await Deno.remove(path(key)).catch((err) => {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      });
    },
  };
}

/** Google Cloud Storage with the standard Google credentials of the environment. */
export async function gcsStorage(bucketName: string): Promise<FileStorage> {
  const { Storage } = await import("@google-cloud/storage");
  const bucket = new Storage().bucket(bucketName);
  return {
    async put(key, bytes, contentType) {
      await bucket.file(key).save(bytes, { contentType, resumable: false });
    },
    async get(key) {
      const file = bucket.file(key);
      try {
        const [bytes] = await file.download();
        return { bytes: new Uint8Array(bytes), contentType: TYPES[key.split(".").pop()!] };
      } catch (err) {
        if ((err as { code?: number }).code === 404) return null;
        throw err;
      }
    },
    async delete(key) {
      await bucket.file(key).delete({ ignoreNotFound: true });
    },
  };
}

export function createStorage(config: { gcsBucket?: string; dataDir: string }): Promise<FileStorage> {
  return config.gcsBucket ? gcsStorage(config.gcsBucket) : Promise.resolve(localDiskStorage(join(config.dataDir, "uploads")));
}
