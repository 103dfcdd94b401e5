/*
 * Brings a database to the current schema: graphile-worker's own schema first (our
 * functions queue jobs with graphile_worker.add_job), then our committed migrations.
 *
 *   deno task migrate                 # uses DATABASE_URL
 * (Developers commit a migration with scripts/migrations.ts, the one commit entry point.)
 */
import { migrate, watch } from "graphile-migrate";
import { Logger, runMigrations } from "graphile-worker";
import postgres from "postgres";

const migrationsFolder = new URL("./migrations", import.meta.url).pathname;

/** graphile-migrate and graphile-worker share this logger shape; keep what matters. */
const logger = new Logger(() => (level, message) => {
  if (level !== "debug") console.error(`[migrate] ${message}`);
});

export async function migrateDatabase(connectionString: string) {
  await runMigrations({ connectionString, logger: new Logger(() => () => {}) });
  await migrate({ connectionString, migrationsFolder, logger });
}

/**
 * Developers: runs the migration being written (sql/migrations/current/ or current.sql) on
 * top of the committed ones, as `graphile-migrate watch --once` does. The test run applies
 * it to its template database, so work in progress is tested before it is committed; once
 * committed, current is empty and this does nothing.
 */
export async function applyCurrentMigration(connectionString: string) {
  await watch({ connectionString, migrationsFolder, logger }, true);
}

/** Creates `name` on the server of `adminUrl` when missing; answers its URL. */
export async function ensureDatabase(adminUrl: string, name: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select 1 as present from pg_database where datname = ${name}`;
    if (!row) await sql.unsafe(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await sql.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

if (import.meta.main) {
  const url = Deno.env.get("DATABASE_URL");
  if (!url) {
    console.error("Set DATABASE_URL to the database to migrate.");
    Deno.exit(2);
  }
  await migrateDatabase(url);
}
