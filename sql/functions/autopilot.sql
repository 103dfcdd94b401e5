-- The autopilot functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.autopilot_horizon()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
AS $function$ select interval '7 days' $function$;

CREATE OR REPLACE FUNCTION app_private.autopilot_remove_slot_posts(p_plan_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: a slot switched off, moved or deleted takes back its future posts that were not sent
 * (waiting, in review, asked for approval, approved): their previews are withdrawn from the approver's
 * chat, their jobs dropped, and their slot times forgotten so the slot can fill again if it
 * comes back. Published, failed and rejected posts stay as history.
 */
declare
  v_row app_public.posts;
begin
  for v_row in
    select * from app_public.posts
    where plan_id = p_plan_id and status in ('draft', 'in_review', 'scheduled', 'approved') and scheduled_for > now()
    for update
  loop
    perform app_private.retract_approval(v_row, 'deleted');
    perform app_private.unqueue_post_jobs(v_row.id);
    delete from app_public.posts where id = v_row.id;
  end loop;
  delete from app_private.plan_fills where plan_id = p_plan_id and slot_at > now();
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.plan_slot_instant(p_local timestamp without time zone, p_timezone text)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
/*
 * why: the instant of a slot's wall time. A wall time the clocks pass twice runs once, at
 * the later instant (PostgreSQL's reading, which the calendar shares). A wall time the clocks
 * skip runs at the first minute after it that exists (02:30 on a spring-forward night in New
 * York is 03:00), not where PostgreSQL would put it (03:30).
 */
declare
  v_local timestamp := p_local;
begin
  for k in 0..1440 loop
    if ((v_local at time zone p_timezone) at time zone p_timezone) = v_local then
      return v_local at time zone p_timezone;
    end if;
    v_local := date_trunc('minute', p_local) + make_interval(mins => k + 1);
  end loop;
  return p_local at time zone p_timezone;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.plan_slot_times(p_plan app_public.content_plans, p_after timestamp with time zone, p_until timestamp with time zone)
 RETURNS SETOF timestamp with time zone
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the slot's instants in (p_after, p_until], one per week, from its day, wall time
     and time zone (day 0 is Sunday, as extract(dow) counts) */
  select t.at from (
    select app_private.plan_slot_instant(d::date + p_plan.time::time, p_plan.timezone) as at
    from generate_series((p_after at time zone p_plan.timezone)::date - 1,
                         (p_until at time zone p_plan.timezone)::date + 1, interval '1 day') d
    where extract(dow from d) = p_plan.day_of_week
  ) t
  where t.at > p_after and t.at <= p_until
  order by t.at
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_autopilot_fill(p_project_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: one pending fill per project, however many slots change at once (the job key);
     it runs at once, so a new slot's posts are on the calendar within seconds */
  select graphile_worker.add_job('content_plans__fill', json_build_object('projectId', p_project_id),
    job_key := 'autopilot:' || p_project_id, max_attempts := 5)
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_forecast(p_project_id bigint, p_now timestamp with time zone)
 RETURNS TABLE(drafts_left integer, runs_dry_at timestamp with time zone, low boolean, posts_per_week integer)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: how long the drafts queue lasts at the current plan plus series. Every future slot
 * time not filled yet and every occurrence a running series has still to make takes one
 * draft, in time order; the queue runs dry at the first of them left without one. None
 * within queue_forecast_days_max: runs_dry_at is null (it lasts longer, or nothing takes
 * drafts). Low: it runs dry within queue_low_days.
 */
declare
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
    cross join lateral app_private.series_upcoming(s, v_until) o(at)
    where s.project_id = p_project_id and s.is_recurring and s.status = 'draft' and o.at > p_now
  ) e
  order by e.at offset drafts_left limit 1;
  low := runs_dry_at is not null and runs_dry_at < p_now + make_interval(days => app_private.queue_low_days());
  return next;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_low_days()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: a queue that runs dry sooner than this many days is low: the interface warns and the
     owner gets a mail (QUEUE_LOW_DAYS in TypeScript) */
  select 3
$function$;

CREATE OR REPLACE FUNCTION app_public.autopilot_fill(p_project_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS SETOF app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: every active slot time of the project in the next 7 days gets one post, taken in time
 * order from the top unused draft of the queue (the drafts a series would take). A slot time
 * is filled once (plan_fills): the project row is locked so two runs wait for each other, and
 * the key refuses a second fill anyway. A slot time with no draft left stays empty until a
 * later run finds one. A draft with text goes to approval like any post; one without text
 * first gets AI text of the slot's length (posts__autopilot_content), which then asks for
 * approval. A queue left running dry within queue_low_days tells the owner (at most a
 * mail a day). p_now is the clock (tests drive days and DST nights through it).
 */
declare
  v_slot record;
  v_draft app_public.drafts;
  v_post app_public.posts;
begin
  perform 1 from app_public.projects where id = p_project_id for update;
  if not found or app_private.project_channel(p_project_id) is null then
    return;
  end if;
  for v_slot in
    select c.id as plan_id, c.post_length, t.at
    from app_public.content_plans c
    cross join lateral app_private.plan_slot_times(c, greatest(p_now, now()), p_now + app_private.autopilot_horizon()) t(at)
    where c.project_id = p_project_id and c.active
      and not exists (select 1 from app_private.plan_fills f where f.plan_id = c.id and f.slot_at = t.at)
    order by t.at, c.id
  loop
    select * into v_draft from app_public.available_series_drafts(p_project_id) limit 1;
    exit when not found;
    insert into app_public.posts (project_id, draft_id, plan_id, title, content, entities, image_url, image_urls, options, scheduled_for, awaiting_text)
    values (p_project_id, v_draft.id, v_slot.plan_id, v_draft.title, v_draft.content, v_draft.entities,
            v_draft.image_url, v_draft.image_urls, v_draft.options, v_slot.at, btrim(v_draft.content) = '')
    returning * into v_post;
    insert into app_private.plan_fills (plan_id, slot_at, post_id) values (v_slot.plan_id, v_slot.at, v_post.id);
    -- planned by autopilot, not by a person
    perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id,
      jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'planId', v_slot.plan_id), null);
    if v_post.awaiting_text then
      -- one account's AI work runs one job at a time (its own named queue, shared with its
      -- drafts' generation), so a plan of 50 empty slots holds one of the worker's AI slots
      perform graphile_worker.add_job('posts__autopilot_content',
        json_build_object('postId', v_post.id, 'postLength', v_slot.post_length),
        queue_name := app_private.ai_queue((select user_id from app_public.projects where id = p_project_id)),
        job_key := app_private.post_job_key(v_post.id, 'content'), max_attempts := 5);
    else
      perform app_private.queue_approval(v_post);
    end if;
    return next v_post;
  end loop;
  if (select f.low from app_private.queue_forecast(p_project_id, p_now) f) then
    perform app_private.notify_owner(p_project_id, 'queueLow', null);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.autopilot_post_to_write(p_post_id bigint)
 RETURNS TABLE(user_id bigint, project_id bigint, title text, name text, description text, sources text, writing_style jsonb, language text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the AI needs to write an autopilot post, while the post still waits for it
     (not written, not sent for approval); nothing once it was written, tried, or removed */
  select pr.user_id, pr.id, po.title, pr.name, pr.description, pr.sources, pr.writing_style, pr.language
  from app_public.posts po join app_public.projects pr on pr.id = po.project_id
  where po.id = p_post_id and po.awaiting_text and po.status = 'draft'
$function$;

CREATE OR REPLACE FUNCTION app_public.queue_autopilot_fills()
 RETURNS integer
 LANGUAGE sql
AS $function$
  /* why: the hourly pass keeps the 7 days ahead filled as time moves on and drafts arrive,
     and looks at the queue of every project something takes drafts from (an active slot, a
     running series): one fill job per project with a channel */
  with queued as (
    select app_private.queue_autopilot_fill(p.id) from app_public.projects p
    where app_private.project_channel(p.id) is not null
      and (exists (select 1 from app_public.content_plans c where c.project_id = p.id and c.active)
           or exists (select 1 from app_public.posts s where s.project_id = p.id and s.is_recurring and s.status = 'draft'))
  ) select count(*)::int from queued
$function$;

CREATE OR REPLACE FUNCTION app_public.queue_health(p_user_id bigint, p_project_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS TABLE(drafts_left integer, runs_dry_at timestamp with time zone, low boolean, posts_per_week integer)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the members' view of the queue's forecast (queue_forecast); a non-member is told "not found" */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  return query select * from app_private.queue_forecast(p_project_id, p_now);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_autopilot_content(p_post_id bigint, p_content text, p_entities jsonb, p_ai_error text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the AI's text goes into the autopilot post if it still has none (the owner may have
 * written one meanwhile); without it (AI unavailable, budget spent) the post keeps the
 * draft as it is and says why (posts.error.autopilotNoAi, with the AI's error code p_ai_error). Either way it now goes to approval, so a slot
 * is never silently lost.
 */
declare
  v_post app_public.posts;
begin
  select * into v_post from app_public.posts where id = p_post_id for update;
  if not found or v_post.status <> 'draft' then
    return null;
  end if;
  if not v_post.awaiting_text then
    return null; -- recorded already (a repeated job)
  end if;
  -- the owner may have written a text meanwhile: theirs stays
  update app_public.posts set
    content = case when btrim(content) = '' and p_content is not null then p_content else content end,
    entities = case when btrim(content) = '' and p_content is not null then coalesce(p_entities, '[]') else entities end,
    last_error_code = case when btrim(content) <> '' then last_error_code
      when p_ai_error is not null then 'posts.error.autopilotNoAi' end,
    last_error_params = case when btrim(content) <> '' then last_error_params
      when p_ai_error is not null then jsonb_build_object('reason', p_ai_error) else '{}' end,
    awaiting_text = false
  where id = p_post_id returning * into v_post;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;
