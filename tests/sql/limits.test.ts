/*
 * One source per limit: the stored functions read the limits they share with TypeScript
 * from sql/functions/limits.sql, and the project table checks a few in its constraints.
 * Both sides are read here, so a limit changed on one side only fails.
 */
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import * as limits from "../../contract/limits.ts";
import { areaOf } from "../../sql/schema_files.ts";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback, rejects, seedProject } from "../helpers/sql.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 2, onnotice: () => {} });
});
afterAll(() => sql.end());

/** Each limit function with the TypeScript constant the API, the worker and the SPA use. */
const SHARED: [fn: string, sqlValue: string, typescript: number][] = [
  ["post_text_max", "app_private.post_text_max()", limits.POST_CONTENT_MAX],
  ["photo_caption_max", "app_private.photo_caption_max()", limits.PHOTO_CAPTION_MAX],
  ["content_plan_slots_max", "app_private.content_plan_slots_max()", limits.CONTENT_PLAN_SLOTS_MAX],
  ["drafts_per_generation_max", "app_private.drafts_per_generation_max()", limits.DRAFTS_PER_GENERATION_MAX],
  ["bulk_add_lines_max", "app_private.bulk_add_lines_max()", limits.BULK_ADD_MAX_LINES],
  ["generated_post_length_default", "app_private.generated_post_length_default()", limits.GENERATED_POST_LENGTH.default],
  ["sign_in_code_ttl", "extract(epoch from app_private.sign_in_code_ttl()) / 60", limits.SIGN_IN_CODE_TTL_MINUTES],
  ["approver_request_ttl", "extract(epoch from app_private.approver_request_ttl()) / 3600", limits.APPROVER_REQUEST_TTL_HOURS],
  ["session_ttl", "extract(epoch from app_private.session_ttl()) / 86400", limits.SESSION_TTL_DAYS],
  ["series_ends_after_max", "app_private.series_ends_after_max()", limits.SERIES_ENDS_AFTER_MAX],
  ["series_skips_max", "app_private.series_skips_max()", limits.SERIES_SKIPS_MAX],
  ["series_horizon_days_max", "app_private.series_horizon_days_max()", limits.SERIES_HORIZON_DAYS],
  ["series_per_project_max", "app_private.series_per_project_max()", limits.SERIES_PER_PROJECT_MAX],
  ["queue_low_days", "app_private.queue_low_days()", limits.QUEUE_LOW_DAYS],
  ["queue_forecast_days_max", "app_private.queue_forecast_days_max()", limits.QUEUE_FORECAST_DAYS],
];
/** Limits only SQL uses: no TypeScript twin to compare. */
const SQL_ONLY = ["sign_in_code_attempts_max"];

test.each(SHARED)("app_private.%s() is the TypeScript constant", async (_fn, sqlValue, typescript) => {
  const [row] = await sql.unsafe(`select (${sqlValue})::float8 as value`);
  expect(row.value).toBe(typescript);
});

test("every limit function is compared with its TypeScript twin or known to be SQL's alone", async () => {
  const rows = await sql<{ name: string }[]>`
    select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('app_public', 'app_private') order by 1`;
  const limitFunctions = rows.map((r) => r.name).filter((name) => areaOf(name) === "limits");
  // a threshold shared with TypeScript may live with the rule it belongs to (queue_low_days: autopilot)
  const sharedHere = SHARED.map(([fn]) => fn).filter((fn) => areaOf(fn) === "limits");
  expect(limitFunctions).toEqual([...sharedHere, ...SQL_ONLY, "default_timezone", "supported_timezones"].sort());
});

test("the default timezone is DEFAULT_TIMEZONE, and SQL names it in app_private.default_timezone() alone", async () => {
  const [{ zone }] = await sql`select app_private.default_timezone() as zone`;
  expect(zone).toBe(limits.DEFAULT_TIMEZONE);
  // a function or a column default typing the zone again would drift from it unseen
  const literal = `'${limits.DEFAULT_TIMEZONE}'`;
  const typed = await sql<{ place: string }[]>`
    select p.proname as place from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('app_public', 'app_private') and strpos(p.prosrc, ${literal}) > 0
    union all
    select c.relname || '.' || a.attname from pg_attrdef d
    join pg_class c on c.oid = d.adrelid join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
    where n.nspname in ('app_public', 'app_private') and strpos(pg_get_expr(d.adbin, d.adrelid), ${literal}) > 0
    order by 1`;
  expect(typed.map((r) => r.place)).toEqual(["default_timezone", "supported_timezones"]);
  const defaults = await sql<{ place: string; expr: string }[]>`
    select c.relname as place, pg_get_expr(d.adbin, d.adrelid) as expr from pg_attrdef d
    join pg_class c on c.oid = d.adrelid join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
    where c.relname in ('projects', 'content_plans') and c.relnamespace = 'app_public'::regnamespace and a.attname = 'timezone'
    order by 1`;
  expect(defaults).toEqual([
    { place: "content_plans", expr: "app_private.default_timezone()" },
    { place: "projects", expr: "app_private.default_timezone()" },
  ]);
});

test("SQL's timezones are the list the API and the SPA offer, and each one is accepted", async () => {
  const [{ zones }] = await sql`select app_private.supported_timezones() as zones`;
  expect(zones).toEqual([...limits.TIMEZONES]);
  const checked = await sql`
    select zone, app_private.is_supported_timezone(zone) as supported, exists (select 1 from pg_timezone_names where name = zone) as known
    from unnest(${[...limits.TIMEZONES, "Europe/Kyiv"]}::text[]) as zone`;
  expect(checked.filter((r) => !r.supported || !r.known).map((r) => r.zone)).toEqual(["Europe/Kyiv"]);
  expect(checked.find((r) => r.zone === "Europe/Kyiv")).toMatchObject({ supported: false, known: true });
});

test("a project's lengths, languages, writing style and defaults are the API's", async () => {
  await inRollback(sql, async (tx) => {
    const { userId, project } = await seedProject(tx);
    expect(project).toMatchObject({
      timezone: limits.DEFAULT_TIMEZONE,
      language: limits.DEFAULT_LANGUAGE,
      writing_style: limits.WRITING_STYLE_DEFAULTS,
    });
    const insert = (column: string, value: string) => {
      const row: Record<string, string> = { user_id: userId, name: "'P'", admin_handle: "'admin_one'", [column]: value };
      return `insert into app_public.projects (${Object.keys(row)}) values (${Object.values(row)})`;
    };
    for (const [column, max] of [["name", limits.PROJECT_NAME_MAX], ["description", limits.PROJECT_DESCRIPTION_MAX], ["sources", limits.PROJECT_SOURCES_MAX]] as const) {
      await tx.unsafe(insert(column, `repeat('x', ${max})`));
      await rejects(tx, insert(column, `repeat('x', ${max + 1})`), "23514");
    }
    for (const language of limits.LANGUAGES) await tx.unsafe(insert("language", `'${language}'`));
    await rejects(tx, insert("language", "'de'"), "23514");
    for (const [key, { min, max }] of Object.entries(limits.WRITING_STYLE_RANGES)) {
      const style = (level: number) => `'${JSON.stringify({ ...limits.WRITING_STYLE_DEFAULTS, [key]: level })}'`;
      for (let level = min; level <= max; level++) await tx.unsafe(insert("writing_style", style(level)));
      await rejects(tx, insert("writing_style", style(min - 1)), "23514");
      await rejects(tx, insert("writing_style", style(max + 1)), "23514");
    }
  });
});
