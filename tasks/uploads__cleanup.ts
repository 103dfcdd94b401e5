/*
 * Removes uploaded files that no draft, post or bug report refers to any more (a replaced
 * or removed image, a deleted draft), after a day's grace so an image uploaded in an open
 * edit dialog is not taken before the draft is saved. The rows are forgotten and the files
 * deleted in one transaction: if a file cannot be deleted, its row comes back for next time.
 */
import type { Task } from "graphile-worker";
import type { Sql } from "../core/db.ts";
import type { FileStorage } from "../core/storage.ts";

export function cleanupUploads(sql: Sql, storage: FileStorage): Task {
  return async (_payload, helpers) => {
    const removed = await sql.begin(async (tx) => {
      const rows = await tx<{ key: string }[]>`select k as key from app_public.take_orphan_uploads('1 day') as k`;
      for (const { key } of rows) await storage.delete(key);
      return rows.length;
    });
    if (removed > 0) helpers.logger.info(`removed ${removed} orphaned upload(s)`);
  };
}
