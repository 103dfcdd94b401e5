/*
 * PostgreSQL 15, 16, 17 and 18 are supported (docs/operating.md "Supported PostgreSQL versions"), as
 * managed services offer them; the embedded server is 18. An older server is refused before
 * anything is changed, naming its version.
 *
 * One committed migration needs help below 18: 000015 indexed
 * date_trunc('milliseconds', created_at, 'UTC'), and date_trunc with a zone is IMMUTABLE
 * only from 18 on ("functions in index expression must be marked IMMUTABLE" on 15–17).
 * Committed migrations are history (their hashes chain them) and stay as they are; instead,
 * while 000015 is still to run on such a server, the migrating connection finds an IMMUTABLE
 * date_trunc(text, timestamptz, text) of schema app_pg_compat first (an explicit pg_catalog
 * after it in search_path), which calls pg_catalog's. A later migration rebuilds the index
 * on an expression immutable on every version and drops that schema, so a database ends the
 * same on 15 as on 18.
 */
import postgres from "postgres";
import { unsupportedPostgresProblem } from "../core/startup_checks.ts";

const COMPAT_SCHEMA = "app_pg_compat";

/** The server is older than supported; the message names its version and what to do. */
export class UnsupportedPostgres extends Error {}

/** A committed migration that does not run below 18 without the compat schema. */
const NEEDS_COMPAT = "000015-";

/**
 * Refuses a server older than 15 (throws, naming its version); on 15–17, when 000015 is still
 * to run, installs the compat schema and answers the search_path the migrations must run
 * with. Answers undefined when the migrations need nothing special.
 */
export async function prepareServerForMigrations(connectionString: string): Promise<string | undefined> {
  const sql = postgres(connectionString, { max: 1, onnotice: () => {} });
  try {
    const [{ num, version, searchPath }] = await sql<{ num: string; version: string; searchPath: string }[]>`
      select current_setting('server_version_num') as num, current_setting('server_version') as version,
             current_setting('search_path') as "searchPath"`;
    const problem = unsupportedPostgresProblem(Number(num), version);
    if (problem) throw new UnsupportedPostgres(problem);
    if (Number(num) >= 180000) return undefined;
    const [{ pending }] = await sql<{ pending: boolean }[]>`
      select to_regclass('graphile_migrate.migrations') is null as pending`;
    if (!pending) {
      const [done] = await sql`select 1 from graphile_migrate.migrations where filename like ${NEEDS_COMPAT + "%"}`;
      if (done) return undefined;
    }
    await sql.unsafe(`
      create schema if not exists ${COMPAT_SCHEMA};
      comment on schema ${COMPAT_SCHEMA} is 'Lets migration 000015 run below PostgreSQL 18; a later migration drops it (sql/pg_versions.ts)';
      create or replace function ${COMPAT_SCHEMA}.date_trunc(text, timestamptz, text) returns timestamptz
        language sql immutable strict parallel safe
        return pg_catalog.date_trunc($1, $2, $3);`);
    // the role's own path stays first, so unqualified objects are still created where they were
    const kept = searchPath.split(",").map((part) => part.trim()).filter((part) => part && part !== "pg_catalog");
    return [...kept, COMPAT_SCHEMA, "pg_catalog"].join(", ");
  } finally {
    await sql.end();
  }
}
