import { inject } from "vitest";
import { appRoleUrl } from "../../sql/app_role.ts";
import { copyDatabase, migrationsOnly } from "../../sql/migrate.ts";
import { TEMPLATE_DATABASE } from "../global_setup.ts";

/**
 * A new database with the full schema, copied from the run's migrated template; with
 * `migrationsOnly`, from its copy without the edited function files applied (what the
 * migrations alone make: createDevelopmentDatabases).
 */
export async function freshDatabase(options: { migrationsOnly?: boolean } = {}): Promise<string> {
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const template = options.migrationsOnly ? migrationsOnly(TEMPLATE_DATABASE) : TEMPLATE_DATABASE;
  return await copyDatabase(inject("pgAdminUrl"), template, name);
}

/**
 * The database of `ownerUrl` as the app role: what the API, the worker and the bot connect
 * with, so every test that runs them proves the role's grants suffice.
 */
export function asAppRole(ownerUrl: string): string {
  return appRoleUrl(ownerUrl, inject("pgAppPassword"));
}
