/*
 * Developers' helper for graphile-migrate against a throwaway embedded PostgreSQL:
 *   deno run -A scripts/migrations.ts commit "What it does"   # current.sql → committed/
 *   deno run -A scripts/migrations.ts uncommit   # the last committed migration → current/
 *   deno run -A scripts/migrations.ts schema     # regenerate sql/functions/*.sql and sql/schema.sql
 * commit and uncommit regenerate those files too (sql/schema_files.ts).
 * (Apply migrations to a real database with `deno task migrate`.)
 */
import { commit, uncommit } from "graphile-migrate";
import { runMigrations } from "graphile-worker";
import { ensureDatabase, migrateDatabase } from "../sql/migrate.ts";
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
  if (action === "commit") await commit(settings, message);
  else if (action === "uncommit") await uncommit(settings);
  // the committed migrations only: what a reader of sql/functions/ should see
  const committed = await ensureDatabase(pg.adminUrl, "pressa_schema");
  await migrateDatabase(committed);
  for (const path of await writeSchemaFiles(committed)) console.error(`wrote sql/${path}`);
} finally {
  await pg.stop();
  await Deno.remove(dir, { recursive: true });
}
