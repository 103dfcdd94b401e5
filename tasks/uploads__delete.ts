/*
 * Deletes the files of uploads whose rows are gone with their project (delete_project).
 * Their URLs answered 404 from the moment the rows went; this frees the storage. A file
 * already gone counts as deleted; a failure retries the job (every deletion repeats safely).
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { FileStorage } from "../core/storage.ts";
import { isStorageKey } from "../core/storage.ts";

const Payload = v.object({ keys: v.array(v.string()) });

export function deleteUploads(storage: FileStorage): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("uploads__delete: malformed payload, dropped");
    const keys = parsed.output.keys.filter(isStorageKey);
    for (const key of keys) await storage.delete(key);
    helpers.logger.info(`deleted ${keys.length} file(s) of a deleted project`);
  };
}
