-- The content plans functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_public.content_plans_version(p_user_id bigint, p_project_id bigint)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the content plan's ETag says; a non-member is refused (404) */
  select coalesce(l.content_plans, 0) from app_public.projects p
  left join app_private.list_versions l on l.project_id = p.id
  where p.id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.create_content_plan(p_user_id bigint, p_project_id bigint, p_day_of_week integer, p_time text, p_timezone text, p_post_length integer, p_active boolean)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: the role first (NTFND, team.forbidden), then the project's room (QUOTA: a week holds at most
   content_plan_slots_max slots, counted one add at a time), then the slot */
declare
  v_plan app_public.content_plans;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'plans.write');
  perform 1 from app_public.projects where id = p_project_id for update;
  if (select count(*) from app_public.content_plans where project_id = p_project_id) >= app_private.content_plan_slots_max() then
    raise exception 'A content plan holds at most % slots a week', app_private.content_plan_slots_max()
      using errcode = 'QUOTA', hint = 'contentPlans.quotaReached';
  end if;
  insert into app_public.content_plans (project_id, day_of_week, time, timezone, post_length, active)
  values (p_project_id, p_day_of_week, p_time, coalesce(p_timezone, app_private.default_timezone()), p_post_length, coalesce(p_active, true))
  returning * into v_plan;
  if v_plan.active then
    perform app_private.queue_autopilot_fill(p_project_id);
  end if;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_content_plan(p_user_id bigint, p_project_id bigint, p_plan_id bigint)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: removes one slot of the project, and its future posts not yet sent;
   a slot of another project is "not found" */
declare
  v_plan app_public.content_plans;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'plans.write');
  perform app_private.autopilot_remove_slot_posts(c.id)
  from app_public.content_plans c
  where c.id = p_plan_id and c.project_id = p_project_id;
  delete from app_public.content_plans c
  where c.id = p_plan_id and c.project_id = p_project_id
  returning c.* into v_plan;
  if not found then
    raise exception 'Content plan slot not found' using errcode = 'NTFND', hint = 'contentPlans.notFound';
  end if;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_content_plans(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.content_plans
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the plan's slots in week order (Monday first is the interface's business: 0 is Sunday); any member reads it */
  select c.* from app_public.content_plans c
  where c.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by c.day_of_week, c.time, c.id
$function$;

CREATE OR REPLACE FUNCTION app_public.update_content_plan(p_user_id bigint, p_project_id bigint, p_plan_id bigint, p_changes jsonb)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics on one slot of the project; a slot of another project is "not found".
   A slot switched off or moved (day, time, zone) takes back its future unsent posts; an
   active slot is filled again at once (a new length applies to the posts still to come). */
declare
  v_plan app_public.content_plans;
  v_before app_public.content_plans;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'plans.write');
  select c.* into v_before from app_public.content_plans c
  where c.id = p_plan_id and c.project_id = p_project_id
  for update of c;
  update app_public.content_plans c set
    day_of_week = coalesce((p_changes ->> 'dayOfWeek')::smallint, c.day_of_week),
    time = coalesce(p_changes ->> 'time', c.time),
    timezone = coalesce(p_changes ->> 'timezone', c.timezone),
    post_length = coalesce((p_changes ->> 'postLength')::int, c.post_length),
    active = coalesce((p_changes ->> 'active')::boolean, c.active)
  where c.id = p_plan_id and c.project_id = p_project_id
  returning c.* into v_plan;
  if not found then
    raise exception 'Content plan slot not found' using errcode = 'NTFND', hint = 'contentPlans.notFound';
  end if;
  if not v_plan.active or (v_plan.day_of_week, v_plan.time, v_plan.timezone) is distinct from (v_before.day_of_week, v_before.time, v_before.timezone) then
    perform app_private.autopilot_remove_slot_posts(v_plan.id);
  end if;
  if v_plan.active then
    perform app_private.queue_autopilot_fill(p_project_id);
  end if;
  return v_plan;
end;
$function$;
