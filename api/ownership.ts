import type { Sql } from "../core/db.ts";

/**
 * A project's list answered by a SQL function that filters by owner: an empty list may
 * mean "not yours", so it is checked to be the user's own project (NTFND → 404 otherwise).
 * A non-empty list proves ownership already, at no extra query.
 */
export async function ownProjectList<T>(sql: Sql, userId: number, projectId: number, rows: T[]): Promise<T[]> {
  if (rows.length === 0) await sql`select app_public.get_project(${userId}, ${projectId})`;
  return rows;
}
