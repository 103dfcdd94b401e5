--! Previous: sha1:aea4ab868b9d0918ec882af7ecde2cda349df222
--! Hash: sha1:aafbbbc64f53397b8fa7fa811bfddf4f0b5f1f3a
--! Message: Post reasons as codes with params (the old sentences mapped once, last_error dropped), the low-queue threshold as queue_low_days(), statistics' functions in their file

--! split: 44-reasons-as-codes.sql
-- A post's reason is stored as a code with its params (contract/post_reasons.ts), worded
-- by whoever shows it; the English sentences of last_error are mapped to codes once, here,
-- and the column goes (nothing may read a reason back from its words again).
alter table app_public.posts add column if not exists last_error_code text;
alter table app_public.posts add column if not exists last_error_params jsonb not null default '{}';

do $migration$
begin
  if exists (select 1 from information_schema.columns
             where table_schema = 'app_public' and table_name = 'posts' and column_name = 'last_error') then
    update app_public.posts p set last_error_code = coalesce(m.code, 'posts.error.other'),
      last_error_params = coalesce(m.params, jsonb_build_object('text', p.last_error))
    from app_public.posts p0
    left join lateral (
      select f.code,
        (select coalesce(jsonb_object_agg(f.names[i], x.g[i]), '{}') from generate_subscripts(f.names, 1) i) as params
      from (values
        (1, '^@(.*?) is no longer an administrator of (.*) who may post messages$', 'posts.error.approverLost', array['handle', 'channel']),
        (2, '^The bot is no longer an administrator of (.*) who may post messages$', 'posts.error.botLost', array['channel']),
        (3, '^The channel (.*) was disconnected before this post went out; publish it again to send it for approval$',
            'posts.error.channelDisconnected', array['channel']),
        (4, '^The channel changed after this post was approved; publish it again to send it for approval$', 'posts.error.channelChanged', array[]::text[]),
        (5, '^The Telegram bot is not configured on the server$', 'posts.error.botNotConfigured', array[]::text[]),
        (6, '^The project has no connected channel$', 'posts.error.noChannel', array[]::text[]),
        (7, '^The project''s admin has not messaged the bot yet$', 'posts.error.adminNotRegistered', array[]::text[]),
        (8, '^The post''s image is missing from storage$', 'posts.error.imageMissing', array[]::text[]),
        (9, '^The worker stopped while sending; the post may or may not be in the channel$', 'posts.error.workerStopped', array[]::text[]),
        (9, '^The database went away while the post was being sent; it may or may not be in the channel$', 'posts.error.databaseLost', array[]::text[]),
        (10, '^schedule\.seriesOutOfDrafts$', 'schedule.seriesOutOfDrafts', array[]::text[]),
        (11, '^Connect a channel before publishing$', 'schedule.noChannelToPublish', array[]::text[]),
        (12, '^schedule\.captionTooLong: (\d+)/(\d+)$', 'schedule.captionTooLong', array['current', 'max']),
        (13, '^The AI could not write this post \((.*)\); it keeps its draft as it is$', 'posts.error.autopilotNoAi', array['reason']),
        (14, '^Telegram: (.*) \(the photo is in the channel; the text may not be\)$', 'posts.error.textUncertain', array['description']),
        (15, '^Telegram: (.*)\. The photo went out without its text and could not be removed: (.*)$', 'posts.error.photoAlone',
             array['description', 'removal']),
        (16, '^Telegram refused to deliver the approval request: (.*)$', 'posts.error.approvalUndelivered', array['description']),
        (17, '^Telegram refused the edit: (.*)$', 'posts.error.editRefused', array['description']),
        (18, '^Telegram: (.*)$', 'posts.error.telegram', array['description'])
      ) f(rank, pattern, code, names)
      cross join lateral (select regexp_match(p0.last_error, f.pattern, 's') as g) x
      where x.g is not null
      order by f.rank
      limit 1
    ) m on true
    where p.id = p0.id and p0.last_error is not null;

    -- the numbers stay numbers, as claim_post_for_approval writes them now
    update app_public.posts set last_error_params = jsonb_build_object(
      'current', (last_error_params ->> 'current')::int, 'max', (last_error_params ->> 'max')::int)
    where last_error_code = 'schedule.captionTooLong';

    -- the AI's failure is the code of its message (the words of the catalogue at this time)
    update app_public.posts p set last_error_params = jsonb_build_object('reason', ai.code)
    from (values
      ('AI is not configured on this server: set OPENAI_API_KEY (and OPENAI_BASE_URL / OPENAI_MODEL for another OpenAI-compatible server such as Ollama or vLLM), then restart.', 'ai.notConfigured'),
      ('Too many AI requests from this account. Please wait a minute and try again.', 'ai.rateLimited'),
      ('The daily AI budget of this account is spent. It renews at midnight UTC.', 'ai.dailyBudgetSpent'),
      ('The AI has reached this service''s daily limit for all accounts. It renews at midnight UTC.', 'ai.globalDailyLimit'),
      ('The request was cancelled.', 'ai.aborted'),
      ('The AI took too long to answer. Please try again.', 'ai.timeout'),
      ('The AI server cannot be reached right now. Please try again later.', 'ai.unreachable'),
      ('The AI server refused our API key: check OPENAI_API_KEY.', 'ai.unauthorized'),
      ('The AI server does not know the model set in OPENAI_MODEL.', 'ai.modelNotFound'),
      ('The AI provider is busy (rate limit reached). Please try again in a minute.', 'ai.providerBusy'),
      ('The AI provider had an error. Please try again.', 'ai.unavailable'),
      ('The AI provider refused the request. Please try again.', 'ai.badRequest'),
      ('The AI request failed. Please try again.', 'ai.failed'),
      ('The AI returned an empty answer. Please try again.', 'ai.emptyAnswer')
    ) ai(message, code)
    where p.last_error_code = 'posts.error.autopilotNoAi' and p.last_error_params ->> 'reason' = ai.message;

    alter table app_public.posts drop column last_error;
  end if;
end
$migration$;

-- The worker reads reasons as code and params too.
alter type app_public.post_delivery drop attribute if exists last_error;
do $migration$
begin
  if not exists (select 1 from pg_attribute
                 where attrelid = 'app_public.post_delivery'::regclass and attname = 'last_error_code' and not attisdropped) then
    alter type app_public.post_delivery add attribute last_error_code text, add attribute last_error_params jsonb;
  end if;
end
$migration$;

-- Each function that records a reason takes its code and params instead of its words.
drop function if exists app_public.fail_post_for_channel_rights(bigint, text);
drop function if exists app_private.withdraw_approvals(bigint, text, text);
drop function if exists app_private.withdraw_approval(bigint, text);
drop function if exists app_public.record_approval_failed(bigint, text);
drop function if exists app_public.record_edit_failed(bigint, text);
drop function if exists app_public.record_send_failed(bigint, text, boolean);
drop function if exists app_public.record_autopilot_content(bigint, text, jsonb, text);
drop function if exists app_public.owner_notification(bigint, text, bigint);

-- The low-queue threshold is the autopilot's (sql/functions/autopilot.sql), named as what it is.
drop function if exists app_private.queue_low_days_max();

--! split: 45-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.queue_low_days()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: a queue that runs dry sooner than this many days is low: the interface warns and the
     owner gets a mail (QUEUE_LOW_DAYS in TypeScript) */
  select 3
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

CREATE OR REPLACE FUNCTION app_private.withdraw_approvals(p_project_id bigint, p_reason_code text, p_reason_params jsonb, p_retract text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an approval belongs to the chat it was given for. When the project's channel goes
 * away, posts waiting for approval or approved and not yet sent return to draft with the
 * reason; their previews lose their buttons and their jobs are removed, so they need a new
 * Publish and approval and are never sent to a chat nobody approved. Posts already being
 * sent finish in the chat they were approved for.
 */
declare
  v_post app_public.posts;
begin
  for v_post in
    select * from app_public.posts
    where project_id = p_project_id and status in ('scheduled', 'approved') and not is_recurring
    for update
  loop
    perform app_private.retract_approval(v_post, p_retract);
    perform app_private.unqueue_post_jobs(v_post.id);
    perform app_private.withdraw_approval(v_post.id, p_reason_code, p_reason_params);
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_channel(p_user_id bigint, p_project_id bigint, p_channel_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: disconnecting a channel withdraws every approval given for it; another user's channel is "not found" */
declare
  v_link text;
begin
  delete from app_public.channels c using app_public.projects p
  where c.id = p_channel_id and c.project_id = p_project_id and p.id = c.project_id and p.user_id = p_user_id
  returning c.link into v_link;
  if not found then
    raise exception 'Channel not found' using errcode = 'NTFND', hint = 'channels.noSuchChannel';
  end if;
  perform app_private.withdraw_approvals(p_project_id, 'posts.error.channelDisconnected', jsonb_build_object('channel', v_link),
    'channelChanged');
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.fail_post_for_channel_rights(p_post_id bigint, p_reason_code text, p_reason_params jsonb)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the approver no longer administers the channel, or the bot may no longer post:
     the post fails with a reason its owner reads (and gets by mail), before anything is
     sent, and nobody in Telegram is sent anything (the former approver may no longer be
     entitled to see the post) */
  with failed as (
    update app_public.posts set status = 'failed', last_error_code = p_reason_code, last_error_params = p_reason_params,
      sending_worker_id = null
    where id = p_post_id
      and (status = 'approved' or (status = 'scheduled' and not (approval_preview ? 'chatId')))
    returning project_id, id
  )
  select app_private.notify_owner(project_id, 'channelLost', id) from failed
$function$;

CREATE OR REPLACE FUNCTION app_public.recover_from_dead_workers(p_dead_after interval)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: a worker that died (killed, machine lost) leaves its jobs locked for hours and its
 * posts in `sending`. Jobs locked by a worker without a recent heartbeat are unlocked (to
 * be run again; every task is guarded), and its sends become `uncertain` for the admin to
 * decide, never retried blindly. Answers how many posts became uncertain.
 */
declare
  v_dead text[];
  v_post record;
  v_count int := 0;
begin
  select coalesce(array_agg(distinct j.locked_by), '{}') into v_dead
  from graphile_worker._private_jobs j
  where j.locked_by is not null and j.locked_at < now() - p_dead_after
    and not exists (select 1 from app_private.worker_heartbeats h
                    where h.worker_id = j.locked_by and h.seen_at > now() - p_dead_after);
  if cardinality(v_dead) > 0 then
    perform graphile_worker.force_unlock_workers(v_dead);
  end if;
  for v_post in
    select p.id from app_public.posts p
    where p.status = 'sending' and p.sending_started_at < now() - p_dead_after
      and (p.sending_started_at < now() - interval '10 minutes' -- a live worker that lost track of it
           or not exists (select 1 from app_private.worker_heartbeats h
                          where h.worker_id = p.sending_worker_id and h.seen_at > now() - p_dead_after))
    for update skip locked
  loop
    perform app_public.record_send_failed(v_post.id, 'posts.error.workerStopped', '{}', false);
    v_count := v_count + 1;
  end loop;
  delete from app_private.worker_heartbeats where seen_at < now() - interval '1 day';
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.recover_from_live_workers(p_worker_ids text[], p_running_job_ids bigint[], p_sending_post_ids bigint[], p_after interval)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: a live worker process loses track of some of its work when the database goes away
 * under it (a restart, a failover): graphile-worker cannot record a job's end, and leaves it
 * locked by a worker whose heartbeat goes on (for hours, to graphile-worker); a lock or a
 * begin_sending may commit while its answer is lost. recover_from_dead_workers never sees
 * these, their worker being alive. So the process names its graphile-worker ids, the jobs
 * it is running and the posts it is sending: what else has been locked or sent under those
 * ids for longer than p_after is released as a dead worker's is (jobs unlocked to run
 * again, every task being guarded; sends uncertain for the admin, never retried blindly).
 * Answers how many posts became uncertain.
 */
declare
  v_post record;
  v_count int := 0;
begin
  update graphile_worker._private_jobs j set locked_by = null, locked_at = null
  where j.locked_by = any(p_worker_ids) and j.locked_at < now() - p_after
    and j.id <> all(p_running_job_ids);
  update graphile_worker._private_job_queues q set locked_by = null, locked_at = null
  where q.locked_by = any(p_worker_ids) and q.locked_at < now() - p_after
    and not exists (select 1 from graphile_worker._private_jobs j
                    where j.job_queue_id = q.id and j.id = any(p_running_job_ids));
  for v_post in
    select p.id from app_public.posts p
    where p.status = 'sending' and p.sending_worker_id = any(p_worker_ids)
      and p.sending_started_at < now() - p_after and p.id <> all(p_sending_post_ids)
    for update skip locked
  loop
    perform app_public.record_send_failed(v_post.id, 'posts.error.databaseLost', '{}', false);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.owner_notification(p_project_id bigint, p_kind text, p_post_id bigint)
 RETURNS TABLE(email text, project_name text, language text, timezone text, post_title text, scheduled_for timestamp with time zone, reason_code text, reason_params jsonb, runs_dry_at timestamp with time zone, drafts_left integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the mail about one event says, read when it is sent; nothing when the owner
     has switched that kind off meanwhile */
  select u.email, p.name, p.language, p.timezone, po.title, po.scheduled_for, po.last_error_code, po.last_error_params,
         f.runs_dry_at, f.drafts_left
  from app_public.projects p
  join app_public.users u on u.id = p.user_id
  left join app_public.posts po on po.id = p_post_id and po.project_id = p.id
  left join lateral app_private.queue_forecast(p.id, now()) f on p_kind = 'queueLow'
  where p.id = p_project_id and coalesce((u.notifications ->> p_kind)::boolean, true)
$function$;

CREATE OR REPLACE FUNCTION app_private.withdraw_approval(p_post_id bigint, p_reason_code text, p_reason_params jsonb)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a post whose approval no longer holds (no channel to ask, the channel disconnected
     or replaced) goes back to draft with the reason. It forgets its preview (sent or
     claimed), the chat that preview asked about and the chat it was approved for, so it
     needs a new Publish and approval and is never sent to a chat nobody approved. */
  update app_public.posts set status = 'draft', approval_preview = '{}', approval_chat_id = null,
    approved_chat_id = null, last_error_code = p_reason_code, last_error_params = p_reason_params
  where id = p_post_id
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_post_for_approval(p_post_id bigint, p_job_id text)
 RETURNS app_public.post_delivery
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over Telegram's maximum (post_text_max) fails the post with the reason instead of
 * sending; a project without a channel leaves it a draft saying so. The claim lets one job
 * send the preview when the automatic request and Publish meet; the same job retried after
 * a crash takes its claim back, and any job may take a claim older than two minutes. The
 * claim records which chat the preview asks about.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_preview ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > app_private.post_text_max() then
    update app_public.posts set status = 'failed',
      last_error_code = 'schedule.captionTooLong',
      last_error_params = jsonb_build_object('current', length(v_post.content), 'max', app_private.post_text_max())
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_preview ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_preview ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    perform app_private.withdraw_approval(p_post_id, 'schedule.noChannelToPublish', '{}');
    return null;
  end if;
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_preview = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id)
  where id = p_post_id returning * into v_post;
  return app_private.delivery(v_post);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_approval_failed(p_post_id bigint, p_reason_code text, p_reason_params jsonb)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the admin could not be reached (blocked the bot, no chat): the post returns to draft with the reason */
  update app_public.posts set status = 'draft', last_error_code = p_reason_code, last_error_params = p_reason_params,
    approval_preview = '{}'
  where id = p_post_id and status = 'scheduled' and not (approval_preview ? 'chatId')
$function$;

CREATE OR REPLACE FUNCTION app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's maximum (post_text_max) is refused here, naming the length and the maximum. A
 * post already sent for approval (the automatic request 2 hours before came first) answers
 * as it is: what the user asked for is under way.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_length int;
begin
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL', hint = 'schedule.seriesNotPublishable';
  end if;
  if v_post.status = 'scheduled' then
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL', hint = 'schedule.notPlanned';
  end if;
  v_length := length(v_post.content);
  if v_length > app_private.post_text_max() then
    raise exception 'schedule.captionTooLong: %/%', v_length, app_private.post_text_max() using errcode = 'CLONG', hint = 'schedule.captionTooLong';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN', hint = 'schedule.noChannelToPublish';
  end if;
  update app_public.posts set status = 'scheduled', last_error_code = null, last_error_params = '{}' where id = p_post_id returning * into v_post;
  perform app_private.queue_approval_at(v_post, now());
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_edit_applied(p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE sql
AS $function$
  /* why: Telegram edited the channel's message: the post now reads as approved, and says when */
  update app_public.posts set content = pending_edit ->> 'content', entities = pending_edit -> 'entities',
    options = options || jsonb_build_object('buttons', pending_edit -> 'buttons'), edited_at = now(), pending_edit = null,
    last_error_code = null, last_error_params = '{}'
  where id = p_post_id and status = 'published' and pending_edit ? 'approved'
  returning *
$function$;

CREATE OR REPLACE FUNCTION app_public.record_edit_failed(p_post_id bigint, p_reason_code text, p_reason_params jsonb)
 RETURNS app_public.posts
 LANGUAGE sql
AS $function$
  /* why: Telegram refused the approved edit for good (the message was deleted in the
     channel, the bot may no longer edit it): the edit is dropped, the post keeps reading as
     it does in the channel, and the reason says why */
  update app_public.posts set pending_edit = null, last_error_code = p_reason_code, last_error_params = p_reason_params
  where id = p_post_id and status = 'published' and pending_edit ? 'approved'
  returning *
$function$;

CREATE OR REPLACE FUNCTION app_private.delivery(p_post app_public.posts)
 RETURNS app_public.post_delivery
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a post with its project's connected channel and that channel's pinned approver */
  select p_post.id, p_post.status, p_post.title, p_post.content, p_post.image_url, p_post.scheduled_for,
         c.chat_id, c.link, c.approver_user_id,
         p_post.approval_preview, p_post.channel_message_ids, pr.language, pr.timezone,
         c.id, c.approver_handle, c.rights_checked_at, p_post.channel_chat_id, p_post.entities, p_post.options,
         p_post.image_urls, p_post.last_error_code, p_post.last_error_params
  from app_public.projects pr
  left join app_public.channels c on c.project_id = pr.id and c.status = 'connected'
  where pr.id = p_post.project_id
$function$;

CREATE OR REPLACE FUNCTION app_private.resolve_uncertain(p_post_id bigint, p_in_channel boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: only a person can tell whether an uncertain post reached the channel. "It is
 * there" records it published, linked to its first message when that is known (a photo
 * recorded before the text) and the channel is still the chat it went to; "Send again"
 * queues a new send, which first removes what of the post is known to be in the channel.
 * Answers null when the post is not uncertain (someone answered first). "It is there" is
 * refused once the chat it went to is no longer the project's channel (posts.channelChanged).
 */
declare
  v_post app_public.posts;
begin
  if p_in_channel then
    select * into v_post from app_public.posts where id = p_post_id and status = 'uncertain';
    if found then
      perform app_private.assert_post_in_channel(v_post);
    end if;
  end if;
  update app_public.posts p set
    status = case when p_in_channel then 'published' else 'approved' end,
    -- a message whose send answer was lost is in the chat it was approved for
    channel_chat_id = case when p_in_channel then coalesce(p.channel_chat_id, p.approved_chat_id) else p.channel_chat_id end,
    published_at = case when p_in_channel then now() else null end,
    published_links = case
      when p_in_channel and jsonb_array_length(p.channel_message_ids) > 0 then coalesce((
        select jsonb_build_object(regexp_replace(d.channel_link, '^@', ''),
          'https://t.me/' || regexp_replace(d.channel_link, '^@', '') || '/' || (p.channel_message_ids ->> 0))
        from app_private.delivery(p) d where d.channel_link is not null and d.channel_chat_id = p.channel_chat_id), '{}')
      else p.published_links end,
    last_error_code = null, last_error_params = '{}'
  where p.id = p_post_id and p.status = 'uncertain'
  returning * into v_post;
  if found and not p_in_channel then
    perform app_private.queue_publication(p_post_id, now());
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.begin_sending(p_post_id bigint, p_worker_id text)
 RETURNS app_public.post_delivery
 LANGUAGE plpgsql
AS $function$
/*
 * why: the publication's guard, committed before Telegram is called. From here on a crash
 * cannot lead to a second send: the post is `sending` with the worker's id, and only a
 * person (the admin) can send it again. A post is only sent to the chat it was approved
 * for: if the project's channel is another one now, it goes back to draft, saying why.
 */
declare
  v_post app_public.posts;
begin
  select * into v_post from app_public.posts
  where id = p_post_id and status = 'approved' and scheduled_for <= now() + interval '2 seconds'
  for update;
  if not found then
    return null;
  end if;
  if v_post.approved_chat_id is null
     or v_post.approved_chat_id is distinct from (app_private.project_channel(v_post.project_id)).chat_id then
    perform app_private.withdraw_approval(p_post_id, 'posts.error.channelChanged', '{}');
    return null;
  end if;
  update app_public.posts set status = 'sending', sending_worker_id = p_worker_id, sending_started_at = now()
  where id = p_post_id
  returning * into v_post;
  return app_private.delivery(v_post);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_published(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_links jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the send succeeded: keep the chat, its message ids and links; the draft leaves the
   list; a post to pin gets its pin (and its unpin) queued in the same step, so a crash
   cannot publish a post without them */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    channel_chat_id = p_chat_id, published_links = p_links, published_at = now(), sending_worker_id = null,
    last_error_code = null, last_error_params = '{}'
  where id = p_post_id and status in ('sending', 'uncertain')
  returning * into v_post;
  if not found then
    return v_post;
  end if;
  -- how late it went out (README "Metrics"); an early send counts as on time
  perform app_private.observe_metric('publish_lateness_seconds',
    greatest(0, extract(epoch from v_post.published_at - v_post.scheduled_for))::float8);
  if v_post.options ->> 'pin' = 'true' then
    perform app_private.queue_pinning(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_send_failed(p_post_id bigint, p_reason_code text, p_reason_params jsonb, p_definite boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: a definite refusal by Telegram fails the post with the reason; a lost answer or a
 * timeout leaves it uncertain (it may be in the channel). Either way the admin is told in
 * Telegram, and the owner by mail.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = case when p_definite then 'failed' else 'uncertain' end,
    last_error_code = p_reason_code, last_error_params = p_reason_params, sending_worker_id = null
  where id = p_post_id and status = 'sending'
  returning * into v_post;
  if found then
    perform app_private.notify_admin(p_post_id, case when p_definite then 'failed' else 'uncertain' end);
    perform app_private.notify_owner(v_post.project_id, 'postFailed', p_post_id);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post's time cannot be edited (its text
 * goes to the approver, and only while its chat is the project's channel); one being sent
 * cannot be edited at all. An edited post that was already sent for approval goes back to draft:
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
    -- only while it is in the project's channel: the chat's own administrators never
    -- approved a later approver or channel
    perform app_private.assert_post_in_channel(v_post);
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
    last_error_code = null, last_error_params = '{}'
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

CREATE OR REPLACE FUNCTION app_public.spawn_series_occurrence(p_series_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the rotation. The series' next occurrence becomes its own post taking the next
 * available draft by order (skipped dates passed over); the series advances
 * (recurring_last_post, series_made) and the next spawn is queued, unless it has ended. With no draft left the series stops and says why (last_error_code). p_now is
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
    update app_public.posts set status = 'failed', last_error_code = 'schedule.seriesOutOfDrafts', last_error_params = '{}' where id = v_series.id;
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
