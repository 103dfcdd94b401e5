/*
 * Brings a database to the current schema: graphile-worker's own schema first (our
 * functions queue jobs with graphile_worker.add_job), then our committed migrations.
 * Development and test databases also get the migration being written and the edited
 * function files (createDevelopmentDatabases).
 *
 *   deno task migrate                 # uses DATABASE_OWNER_URL, else DATABASE_URL
 * The app role the processes run as is made first when missing (sql/app_role.ts): the
 * migrations grant it what the processes use.
 * (Developers commit a migration with scripts/migrations.ts, the one commit entry point.)
 */
import { migrate, watch } from "graphile-migrate";
import { Logger, runMigrations } from "graphile-worker";
import postgres from "postgres";
import { allowAppRoleJobRows, APP_ROLE, appRolePassword, ensureAppRole } from "./app_role.ts";
import { applyFunctionFiles } from "./function_files.ts";
import { prepareServerForMigrations, UnsupportedPostgres } from "./pg_versions.ts";

const migrationsFolder = new URL("./migrations", import.meta.url).pathname;

/** graphile-migrate and graphile-worker share this logger shape; keep what matters. */
const logger = new Logger(() => (level, message) => {
  if (level !== "debug") console.error(`[migrate] ${message}`);
});

/**
 * Migrates as the owner (`connectionString`). `appUrl`, what the processes connect with,
 * gives the app role its password when it names that role (sql/app_role.ts).
 */
export async function migrateDatabase(connectionString: string, appUrl?: string) {
  if (decodeURIComponent(new URL(connectionString).username) === APP_ROLE) {
    throw new Error(`${APP_ROLE} may not change the schema: set DATABASE_OWNER_URL to the database owner's URL to migrate`);
  }
  // before anything is made: an unsupported server is refused here, naming its version
  const searchPath = await prepareServerForMigrations(connectionString);
  await ensureAppRole(connectionString, { password: appRolePassword(appUrl) });
  await runMigrations({ connectionString, logger: new Logger(() => () => {}) });
  await allowAppRoleJobRows(connectionString);
  await migrate({ connectionString, migrationsFolder, logger, ...(searchPath && { pgSettings: { search_path: searchPath } }) });
}

/**
 * The migration being written (sql/migrations/current/*.sql) on top of the committed ones, as
 * `graphile-migrate watch --once` runs it; once committed, current is empty and this does
 * nothing.
 */
async function applyCurrentMigration(connectionString: string) {
  await watch({ connectionString, migrationsFolder, logger }, true);
}

/** The database beside a development database that holds what the migrations alone make. */
export const migrationsOnly = (name: string) => `${name}_migrations`;

/**
 * Development, test and benchmark databases, created on the server of `adminUrl` (the
 * product's own databases, `npm start` and `deno task migrate`, run committed migrations only):
 *   - `<name>_migrations` (migrationsOnly): the committed migrations, then the one being
 *     written (sql/migrations/current/*.sql). sql/functions/ must equal its catalog once a
 *     change is committed (tests/sql/schema_files.test.ts), and the next commit starts here.
 *   - `<name>`: a copy of it, then every function of sql/functions/ whose definition differs
 *     from its catalog. The code runs on this one, so an edited function is tested before
 *     it is committed.
 * Answers both URLs and the function statements applied: what the next commit adds.
 */
export async function createDevelopmentDatabases(adminUrl: string, name: string, functionsDir?: string) {
  const migrationsUrl = await ensureDatabase(adminUrl, migrationsOnly(name));
  await migrateDatabase(migrationsUrl);
  await applyCurrentMigration(migrationsUrl);
  const url = await copyDatabase(adminUrl, migrationsOnly(name), name);
  const applied = await applyFunctionFiles(url, { functionsDir });
  return { url, migrationsUrl, applied };
}

/** `create database <to> template <from>`; answers the copy's URL. */
export async function copyDatabase(adminUrl: string, from: string, to: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    // graphile-migrate closes its pool ~200 ms after the migrations; until then the template is in use
    for (let attempt = 1;; attempt++) {
      try {
        await sql.unsafe(`create database ${quoteIdentifier(to)} template ${quoteIdentifier(from)}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt === 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await sql.end();
  }
  return databaseUrl(adminUrl, to);
}

/** Creates `name` on the server of `adminUrl` when missing; answers its URL. */
export async function ensureDatabase(adminUrl: string, name: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select 1 as present from pg_database where datname = ${name}`;
    if (!row) await sql.unsafe(`create database ${quoteIdentifier(name)}`);
  } finally {
    await sql.end();
  }
  return databaseUrl(adminUrl, name);
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

function databaseUrl(adminUrl: string, name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

if (import.meta.main) {
  const appUrl = Deno.env.get("DATABASE_URL")?.trim() || undefined;
  const ownerUrl = Deno.env.get("DATABASE_OWNER_URL")?.trim() || appUrl;
  if (!ownerUrl) {
    console.error("Set DATABASE_OWNER_URL (or DATABASE_URL) to the database to migrate, as its owner.");
    Deno.exit(2);
  }
  await migrateDatabase(ownerUrl, appUrl).catch((error) => {
    if (!(error instanceof UnsupportedPostgres)) throw error;
    console.error(error.message);
    Deno.exit(2);
  });
}
