--! Previous: sha1:29f265a940d5347f70b9f5644e8a624755c59a71
--! Hash: sha1:2a3acc9f1c73e881084a12bf03cb5408b2e27507
--! Message: An approval job whose key passed to a newer job while it ran asks nothing (a move got its preview early from the old job); an ad's removal and its reminder are written to the project's activity

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.record_ad_removed(p_post_id bigint)
 RETURNS boolean
 LANGUAGE sql
AS $function$
  /* why: the ad's messages are gone from its channel: recorded once, with its line in the
     project's activity (Pressa did it), in one statement (a second worker or a run after a
     crash finds it set and changes nothing); answers whether this call did */
  with removed as (
    update app_public.posts set ad_removed_at = now(), ad_removal_blocked_at = null
    where id = p_post_id and status = 'published' and ad is not null and ad_removed_at is null
    returning id, project_id, title
  )
  select count(*) > 0 from (
    select app_private.log_activity(r.project_id, 'post.adRemoved', 'post', r.id, jsonb_build_object('title', r.title)) from removed r
  ) logged
$function$;

CREATE OR REPLACE FUNCTION app_public.remind_ad_removal(p_post_id bigint)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
/*
 * why: an ad the bot cannot delete (its term is 48 hours or more) is due for removal by hand:
 * recorded once with its notices queued in the same transaction, so a second worker, a retry
 * or a run after a crash reminds nobody twice, and a crash before the commit loses nothing.
 * Answers whether this call reminded.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set ad_removal_reminded_at = now()
  where id = p_post_id and status = 'published' and ad is not null and ad_removed_at is null and ad_removal_reminded_at is null
  returning * into v_post;
  if not found then
    return false;
  end if;
  perform app_private.tell_ad_owners(v_post, 'adRemovalDue');
  perform app_private.log_activity(v_post.project_id, 'post.adRemovalDue', 'post', v_post.id, jsonb_build_object('title', v_post.title));
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_post_for_approval(p_post_id bigint, p_job_id text)
 RETURNS app_public.post_deliveries
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over Telegram's maximum (post_text_max) fails the post with the reason instead of
 * sending; a project without a channel leaves it a draft waiting for one (queue_waiting_approvals). The claim lets one job
 * send the preview when the automatic request and Publish meet; the same job retried after
 * a crash takes its claim back, and any job may take a claim older than two minutes; a job
 * whose key passed to a newer job meanwhile asks nothing. The claim records which chat the
 * preview asks about, and the preview's round.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  -- a post waiting for review (in_review) never reaches the approver, whatever job asks
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
  -- a job that was running when the post's request was queued again (a move or a resend:
  -- graphile-worker gives the key to a new job while this one is locked) is stale: the new
  -- job asks at its own time, so a move never gets its preview early from the old job
  if exists (select 1 from graphile_worker._private_jobs j
             where j.key = app_private.post_job_key(p_post_id, 'approval') and j.id::text is distinct from p_job_id) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    -- planned before a channel: it waits, saying so, and is asked for again on connection
    perform app_private.withdraw_approval(p_post_id, 'schedule.waitingForChannel', '{}');
    return null;
  end if;
  -- the round names this preview in its buttons' callback data, so a press counts even before
  -- the preview's message ids are recorded (decide_post); a new claim is a new round
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_preview = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id,
      'round', floor(extract(epoch from clock_timestamp()) * 1000000)::bigint)
  where id = p_post_id;
  return (select d from app_public.post_deliveries d where d.post_id = p_post_id);
end;
$function$;
