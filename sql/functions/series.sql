-- The series functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

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
     request is due; at once if that moment has passed (p_now is the clock). Skipped dates
     are passed over; a series that has ended has no spawn left waiting. */
  select case when n.at is null then graphile_worker.remove_job(app_private.post_job_key(p_series.id, 'spawn'))::text
    else graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', p_series.id),
      run_at := greatest(p_now, n.at - app_private.approval_lead()),
      job_key := app_private.post_job_key(p_series.id, 'spawn'))::text end
  from (select (select at from app_private.series_upcoming(p_series, p_now + make_interval(days => app_private.series_horizon_days_max())) at limit 1) as at) n
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

CREATE OR REPLACE FUNCTION app_private.series_upcoming(p_series app_public.posts, p_until timestamp with time zone)
 RETURNS SETOF timestamp with time zone
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the occurrences a series has still to make, in time order, up to p_until: daily or
 * weekly steps of the wall time from the next one (series_next_time), passing over skipped
 * dates (they take no draft), none after its end date (a day in the project's zone) nor
 * beyond "after N posts" (series_made counts those made). The calendar computes the same
 * (web/src/lib/recurrence.ts; tests/cases/recurrence_cases.ts drives both).
 */
declare
  v_timezone text := (select timezone from app_public.projects where id = p_series.project_id);
  v_at timestamptz := app_private.series_next_time(p_series);
  v_left int := p_series.series_ends_after - p_series.series_made;
begin
  if not p_series.is_recurring then
    return;
  end if;
  while v_at <= p_until and (v_left is null or v_left > 0)
        and (p_series.series_ends_on is null or (v_at at time zone v_timezone)::date <= p_series.series_ends_on) loop
    if not v_at = any(p_series.series_skips) then
      return next v_at;
      v_left := v_left - 1;
    end if;
    v_at := app_private.next_occurrence(v_at, p_series.recurring_type, v_timezone);
  end loop;
end;
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
  v_series app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_series_id, 'posts.write');
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
 * (recurring_last_post, series_made) and the next spawn is queued, unless it has ended. With no draft left the series stops and says why (last_error_code). p_now is
 * the clock (tests drive days through it). An author's series (review_author_id) makes
 * occurrences that each wait for review instead of asking the approver.
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
    update app_public.posts set status = 'failed', last_error_code = 'schedule.seriesOutOfDrafts', last_error_params = '{}' where id = v_series.id;
    return null;
  end if;
  -- the series' options, when it has any, else the draft's
  insert into app_public.posts (project_id, draft_id, series_id, title, content, entities, image_url, image_urls, options, scheduled_for,
                                created_by)
  values (v_series.project_id, v_draft.id, v_series.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          case when v_series.options = '{}' then v_draft.options else v_series.options end, v_at, v_series.created_by)
  returning * into v_occurrence;
  update app_public.posts set recurring_last_post = v_at, series_made = series_made + 1
  where id = v_series.id returning * into v_series;
  if v_series.review_author_id is not null then
    v_occurrence := app_private.hold_for_review(v_occurrence, v_series.review_author_id, false);
  else
    perform app_private.queue_approval(v_occurrence);
  end if;
  perform app_private.queue_series_spawn(v_series, p_now);
  -- made by the series, not by a person
  perform app_private.log_activity(v_occurrence.project_id, 'post.scheduled', 'post', v_occurrence.id,
    jsonb_build_object('title', v_occurrence.title, 'scheduledFor', v_occurrence.scheduled_for, 'seriesId', v_series.id), null);
  return v_occurrence;
end;
$function$;
