/*
 * sql/functions/*.sql as the source of the functions (sql/function_files.ts), proven on
 * throwaway databases migrated without the files and on temporary copies of the files made
 * from their catalog: the repository's own files are read by nothing here.
 */
import postgres from "postgres";
import { beforeAll, expect, test } from "vitest";
import { applyFunctionFiles, functionsMigration, splitStatements } from "../../sql/function_files.ts";
import { schemaFiles } from "../../sql/schema_files.ts";
import { freshDatabase } from "../helpers/db.ts";

/** sql/functions/ as the migrations make it, by file name. */
let catalogFiles: Map<string, string>;
beforeAll(async () => {
  const files = await schemaFiles(await freshDatabase({ migrationsOnly: true }));
  catalogFiles = new Map([...files].filter(([path]) => path.startsWith("functions/")).map(([path, text]) => [path.slice("functions/".length), text]));
});

/** A database as the migrations make it, and a copy of its function files after `edit`. */
async function setUp(edit: (files: Map<string, string>) => void, currentMigration = "") {
  const files = new Map(catalogFiles);
  edit(files);
  const functionsDir = await Deno.makeTempDir({ prefix: "pressa-functions-" });
  for (const [name, text] of files) await Deno.writeTextFile(`${functionsDir}/${name}`, text);
  const currentMigrationDir = await Deno.makeTempDir({ prefix: "pressa-current-" });
  await Deno.writeTextFile(`${currentMigrationDir}/1-current.sql`, currentMigration);
  const url = await freshDatabase({ migrationsOnly: true });
  return { url, apply: () => applyFunctionFiles(url, { functionsDir, currentMigrationDir }) };
}

const replaceIn = (files: Map<string, string>, file: string, from: string, to: string) => {
  expect(files.get(file), file).toContain(from);
  files.set(file, files.get(file)!.replace(from, to));
};

async function definition(url: string, fn: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql`select pg_get_functiondef(${fn}::regproc) as d`)[0].d as string;
  } finally {
    await sql.end();
  }
}

test("an edited function is found, applied, and is all the next migration's functions part holds", async () => {
  const { url, apply } = await setUp((files) => {
    replaceIn(files, "common.sql", "/* why: updated_at must move", "/* why (edited): updated_at must move");
    // written differently but equal in PostgreSQL's normal form: not a change
    replaceIn(files, "series.sql", "CREATE OR REPLACE FUNCTION app_private.next_occurrence(", "create or replace function app_private.next_occurrence (");
  });
  const applied = await apply();
  expect(applied.map((s) => `${s.file}: ${s.schema}.${s.name}`)).toEqual(["common.sql: app_private.touch_updated_at"]);
  expect(await definition(url, "app_private.touch_updated_at")).toContain("why (edited)");

  const migration = functionsMigration(applied);
  expect(migration).toContain("/* why (edited): updated_at must move");
  expect(migration.match(/create (or replace )?function/gi)).toHaveLength(1);
  // the database now matches the files: nothing more to apply
  expect(await apply()).toEqual([]);
});

test("a new function runs after the new function it calls, whichever file comes first", async () => {
  const { url, apply } = await setUp((files) => {
    files.set("admin.sql", `${files.get("admin.sql")}
CREATE OR REPLACE FUNCTION app_private.admin_twice_the_answer()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$ select app_private.the_answer() * 2 $function$;
`);
    files.set("common.sql", `${files.get("common.sql")}
CREATE OR REPLACE FUNCTION app_private.the_answer() RETURNS integer LANGUAGE sql IMMUTABLE AS $$ select 21 $$;
`);
  });
  const applied = await apply();
  expect(applied.map((s) => s.name)).toEqual(["the_answer", "admin_twice_the_answer"]);
  expect(await definition(url, "app_private.admin_twice_the_answer")).toContain("the_answer() * 2");
});

test("a function changed both in sql/migrations/current/ and in its file is refused", async () => {
  const { apply } = await setUp(
    (files) => replaceIn(files, "common.sql", "/* why: updated_at must move", "/* why (edited): updated_at must move"),
    "create or replace function app_private.touch_updated_at() returns trigger language plpgsql as $$ begin return new; end $$;",
  );
  await expect(apply()).rejects.toThrow(/app_private\.touch_updated_at: changed both in sql\/migrations\/current\/ and in sql\/functions\//);
});

test("anything but a function in a function file is refused, naming where it goes", async () => {
  const { apply } = await setUp((files) => files.set("common.sql", `${files.get("common.sql")}\ndrop function app_private.touch_updated_at();\n`));
  await expect(apply()).rejects.toThrow(/sql\/functions\/common\.sql holds functions only.*sql\/migrations\/current\/. Found: drop function/s);
});

test("a function PostgreSQL refuses names its file and function", async () => {
  const { apply } = await setUp((files) => replaceIn(files, "common.sql", "new.updated_at := now();", "new.updated_at := now(;"));
  await expect(apply()).rejects.toThrow(/sql\/functions\/common\.sql: app_private\.touch_updated_at: .+ at or near/);
});

test("statements split on semicolons outside strings, quoted names, dollar quotes and comments", () => {
  const text = `-- a file header; not a statement
create function a() returns text language sql as $$ select 'x;y' $$;
/* a comment; /* nested; */ still one */
create function "b;c"() returns text language sql as $body$ select $q$;$q$ -- ; $body$;
create function d() returns text language sql as 'select ''it''''s;''';
select E'\\';' as e;
`;
  expect(splitStatements(text)).toEqual([
    "create function a() returns text language sql as $$ select 'x;y' $$",
    'create function "b;c"() returns text language sql as $body$ select $q$;$q$ -- ; $body$',
    "create function d() returns text language sql as 'select ''it''''s;'''",
    "select E'\\';' as e",
  ]);
  expect(() => splitStatements("create function e() returns int begin atomic select 1; end;")).toThrow(/BEGIN ATOMIC/);
});
