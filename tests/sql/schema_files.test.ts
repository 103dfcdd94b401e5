/*
 * sql/functions/*.sql are the source of the functions, and sql/schema.sql says what the tables
 * are; once a change is committed both equal what the migrations make. Regenerated from a
 * database migrated with the committed migrations and sql/migrations/current/*.sql (the
 * function files not applied), they must equal the files on disk. An edited function, or a
 * migration committed some other way, fails here until `scripts/migrations.ts commit`.
 */
import { expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { readFunctionFiles } from "../../sql/function_files.ts";
import { areaOf, FUNCTION_AREAS, schemaFiles, unlistedFunction } from "../../sql/schema_files.ts";

const sqlDir = new URL("../../sql/", import.meta.url);
const COMMIT = 'run `npx deno run -A scripts/migrations.ts commit "what it does"`' +
  " (or `… schema` when only a function's layout changed)";

test("the function files and sql/schema.sql are what the migrations make", async () => {
  const files = await schemaFiles(await freshDatabase({ migrationsOnly: true }));
  const onDisk = [...Deno.readDirSync(new URL("functions/", sqlDir))].map((entry) => `functions/${entry.name}`);
  expect(onDisk.sort(), `the function files differ from the areas the migrations make: ${COMMIT}`)
    .toEqual([...files.keys()].filter((path) => path.startsWith("functions/")).sort());
  for (const [path, text] of files) {
    const file = await Deno.readTextFile(new URL(path, sqlDir));
    expect(file === text, `sql/${path} differs from what the migrations make: ${COMMIT}`).toBe(true);
  }
});

test("every function is in a file named for its area, and each is defined once", async () => {
  const statements = await readFunctionFiles();
  const names = statements.map((statement) => `${statement.schema}.${statement.name}`);
  expect(names.filter((name, i) => names.indexOf(name) !== i), "defined twice").toEqual([]);
  // FUNCTION_AREAS names every function once, and only functions that exist
  expect(statements.filter((s) => areaOf(s.name) === undefined).map((s) => unlistedFunction(s.name))).toEqual([]);
  const listed = Object.values(FUNCTION_AREAS).flat();
  expect(listed.filter((name, i) => listed.indexOf(name) !== i), "listed in two areas").toEqual([]);
  const defined = new Set(statements.map((s) => s.name));
  expect(listed.filter((name) => !defined.has(name)), "listed in FUNCTION_AREAS but defined in no file").toEqual([]);
  const misplaced = statements.filter((statement) => statement.file !== `${areaOf(statement.name)}.sql`);
  expect(misplaced.map((s) => `${s.name} is in ${s.file}; FUNCTION_AREAS puts it in ${areaOf(s.name)}.sql`)).toEqual([]);
  // the publishing rules read whole in one file
  const publish = await Deno.readTextFile(new URL("functions/posts_publish.sql", sqlDir));
  for (const fn of ["begin_sending", "record_published", "record_send_failed", "record_sent_part", "postpone_sending", "resolve_uncertain"]) {
    expect(publish, fn).toContain(`app_public.${fn}(`.replace("app_public.resolve_uncertain(", "app_private.resolve_uncertain("));
  }
});
