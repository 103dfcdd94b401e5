/*
 * PostgreSQL 15–18 are supported; an older server is refused at start, naming its version,
 * before anything is made in it: a database half-migrated by a server that cannot finish
 * would be worse than none. The refusal is tested against a real PostgreSQL 14 (package.json's
 * optionalDependencies install it for linux-x64, where CI runs).
 */
import postgres from "postgres";
import { expect, test } from "vitest";
import { unsupportedPostgresProblem } from "../core/startup_checks.ts";
import { freePort, packageBinDir, POSTGRES_PLATFORM, startEmbeddedPostgres } from "../scripts/postgres.ts";
import { APP_ROLE } from "../sql/app_role.ts";
import { ensureDatabase } from "../sql/migrate.ts";

const root = new URL("..", import.meta.url).pathname;

test("15, 16, 17 and 18 pass the version check; 14 and older are named in the refusal", () => {
  for (const num of [150000, 150018, 160014, 170010, 180004, 190000]) {
    expect(unsupportedPostgresProblem(num, String(num))).toBeUndefined();
  }
  expect(unsupportedPostgresProblem(140023, "14.23")).toMatch(/^PostgreSQL 14\.23 is not supported: Pressa needs PostgreSQL 15, 16, 17 or 18/);
  expect(unsupportedPostgresProblem(90624, "9.6.24")).toContain("PostgreSQL 9.6.24 is not supported");
});

test.skipIf(POSTGRES_PLATFORM !== "linux-x64")(
  "npm start on PostgreSQL 14 stops with a message naming 14.x and leaves its database untouched",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "pressa-pg14-" });
    await Deno.chmod(dir, 0o755); // reachable by the postgres system user when run as root
    const pg = await startEmbeddedPostgres(dir, () => {}, { binDir: await packageBinDir("14") });
    const dataDir = await Deno.makeTempDir({ prefix: "pressa-pg14-data-" });
    try {
      const url = await ensureDatabase(pg.adminUrl, "pressa");
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "scripts/start.ts"],
        cwd: root,
        env: { DATABASE_URL: url, DATABASE_OWNER_URL: "", DATA_DIR: dataDir, PORT: String(await freePort()), TELEGRAM_BOT_TOKEN: "" },
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).spawn();
      // a start that is not refused keeps running: stop it well within the test's time
      const timer = setTimeout(() => child.kill("SIGTERM"), 30_000);
      const { code, stderr } = await child.output();
      clearTimeout(timer);
      const log = new TextDecoder().decode(stderr);

      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const [{ version }] = await sql<{ version: string }[]>`select current_setting('server_version') as version`;
        expect(version).toMatch(/^14\./);
        expect(code, log).toBe(2);
        const refusal = log.split("\n").map((line) => {
          try {
            return JSON.parse(line);
          } catch {
            return undefined;
          }
        }).find((line) => line?.level === "error");
        expect(refusal?.message).toContain(
          `npm start refuses to start: PostgreSQL ${version} is not supported`,
        );
        // refused before the first change: no schema, no app role
        const schemas = await sql`select nspname from pg_namespace
          where nspname in ('graphile_worker', 'graphile_migrate', 'app_public', 'app_private', 'app_pg_compat')`;
        expect(schemas).toEqual([]);
        expect(await sql`select 1 from pg_roles where rolname = ${APP_ROLE}`).toEqual([]);
      } finally {
        await sql.end();
      }
    } finally {
      await pg.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);
