/*
 * sql/functions/<area>.sql are the source of every stored function: a developer changes a
 * rule by editing its `CREATE OR REPLACE FUNCTION` statement there. Development and test
 * databases apply the functions whose definition differs from their catalog
 * (createDevelopmentDatabases in sql/migrate.ts), and `scripts/migrations.ts commit` copies
 * those same statements into the next migration. The product's databases only ever run
 * committed migrations.
 *
 * "Differs" is decided by PostgreSQL's normal form: a statement whose text is not exactly a
 * pg_get_functiondef of the catalog is run in a transaction, and kept only when the
 * function's pg_get_functiondef changed (so a re-formatted but equal function is no change).
 */
import postgres from "postgres";

export const FUNCTIONS_DIR = new URL("./functions/", import.meta.url).pathname;
export const CURRENT_MIGRATION_DIR = new URL("./migrations/current/", import.meta.url).pathname;

/** One `CREATE [OR REPLACE] FUNCTION` statement of a function file (`text` has no closing `;`). */
export type FunctionStatement = { file: string; schema: string; name: string; text: string };

const IDENTIFIER = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`;
const CREATE_FUNCTION = new RegExp(
  String.raw`^create\s+(?:or\s+replace\s+)?function\s+(${IDENTIFIER})\s*\.\s*(${IDENTIFIER})\s*\(`,
  "i",
);
const unquote = (identifier: string) =>
  identifier.startsWith('"') ? identifier.slice(1, -1).replaceAll('""', '"') : identifier.toLowerCase();

/**
 * The statements of a SQL text, each without the comments before it and without its `;`.
 * Knows quoted strings and identifiers, dollar quotes and comments (a `;` in them splits
 * nothing).
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$]/.test(c);
  let start = -1; // where the statement being read begins (its first token)
  let previousWord = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      let depth = 0;
      do {
        if (text.startsWith("/*", i)) depth++, i += 2;
        else if (text.startsWith("*/", i)) depth--, i += 2;
        else i++;
      } while (depth > 0 && i < text.length);
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (start < 0) start = i;
    if (c === ";") {
      statements.push(text.slice(start, i).trimEnd());
      start = -1;
      i++;
    } else if (c === "'" || c === '"') {
      const backslashes = c === "'" && /[eE]/.test(text[i - 1] ?? "") && !isWordChar(text[i - 2]);
      let j = i + 1;
      while (j < text.length) {
        if (backslashes && text[j] === "\\") j += 2;
        else if (text[j] === c && text[j + 1] === c) j += 2; // '' and "" stand for the quote itself
        else if (text[j] === c) break;
        else j++;
      }
      i = j + 1;
    } else if (c === "$" && !isWordChar(text[i - 1]) && /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.test(text.slice(i, i + 64))) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64))![0];
      const end = text.indexOf(tag, i + tag.length);
      if (end < 0) throw new Error(`unterminated ${tag} quote`);
      i = end + tag.length;
    } else if (/[A-Za-z_]/.test(c) && !isWordChar(text[i - 1])) {
      const word = /^[A-Za-z0-9_$]+/.exec(text.slice(i))![0].toLowerCase();
      if (previousWord === "begin" && word === "atomic") {
        throw new Error("a BEGIN ATOMIC body cannot be read here: write the body as a string (AS $function$ … $function$)");
      }
      previousWord = word;
      i += word.length;
    } else {
      i++;
    }
  }
  if (start >= 0) statements.push(text.slice(start).trimEnd());
  return statements;
}

/** The paths of the `*.sql` files of `dir`, in name order. */
async function sqlFiles(dir: string) {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile && entry.name.endsWith(".sql")) names.push(entry.name);
  return names.sort().map((name) => `${dir.replace(/\/?$/, "/")}${name}`);
}

/** Every function statement of the `*.sql` files of `dir`, file by file (alphabetical). */
export async function readFunctionFiles(dir = FUNCTIONS_DIR): Promise<FunctionStatement[]> {
  const statements: FunctionStatement[] = [];
  for (const path of await sqlFiles(dir)) {
    const file = path.slice(path.lastIndexOf("/") + 1);
    const text = await Deno.readTextFile(path);
    let parts: string[];
    try {
      parts = splitStatements(text);
    } catch (error) {
      throw new Error(`sql/functions/${file}: ${(error as Error).message}`);
    }
    for (const part of parts) {
      const header = CREATE_FUNCTION.exec(part);
      if (!header) {
        throw new Error(
          `sql/functions/${file} holds functions only, each created with its schema named ` +
            `(CREATE OR REPLACE FUNCTION app_public.name(…)); a drop, a table or a data change goes in ` +
            `sql/migrations/current/. Found: ${part.split("\n")[0]}`,
        );
      }
      statements.push({ file, schema: unquote(header[1]), name: unquote(header[2]), text: part });
    }
  }
  return statements;
}

/** The function statements a SQL text creates (e.g. the migration being written). */
function functionsCreatedIn(text: string) {
  return splitStatements(text).flatMap((part) => {
    const header = CREATE_FUNCTION.exec(part);
    return header ? [`${unquote(header[1])}.${unquote(header[2])}`] : [];
  });
}

class Unchanged extends Error {}

/**
 * Runs on the database of `connectionString` every function statement of the files whose
 * definition differs from its catalog, and answers those statements in the order they ran
 * (a statement that fails because it needs another one, e.g. a `language sql` function
 * calling a new function, runs after it). A function the migration being written also
 * creates cannot be changed in its file as well: which one wins would be a guess.
 */
export async function applyFunctionFiles(
  connectionString: string,
  { functionsDir = FUNCTIONS_DIR, currentMigrationDir = CURRENT_MIGRATION_DIR } = {},
): Promise<FunctionStatement[]> {
  const statements = await readFunctionFiles(functionsDir);
  const sql = postgres(connectionString, { max: 1, onnotice: () => {} });
  try {
    const catalog = new Set(
      (await sql<{ definition: string }[]>`
        select pg_get_functiondef(p.oid) as definition from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('app_public', 'app_private') and p.prokind = 'f'`).map((row) => row.definition.trimEnd()),
    );
    let pending = statements.filter((statement) => !catalog.has(statement.text));
    const applied: FunctionStatement[] = [];
    while (pending.length > 0) {
      const failed: { statement: FunctionStatement; error: Error }[] = [];
      for (const statement of pending) {
        try {
          if (await applyIfChanged(sql, statement)) applied.push(statement);
        } catch (error) {
          failed.push({ statement, error: error as Error });
        }
      }
      if (failed.length === pending.length) {
        throw new Error(failed.map(({ statement, error }) =>
          `sql/functions/${statement.file}: ${statement.schema}.${statement.name}: ${error.message}` +
          (/cannot change (return type|name of input parameter)|cannot remove parameter defaults/.test(error.message)
            ? " (a changed signature needs a `drop function` in sql/migrations/current/ first)"
            : "")
        ).join("\n"));
      }
      pending = failed.map(({ statement }) => statement);
    }
    const createdInCurrent = new Set<string>();
    for (const file of await sqlFiles(currentMigrationDir).catch(() => [])) {
      for (const name of functionsCreatedIn(await Deno.readTextFile(file))) createdInCurrent.add(name);
    }
    const twice = applied.filter((statement) => createdInCurrent.has(`${statement.schema}.${statement.name}`));
    if (twice.length > 0) {
      throw new Error(
        `${twice.map((s) => `${s.schema}.${s.name}`).join(", ")}: changed both in sql/migrations/current/ and in ` +
          `sql/functions/; keep the change in sql/functions/ only (remove the function from current/)`,
      );
    }
    return applied;
  } finally {
    await sql.end();
  }
}

/** Runs one statement; keeps it when the function's normal form changed (or it is new). */
async function applyIfChanged(sql: postgres.Sql, statement: FunctionStatement) {
  const definitions = async (tx: postgres.TransactionSql) =>
    (await tx<{ definition: string }[]>`
      select pg_get_functiondef(p.oid) as definition from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = ${statement.schema} and p.proname = ${statement.name} order by 1`)
      .map((row) => row.definition).join("\n");
  try {
    return await sql.begin(async (tx) => {
      const before = await definitions(tx);
      await tx.unsafe(statement.text);
      if ((await definitions(tx)) === before) throw new Unchanged();
      return true;
    });
  } catch (error) {
    if (error instanceof Unchanged) return false;
    throw error;
  }
}

/** The part of the next migration that carries the changed functions. */
export function functionsMigration(statements: FunctionStatement[]) {
  return "-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).\n\n" +
    statements.map((statement) => `${statement.text};\n`).join("\n");
}
