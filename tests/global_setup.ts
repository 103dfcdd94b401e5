/*
 * One embedded PostgreSQL for the whole run, in a fresh folder. A template database is
 * migrated once (committed migrations, the one being written, then the edited functions of
 * sql/functions/: createDevelopmentDatabases); every test file then gets its own database
 * copied from it (tests/helpers/db.ts), so files run in parallel without seeing each
 * other's rows or jobs. The app role (sql/app_role.ts) can log in with the cluster's
 * app password, so the app, the worker and the bot of every test run as it.
 */
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../scripts/postgres.ts";
import { ensureAppRole } from "../sql/app_role.ts";
import { createDevelopmentDatabases } from "../sql/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgAppPassword: string;
  }
}

export const TEMPLATE_DATABASE = "pressa_template";

export default async function setup(project: TestProject) {
  const dir = await Deno.makeTempDir({ prefix: "pressa-test-" });
  await Deno.chmod(dir, 0o755); // reachable by the postgres system user when run as root
  const pg = await startEmbeddedPostgres(dir, () => {});
  await ensureAppRole(pg.adminUrl, { password: pg.appPassword });
  await createDevelopmentDatabases(pg.adminUrl, TEMPLATE_DATABASE);
  project.provide("pgAdminUrl", pg.adminUrl);
  project.provide("pgAppPassword", pg.appPassword);
  return async () => {
    await pg.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
}
