/*
 * The default timezone has two homes: DEFAULT_TIMEZONE in contract/limits.ts for TypeScript,
 * app_private.default_timezone() in sql/functions/limits.sql for SQL (the database's side,
 * column defaults included, is checked in tests/sql/limits.test.ts). Each also lists the zone
 * among those offered. Typed anywhere else, a change of the default would miss that place.
 * Tests are not read: they name the zone as a zone, not as the default.
 */
import { expect, test } from "vitest";
import { DEFAULT_TIMEZONE } from "../contract/limits.ts";
import { ROOT, sources } from "./helpers/tree.ts";

const HOMES = ["contract/limits.ts", "sql/functions/limits.sql"];
const FOLDERS = ["api", "bot", "contract", "core", "scripts", "sql", "tasks", "texts", "web/src"];

test("the default timezone is typed, as a string, only in its homes", async () => {
  const quoted = new RegExp(`["'\`]${DEFAULT_TIMEZONE}["'\`]`);
  const found: string[] = [];
  for (const folder of FOLDERS) {
    for await (const file of sources(folder, /\.(ts|tsx|sql)$/)) {
      if (file.startsWith("sql/migrations/") || file === "sql/schema.sql") continue; // history, and generated from it
      if (quoted.test(await Deno.readTextFile(`${ROOT}/${file}`))) found.push(file);
    }
  }
  expect(found.sort()).toEqual(HOMES);
});
