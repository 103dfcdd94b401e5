-- The series functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.next_occurrence(p_from timestamp with time zone, p_type text, p_timezone text)
 RETURNS timestamp with time zone
 LANGUAGE sql
 IMMUTABLE
AS $function$
  select ((p_from at time zone p_timezone)
          + case p_type when 'daily' then interval '1 day' when 'weekly' then interval '7 days' end)
         at time zone p_timezone
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_series_spawn(p_series app_public.posts, p_now timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a series' next occurrence is made approval_lead before its time, when its approval
     request is due; at once if that moment has passed (p_now is the clock) */
  select graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', p_series.id),
    run_at := greatest(p_now, app_private.series_next_time(p_series) - app_private.approval_lead()),
    job_key := app_private.post_job_key(p_series.id, 'spawn'))
$function$;

CREATE OR REPLACE FUNCTION app_private.series_next_time(p_series app_public.posts)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
AS $function$
  select case when p_series.recurring_last_post is null then p_series.scheduled_for
    else app_private.next_occurrence(p_series.recurring_last_post, p_series.recurring_type,
      (select timezone from app_public.projects where id = p_series.project_id)) end
$function$;

CREATE OR REPLACE FUNCTION app_public.available_series_drafts(p_project_id bigint)
 RETURNS SETOF app_public.drafts
 LANGUAGE sql
 STABLE
AS $function$
  select d.* from app_public.drafts d
  where d.project_id = p_project_id
    and not exists (
      select 1 from app_public.posts p
      where p.draft_id = d.id and p.status not in ('rejected', 'failed')
    )
  order by d.sort_order, d.created_at, d.id
$function$;

CREATE OR REPLACE FUNCTION app_public.spawn_series_occurrence(p_series_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the rotation. The series' next occurrence becomes its own post taking the next
 * available draft by order; the series advances (recurring_last_post) and the next spawn
 * is queued. With no draft left the series stops and says why (last_error). p_now is
 * the clock (tests drive days through it).
 */
declare
  v_series app_public.posts;
  v_draft app_public.drafts;
  v_at timestamptz;
  v_occurrence app_public.posts;
begin
  select * into v_series from app_public.posts where id = p_series_id and is_recurring and status = 'draft' for update;
  if not found then
    return null;
  end if;
  v_at := app_private.series_next_time(v_series);
  if v_at - app_private.approval_lead() > p_now + interval '1 minute' then
    -- too early (a stale job): wait for the right time
    perform app_private.queue_series_spawn(v_series, p_now);
    return null;
  end if;
  select * into v_draft from app_public.available_series_drafts(v_series.project_id) limit 1;
  if not found then
    update app_public.posts set status = 'failed', last_error = 'schedule.seriesOutOfDrafts' where id = v_series.id;
    return null;
  end if;
  -- the series' options, when it has any, else the draft's
  insert into app_public.posts (project_id, draft_id, series_id, title, content, entities, image_url, image_urls, options, scheduled_for)
  values (v_series.project_id, v_draft.id, v_series.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          case when v_series.options = '{}' then v_draft.options else v_series.options end, v_at)
  returning * into v_occurrence;
  update app_public.posts set recurring_last_post = v_at where id = v_series.id returning * into v_series;
  perform app_private.queue_approval(v_occurrence);
  perform app_private.queue_series_spawn(v_series, p_now);
  return v_occurrence;
end;
$function$;
