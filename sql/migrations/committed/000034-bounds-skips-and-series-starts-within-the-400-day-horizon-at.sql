--! Previous: sha1:24ed9a020db82fed09d78adf4917c050a2d003ab
--! Hash: sha1:0bc76c4a4541dd1e17c086c2dfc991d08831551b
--! Message: Bounds: skips and series starts within the 400-day horizon, at most 50 series per project

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.series_horizon_days_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how far ahead a series' occurrences are stepped through: the next spawn is looked
     for within it, and a date beyond it cannot be skipped, so no request steps a series
     further (SERIES_HORIZON_DAYS in TypeScript) */
  select 400
$function$;

CREATE OR REPLACE FUNCTION app_private.series_per_project_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the recurring series one project may hold; each is stepped through by the queue's
     forecast, so their number bounds what one read of it costs (SERIES_PER_PROJECT_MAX in
     TypeScript) */
  select 50
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content, formatting and image it copies, and its options unless the request gives its
 * own. Recurring: a series with placeholder text whose occurrences take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute).
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before scheduling posts' using errcode = 'NOCHN', hint = 'schedule.noChannel';
  end if;
  if v_recurring then
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL', hint = 'schedule.noDraftsForRecurring';
    end if;
    perform app_private.assert_series_end(v_project, p_scheduled_for, p_ends_after, p_ends_on);
    perform 1 from app_public.projects where id = p_project_id for update; -- counted one add at a time
    if (select count(*) from app_public.posts where project_id = p_project_id and is_recurring) >= app_private.series_per_project_max() then
      raise exception 'A project can have at most % recurring series', app_private.series_per_project_max()
        using errcode = 'QUOTA', hint = 'schedule.tooManySeries';
    end if;
    insert into app_public.posts (project_id, title, content, entities, options, scheduled_for, is_recurring, recurring_type,
                                  series_ends_after, series_ends_on)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), coalesce(p_entities, '[]'), coalesce(p_options, '{}'),
            p_scheduled_for, true, p_recurring_type, p_ends_after, p_ends_on)
    returning * into v_post;
    perform app_private.queue_series_spawn(v_post, now());
    return v_post;
  end if;
  v_draft := app_private.draft_for_post(p_project_id, p_draft_id, null);
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, image_urls, options, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          coalesce(p_options, v_draft.options), p_scheduled_for)
  returning * into v_post;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.assert_series_end(p_project app_public.projects, p_first timestamp with time zone, p_ends_after integer, p_ends_on date)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a series starts within the horizon, ends one way at most, and not before its first date (in the project's zone) */
begin
  if p_ends_after is not null and p_ends_on is not null then
    raise exception 'A series ends after a number of posts or on a date, not both'
      using errcode = 'INVAL', hint = 'schedule.seriesEndsTwice';
  end if;
  -- the rotation looks for the next occurrence within the horizon: a later start would never begin
  if p_first > now() + make_interval(days => app_private.series_horizon_days_max()) then
    raise exception 'A series must start within the next % days', app_private.series_horizon_days_max()
      using errcode = 'INVAL', hint = 'schedule.seriesStartsBeyondHorizon';
  end if;
  if p_ends_on < (p_first at time zone p_project.timezone)::date then
    raise exception 'A series cannot end before its first post' using errcode = 'INVAL', hint = 'schedule.seriesEndsBeforeStart';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_series_spawn(p_series app_public.posts, p_now timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a series' next occurrence is made approval_lead before its time, when its approval
     request is due; at once if that moment has passed (p_now is the clock). Skipped dates
     are passed over; a series that has ended has no spawn left waiting. */
  select case when n.at is null then graphile_worker.remove_job(app_private.post_job_key(p_series.id, 'spawn'))::text
    else graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', p_series.id),
      run_at := greatest(p_now, n.at - app_private.approval_lead()),
      job_key := app_private.post_job_key(p_series.id, 'spawn'))::text end
  from (select (select at from app_private.series_upcoming(p_series, p_now + make_interval(days => app_private.series_horizon_days_max())) at limit 1) as at) n
$function$;

CREATE OR REPLACE FUNCTION app_public.skip_series_occurrence(p_user_id bigint, p_project_id bigint, p_series_id bigint, p_at timestamp with time zone, p_skip boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: one future occurrence of a running series is skipped (it takes no draft, the series
 * goes on), or a skipped one is brought back. Only an occurrence still to be made qualifies:
 * one already made is a post of its own, deleted like any post.
 */
declare
  v_series app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_series_id);
begin
  if not v_series.is_recurring or v_series.status <> 'draft' then
    raise exception 'Only a running recurring series has occurrences to skip' using errcode = 'INVAL', hint = 'schedule.notARunningSeries';
  end if;
  if p_skip then
    -- checked before stepping: the steps to p_at are the cost of the check below
    if p_at > now() + make_interval(days => app_private.series_horizon_days_max()) then
      raise exception 'Only dates within the next % days can be skipped', app_private.series_horizon_days_max()
        using errcode = 'INVAL', hint = 'schedule.skipBeyondHorizon';
    end if;
    if p_at <= now() or not exists (select 1 from app_private.series_upcoming(v_series, p_at) at where at = p_at) then
      raise exception 'The series has no occurrence still to come at that time' using errcode = 'INVAL', hint = 'schedule.notAnOccurrence';
    end if;
    -- dates gone by no longer count
    v_series.series_skips := array(select s from unnest(v_series.series_skips) s where s > now());
    if cardinality(v_series.series_skips) >= app_private.series_skips_max() then
      raise exception 'A series can have at most % skipped dates', app_private.series_skips_max()
        using errcode = 'QUOTA', hint = 'schedule.tooManySkips';
    end if;
    update app_public.posts set series_skips = array_append(v_series.series_skips, p_at)
    where id = p_series_id returning * into v_series;
  else
    if not p_at = any(v_series.series_skips) then
      raise exception 'The series has no occurrence still to come at that time' using errcode = 'INVAL', hint = 'schedule.notAnOccurrence';
    end if;
    update app_public.posts set series_skips = array_remove(series_skips, p_at) where id = p_series_id returning * into v_series;
  end if;
  perform app_private.queue_series_spawn(v_series, now());
  return v_series;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.spawn_series_occurrence(p_series_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the rotation. The series' next occurrence becomes its own post taking the next
 * available draft by order (skipped dates passed over); the series advances
 * (recurring_last_post, series_made) and the next spawn is queued, unless it has ended. With no draft left the series stops and says why (last_error). p_now is
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
  select at into v_at from app_private.series_upcoming(v_series, p_now + make_interval(days => app_private.series_horizon_days_max())) at limit 1;
  if v_at is null then
    return null; -- it has ended (after N posts, or its end date)
  end if;
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
  update app_public.posts set recurring_last_post = v_at, series_made = series_made + 1
  where id = v_series.id returning * into v_series;
  perform app_private.queue_approval(v_occurrence);
  perform app_private.queue_series_spawn(v_series, p_now);
  return v_occurrence;
end;
$function$;
