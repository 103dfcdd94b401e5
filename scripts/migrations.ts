/*
 * Developers' helper for graphile-migrate against a throwaway embedded PostgreSQL:
 *   deno run -A scripts/migrations.ts commit "What it does"   # the next file in committed/
 *   deno run -A scripts/migrations.ts uncommit   # the last committed migration → current/
 *                                                # (its functions part stays in sql/functions/)
 *   deno run -A scripts/migrations.ts schema     # rewrite sql/functions/*.sql and sql/schema.sql
 * The new migration is sql/migrations/current/*.sql followed by every function of
 * sql/functions/ whose definition differs from what the migrations make (sql/function_files.ts).
 * Each action then rewrites sql/functions/*.sql (in pg_get_functiondef's form, one file per
 * area: sql/schema_files.ts) and sql/schema.sql from the resulting catalog.
 * (Apply migrations to a real database with `deno task migrate`.)
 */
import { commit, uncommit } from "graphile-migrate";
import { runMigrations } from "graphile-worker";
import { CURRENT_MIGRATION_DIR, functionsMigration, splitStatements } from "../sql/function_files.ts";
import { createDevelopmentDatabases, ensureDatabase, migrateDatabase } from "../sql/migrate.ts";
import { writeSchemaFiles } from "../sql/schema_files.ts";
import { startEmbeddedPostgres } from "./postgres.ts";

const action = Deno.args[0];
const message = Deno.args[1];
if (action === "worker-schema") {
  // graphile-migrate's hook after it resets the shadow database: our migrations queue jobs
  // with graphile_worker functions, so that schema comes first there too (as in sql/migrate.ts).
  await runMigrations({ connectionString: Deno.env.get("GM_DBURL")! });
  Deno.exit(0);
}
if (!(action === "commit" && message) && action !== "uncommit" && action !== "schema") {
  console.error('usage: scripts/migrations.ts commit "message" | uncommit | schema');
  Deno.exit(2);
}
const currentMigrationFiles = () =>
  [...Deno.readDirSync(CURRENT_MIGRATION_DIR)].map((entry) => entry.name).filter((name) => name.endsWith(".sql"));

const dir = await Deno.makeTempDir({ prefix: "pressa-migrations-" });
await Deno.chmod(dir, 0o755); // reachable by the postgres system user when run as root
const pg = await startEmbeddedPostgres(dir);
try {
  const connectionString = await ensureDatabase(pg.adminUrl, "pressa_dev");
  const shadow = new URL(pg.adminUrl);
  shadow.pathname = "/pressa_dev_shadow";
  await runMigrations({ connectionString });
  const settings = {
    connectionString,
    shadowConnectionString: shadow.toString(),
    rootConnectionString: pg.adminUrl,
    migrationsFolder: new URL("../sql/migrations", import.meta.url).pathname,
    afterReset: [{ _: "command" as const, command: `"${Deno.execPath()}" run -A "${new URL(import.meta.url).pathname}" worker-schema` }],
  };
  if (action === "commit") {
    const { applied } = await createDevelopmentDatabases(pg.adminUrl, "pressa_changes");
    for (const statement of applied) console.error(`changed: ${statement.schema}.${statement.name} (sql/functions/${statement.file})`);
    // graphile-migrate commits the files of current/ in number order: the functions come last;
    // files holding only comments ("-- Enter migration here") stay out of the history
    const names = currentMigrationFiles();
    const blank = new Map<string, string>();
    for (const name of names) {
      const text = await Deno.readTextFile(CURRENT_MIGRATION_DIR + name);
      if (splitStatements(text).length === 0) blank.set(name, text);
    }
    const functionsFile = `${Math.max(0, ...names.map((name) => parseInt(name, 10) || 0)) + 1}-sql-functions.sql`;
    if (applied.length > 0) {
      await Deno.writeTextFile(CURRENT_MIGRATION_DIR + functionsFile, functionsMigration(applied));
      for (const name of blank.keys()) await Deno.remove(CURRENT_MIGRATION_DIR + name);
    }
    try {
      await commit(settings, message);
    } finally {
      // committed: graphile-migrate emptied current/; refused: it restored current/, this file included
      await Deno.remove(CURRENT_MIGRATION_DIR + functionsFile).catch(() => {});
      const left = currentMigrationFiles();
      for (const [name, text] of blank) if (!left.includes(name)) await Deno.writeTextFile(CURRENT_MIGRATION_DIR + name, text);
    }
  } else if (action === "uncommit") {
    await migrateDatabase(connectionString); // uncommit deletes the migration's row there
    await uncommit(settings);
    // the functions part is what sql/functions/ already says: back to edits not yet committed
    for (const name of currentMigrationFiles()) {
      if (/^\d+-sql-functions\.sql$/.test(name)) await Deno.remove(CURRENT_MIGRATION_DIR + name);
    }
    if (currentMigrationFiles().length === 0) {
      await Deno.writeTextFile(`${CURRENT_MIGRATION_DIR}1-current.sql`, "-- Enter migration here\n");
    }
  }
  // the migrations, then the function files (no difference left after a commit)
  const { url } = await createDevelopmentDatabases(pg.adminUrl, "pressa_schema");
  for (const path of await writeSchemaFiles(url)) console.error(`wrote sql/${path}`);
} finally {
  // graphile-migrate ends this process if the server closes its pool, which it keeps 200 ms
  // after use: stopping sooner would hide the error being thrown
  await new Promise((resolve) => setTimeout(resolve, 250));
  await pg.stop();
  await Deno.remove(dir, { recursive: true });
}
