-- The common functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.bump_list_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
/* why: one bump per statement and project of the list named by the trigger's argument
   (drafts, content_plans), whatever the statement changed; rows deleted with their project
   bump nothing */
begin
  insert into app_private.list_versions (project_id, drafts, content_plans)
  select distinct c.project_id, (tg_argv[0] = 'drafts')::int, (tg_argv[0] = 'content_plans')::int
  from changed_rows c
  where exists (select 1 from app_public.projects p where p.id = c.project_id)
  on conflict (project_id) do update
    set drafts = app_private.list_versions.drafts + excluded.drafts,
        content_plans = app_private.list_versions.content_plans + excluded.content_plans;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.is_supported_timezone(p_zone text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select p_zone = any (app_private.supported_timezones())
$function$;

CREATE OR REPLACE FUNCTION app_private.seconds_to_next_utc_day()
 RETURNS integer
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a spent day of AI tokens renews at midnight UTC; this is the Retry-After until then */
  select greatest(1, ceil(extract(epoch from (app_private.utc_today() + 1)::timestamp at time zone 'UTC' - now())))::int
$function$;

CREATE OR REPLACE FUNCTION app_private.touch_updated_at()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  /* why: updated_at must move on every change, whoever makes it (API, worker, psql) */
  new.updated_at := now();
  return new;
end;
$function$;
