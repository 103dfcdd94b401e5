/*
 * sql/functions/*.sql and sql/schema.sql say what the migrated database holds: regenerated
 * from this run's database, they must equal the committed files. A migration committed
 * without regenerating them (scripts/migrations.ts commit does it) fails here.
 */
import { expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { FUNCTION_AREAS, schemaFiles } from "../../sql/schema_files.ts";

const sqlDir = new URL("../../sql/", import.meta.url);

test("the generated schema files are current", async () => {
  const files = await schemaFiles(await freshDatabase());
  const committed = [...Deno.readDirSync(new URL("functions/", sqlDir))].map((entry) => `functions/${entry.name}`);
  expect(committed.sort()).toEqual([...files.keys()].filter((path) => path.startsWith("functions/")).sort());
  for (const [path, text] of files) {
    const onDisk = await Deno.readTextFile(new URL(path, sqlDir));
    expect(onDisk === text, `sql/${path} is out of date: run \`npx deno run -A scripts/migrations.ts schema\``).toBe(true);
  }
});

test("every function is in a file named for its area, and each is defined once", async () => {
  const files = await schemaFiles(await freshDatabase());
  const names: string[] = [];
  for (const [path, text] of files) {
    if (!path.startsWith("functions/")) continue;
    names.push(...[...text.matchAll(/CREATE OR REPLACE FUNCTION (\S+)\(/g)].map((m) => m[1]));
  }
  expect(new Set(names).size).toBe(names.length);
  // the publishing rules read whole in one file
  const publish = files.get("functions/posts_publish.sql")!;
  for (const fn of ["begin_sending", "record_published", "record_send_failed", "record_sent_part", "postpone_sending", "resolve_uncertain"]) {
    expect(publish, fn).toContain(`app_public.${fn}(`.replace("app_public.resolve_uncertain(", "app_private.resolve_uncertain("));
  }
  expect(FUNCTION_AREAS.at(-1)![0]).toBe("common");
});
