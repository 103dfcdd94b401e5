/*
 * One embedded PostgreSQL for the whole run, in a fresh folder. A template database is
 * migrated once (committed migrations, the one being written, then the edited functions of
 * sql/functions/: createDevelopmentDatabases); every test file then gets its own database
 * copied from it (tests/helpers/db.ts), so files run in parallel without seeing each
 * other's rows or jobs. The app role (sql/app_role.ts) can log in with the cluster's
 * app password, so the app, the worker and the bot of every test run as it.
 */
import postgres from "postgres";
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
  await checkServerMajor(pg.adminUrl);
  await ensureAppRole(pg.adminUrl, { password: pg.appPassword });
  await createDevelopmentDatabases(pg.adminUrl, TEMPLATE_DATABASE);
  project.provide("pgAdminUrl", pg.adminUrl);
  project.provide("pgAppPassword", pg.appPassword);
  return async () => {
    await pg.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
}

/**
 * A run asked for another PostgreSQL major (`npm run test:pg15`) says which server it got, and
 * stops when that is not the major asked for: a pass named pg15 must have run on 15.
 */
async function checkServerMajor(adminUrl: string) {
  const wanted = Deno.env.get("PRESSA_TEST_PG_MAJOR")?.trim();
  if (!wanted && !Deno.env.get("PRESSA_PG_BIN_DIR")?.trim()) return;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [{ version, num }] = await sql<{ version: string; num: string }[]>`
      select current_setting('server_version') as version, current_setting('server_version_num') as num`;
    if (wanted && Math.floor(Number(num) / 10000) !== Number(wanted)) {
      throw new Error(`PRESSA_TEST_PG_MAJOR=${wanted}, but the server started is PostgreSQL ${version} (PRESSA_PG_BIN_DIR?)`);
    }
    console.error(`The tests run on PostgreSQL ${version}`);
  } finally {
    await sql.end();
  }
}
