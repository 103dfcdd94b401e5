--! Previous: sha1:a322622c0f52247e761cfdb2f1a92e5a4027ce4f
--! Hash: sha1:04e602bffea568a1f4e82850f0c7eed9d5313289
--! Message: The drafts queue's forecast: when the first slot time or series occurrence finds no draft, and whether that is within 3 days

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.queue_health(p_user_id bigint, p_project_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS TABLE(drafts_left integer, runs_dry_at timestamp with time zone, low boolean, posts_per_week integer)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: how long the drafts queue lasts at the current plan plus series. Every future slot
 * time not filled yet and every occurrence a running series has still to make takes one
 * draft, in time order; the queue runs dry at the first of them left without one. None
 * within queue_forecast_days_max: runs_dry_at is null (it lasts longer, or nothing takes
 * drafts). Low: it runs dry within queue_low_days_max.
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_until timestamptz := p_now + make_interval(days => app_private.queue_forecast_days_max());
begin
  select count(*)::int into drafts_left from app_public.available_series_drafts(p_project_id);
  select coalesce(sum(case s.recurring_type when 'daily' then 7 else 1 end), 0)::int
       + (select count(*)::int from app_public.content_plans c where c.project_id = p_project_id and c.active)
    into posts_per_week
  from app_public.posts s where s.project_id = p_project_id and s.is_recurring and s.status = 'draft';
  select e.at into runs_dry_at from (
    select t.at from app_public.content_plans c
    cross join lateral app_private.plan_slot_times(c, p_now, v_until) t(at)
    where c.project_id = p_project_id and c.active
      and not exists (select 1 from app_private.plan_fills f where f.plan_id = c.id and f.slot_at = t.at)
    union all
    select o.at from app_public.posts s
    cross join lateral (
      select ((app_private.series_next_time(s) at time zone v_project.timezone)
              + k * case s.recurring_type when 'daily' then interval '1 day' else interval '7 days' end)
             at time zone v_project.timezone as at
      from generate_series(0, app_private.queue_forecast_days_max()) k
    ) o
    where s.project_id = p_project_id and s.is_recurring and s.status = 'draft' and o.at > p_now and o.at <= v_until
  ) e
  order by e.at offset drafts_left limit 1;
  low := runs_dry_at is not null and runs_dry_at < p_now + make_interval(days => app_private.queue_low_days_max());
  return next;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_forecast_days_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how far ahead the queue's forecast looks; a queue lasting longer "lasts over N days"
     (QUEUE_FORECAST_DAYS in TypeScript) */
  select 60
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_low_days_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: a queue that runs dry sooner than this many days is low: the interface warns and the
     owner gets a mail (QUEUE_LOW_DAYS in TypeScript) */
  select 3
$function$;
