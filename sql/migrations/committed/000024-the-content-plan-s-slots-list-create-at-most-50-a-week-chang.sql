--! Previous: sha1:ead481246b6dd4fea512de3275f6dd5cd91f219b
--! Hash: sha1:2b6066a2960a50557a27c73c1057f7efd058ab32
--! Message: The content plan's slots: list, create (at most 50 a week), change and remove, by the project's owner

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.project_content_plans(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.content_plans
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the plan's slots in week order (Monday first is the interface's business: 0 is Sunday); ownership in the join */
  select c.* from app_public.content_plans c
  join app_public.projects p on p.id = c.project_id and p.user_id = p_user_id
  where c.project_id = p_project_id
  order by c.day_of_week, c.time, c.id
$function$;

CREATE OR REPLACE FUNCTION app_public.create_content_plan(p_user_id bigint, p_project_id bigint, p_day_of_week integer, p_time text, p_timezone text, p_post_length integer, p_active boolean)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), then the project's room (QUOTA: a week holds at most
   content_plan_slots_max slots, counted one add at a time), then the slot */
declare
  v_plan app_public.content_plans;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  perform 1 from app_public.projects where id = p_project_id for update;
  if (select count(*) from app_public.content_plans where project_id = p_project_id) >= app_private.content_plan_slots_max() then
    raise exception 'A content plan holds at most % slots a week', app_private.content_plan_slots_max()
      using errcode = 'QUOTA', hint = 'contentPlans.quotaReached';
  end if;
  insert into app_public.content_plans (project_id, day_of_week, time, timezone, post_length, active)
  values (p_project_id, p_day_of_week, p_time, coalesce(p_timezone, 'Europe/Moscow'), p_post_length, coalesce(p_active, true))
  returning * into v_plan;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_content_plan(p_user_id bigint, p_project_id bigint, p_plan_id bigint, p_changes jsonb)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics on one slot of the owner's project; anything else is "not found" */
declare
  v_plan app_public.content_plans;
begin
  update app_public.content_plans c set
    day_of_week = coalesce((p_changes ->> 'dayOfWeek')::smallint, c.day_of_week),
    time = coalesce(p_changes ->> 'time', c.time),
    timezone = coalesce(p_changes ->> 'timezone', c.timezone),
    post_length = coalesce((p_changes ->> 'postLength')::int, c.post_length),
    active = coalesce((p_changes ->> 'active')::boolean, c.active)
  from app_public.projects p
  where c.id = p_plan_id and c.project_id = p_project_id and p.id = c.project_id and p.user_id = p_user_id
  returning c.* into v_plan;
  if not found then
    raise exception 'Content plan slot not found' using errcode = 'NTFND', hint = 'contentPlans.notFound';
  end if;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_content_plan(p_user_id bigint, p_project_id bigint, p_plan_id bigint)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: removes one slot of the owner's project; anything else is "not found" */
declare
  v_plan app_public.content_plans;
begin
  delete from app_public.content_plans c
  using app_public.projects p
  where c.id = p_plan_id and c.project_id = p_project_id and p.id = c.project_id and p.user_id = p_user_id
  returning c.* into v_plan;
  if not found then
    raise exception 'Content plan slot not found' using errcode = 'NTFND', hint = 'contentPlans.notFound';
  end if;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.content_plan_slots_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the slots one project's weekly content plan may hold (CONTENT_PLAN_SLOTS_MAX in TypeScript) */
  select 50
$function$;
