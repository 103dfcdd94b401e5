--! Previous: sha1:04e602bffea568a1f4e82850f0c7eed9d5313289
--! Hash: sha1:9d0e1488ab48320b935a1d506a487ede9be4d86e
--! Message: A recurring series ends after N posts or on a day, and single future dates can be skipped

--! split: 2-series-end-skip.sql
-- A recurring series can end after N posts or on a date (in the project's zone), and single
-- future occurrences can be skipped without ending it (issue 17). series_made counts the
-- occurrences made, so a deleted occurrence still counts towards the end.
alter table app_public.posts
  add column series_ends_after int check (series_ends_after between 1 and 1000),
  add column series_ends_on date,
  add column series_skips timestamptz[] not null default '{}' check (cardinality(series_skips) <= 100),
  add column series_made int not null default 0;
update app_public.posts s set series_made = (select count(*) from app_public.posts o where o.series_id = s.id)
where s.is_recurring;
-- the two calls take the series' end now
drop function app_public.schedule_post(bigint, bigint, bigint, timestamptz, text, text, text, jsonb, jsonb);
drop function app_public.update_post(bigint, bigint, bigint, bigint, timestamptz, text, text, text, jsonb, jsonb);

--! split: 3-sql-functions.sql
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
  v_until timestamptz := p_now + make_interval(days => app_private.queue_forecast_days_max());
begin
  perform app_public.get_project(p_user_id, p_project_id);
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
    cross join lateral app_private.series_upcoming(s, v_until) o(at)
    where s.project_id = p_project_id and s.is_recurring and s.status = 'draft' and o.at > p_now
  ) e
  order by e.at offset drafts_left limit 1;
  low := runs_dry_at is not null and runs_dry_at < p_now + make_interval(days => app_private.queue_low_days_max());
  return next;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.series_ends_after_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the most posts a series may be set to end after (SERIES_ENDS_AFTER_MAX in TypeScript;
     posts_series_ends_after_check says the same) */
  select 1000
$function$;

CREATE OR REPLACE FUNCTION app_private.series_skips_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: future dates one series may skip (SERIES_SKIPS_MAX in TypeScript; posts_series_skips_check
     says the same) */
  select 100
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

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post cannot be edited; one being sent
 * cannot either. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again), with
 * the end the request gives (the occurrences made so far count towards "after N posts";
 * skipped dates stay skipped).
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
    -- its time and recurrence are history; its text, formatting and buttons may change
    -- through the approver (request_post_edit)
    if date_trunc('milliseconds', p_scheduled_for) <> date_trunc('milliseconds', v_post.scheduled_for) or v_recurring
       or v_post.is_recurring then
      raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
    end if;
    return app_private.request_post_edit(v_post, p_content, p_entities, p_options -> 'buttons');
  end if;
  if v_post.status in ('sending', 'uncertain') then
    raise exception 'The post is being published right now and cannot be edited' using errcode = 'EDPUB', hint = 'schedule.cannotEditSending';
  end if;
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring <> v_post.is_recurring then
    raise exception 'A one-time post cannot become recurring or the other way round; delete it and schedule anew'
      using errcode = 'INVAL', hint = 'schedule.cannotChangeRecurrence';
  end if;
  if not v_recurring then
    v_draft := app_private.draft_for_post(p_project_id, p_draft_id, p_post_id);
  else
    perform app_private.assert_series_end(app_public.get_project(p_user_id, p_project_id), p_scheduled_for, p_ends_after, p_ends_on);
  end if;
  perform app_private.retract_approval(v_post, 'edited');
  perform app_private.unqueue_post_jobs(v_post.id);
  update app_public.posts set
    draft_id = case when v_recurring then null else v_draft.id end,
    title = case when v_recurring then coalesce(p_title, title) else v_draft.title end,
    content = case when v_recurring then coalesce(p_content, content) else v_draft.content end,
    entities = case when v_recurring then coalesce(p_entities, case when p_content is null then entities else '[]' end)
                    else v_draft.entities end,
    image_url = case when v_recurring then null else v_draft.image_url end,
    image_urls = case when v_recurring then '{}' else v_draft.image_urls end,
    options = coalesce(p_options, case when v_recurring then options else v_draft.options end),
    scheduled_for = p_scheduled_for,
    recurring_type = coalesce(p_recurring_type, 'none'),
    status = 'draft',
    recurring_last_post = case when v_recurring then null else recurring_last_post end,
    series_ends_after = case when v_recurring then p_ends_after end,
    series_ends_on = case when v_recurring then p_ends_on end,
    approval_preview = '{}',
    last_error = null
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform app_private.queue_series_spawn(v_post, now());
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
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

CREATE OR REPLACE FUNCTION app_private.assert_series_end(p_project app_public.projects, p_first timestamp with time zone, p_ends_after integer, p_ends_on date)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a series ends one way at most, and not before its first date (in the project's zone) */
begin
  if p_ends_after is not null and p_ends_on is not null then
    raise exception 'A series ends after a number of posts or on a date, not both'
      using errcode = 'INVAL', hint = 'schedule.seriesEndsTwice';
  end if;
  if p_ends_on < (p_first at time zone p_project.timezone)::date then
    raise exception 'A series cannot end before its first post' using errcode = 'INVAL', hint = 'schedule.seriesEndsBeforeStart';
  end if;
end;
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
  select at into v_at from app_private.series_upcoming(v_series, p_now + interval '400 days') at limit 1;
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
  from (select (select at from app_private.series_upcoming(p_series, p_now + interval '400 days') at limit 1) as at) n
$function$;
