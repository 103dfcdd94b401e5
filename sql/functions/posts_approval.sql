-- The posts approval functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.approval_lead()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
AS $function$ select interval '2 hours' $function$;

CREATE OR REPLACE FUNCTION app_private.approval_queue_name(p_project_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: Telegram lets the bot send about one message a second into one private chat, so
     every message for one approver waits its turn. Jobs writing to the approver run in one
     named queue per approver (one at a time), so a burst of previews for one approver holds
     one worker slot while it waits, never all of them: other accounts' sign-in mail, previews
     and posts keep theirs. Keyed by the Telegram user, not the project, so an account's many
     projects with one approver still share one slot. */
  select 'approver:' || coalesce(
    (select c.approver_user_id::text from app_public.channels c
      where c.project_id = p_project_id and c.status = 'connected' and c.approver_user_id is not null limit 1),
    'project:' || p_project_id)
$function$;

CREATE OR REPLACE FUNCTION app_private.approval_reminder_delay()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: the approver is reminded 10 minutes after the post's time (or after the preview, if
     it went out later than that). At the time itself a reminder would nag an approver who is
     about to press; by 10 minutes the post is visibly late to its readers, yet a quick
     decision still lands within the hour it was planned for. docs/publishing.md */
  select interval '10 minutes'
$function$;

CREATE OR REPLACE FUNCTION app_private.notify_admin(p_post_id bigint, p_kind text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the channel admin hears about failed and uncertain publications in Telegram, in the
 * approver's queue like every message to their chat: 57 failures at once wait there one a
 * second, holding one worker slot, not every slot other accounts need
 */
begin
  perform graphile_worker.add_job('posts__notify_admin', json_build_object('postId', p_post_id, 'kind', p_kind),
    queue_name := app_private.approval_queue_name((select project_id from app_public.posts where id = p_post_id)),
    max_attempts := 10);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_approval(p_post app_public.posts)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the approval request goes out 2 hours before the post's time, or at once if that is sooner */
  select app_private.queue_approval_at(p_post, greatest(now(), p_post.scheduled_for - app_private.approval_lead()))
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_approval_at(p_post app_public.posts, p_run_at timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: one post has one approval request job (keyed), in its approver's queue */
begin
  perform graphile_worker.add_job(
    'posts__send_approval', json_build_object('postId', p_post.id),
    queue_name := app_private.approval_queue_name(p_post.project_id),
    run_at := p_run_at,
    job_key := app_private.post_job_key(p_post.id, 'approval'),
    max_attempts := 10
  );
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_approval_reminder(p_post app_public.posts)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: one reminder job per post (keyed, so a new round replaces the old round's job), in the
 * approver's queue like every message to their chat: a hundred late posts wait there one a
 * second, holding one worker slot, never the slots other accounts need
 */
begin
  perform graphile_worker.add_job('posts__remind_approver', json_build_object('postId', p_post.id),
    queue_name := 'approver:' || (p_post.approval_preview ->> 'chatId'),
    run_at := greatest(p_post.scheduled_for, now()) + app_private.approval_reminder_delay(),
    job_key := app_private.post_job_key(p_post.id, 'reminder'),
    max_attempts := 3);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_waiting_approvals(p_project_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: posts planned before the project had a channel wait (schedule.waitingForChannel);
     once one is connected, those still to come are asked for as any post is (2 hours before,
     or at once). One already past its time keeps its reason: the owner publishes or moves it. */
  with waited as (
    update app_public.posts set last_error_code = null, last_error_params = '{}'
    where project_id = p_project_id and status = 'draft' and not is_recurring
      and last_error_code = 'schedule.waitingForChannel' and scheduled_for > now()
    returning *
  )
  select app_private.queue_approval(w::app_public.posts) from waited w;
$function$;

CREATE OR REPLACE FUNCTION app_private.restart_approval(p_post app_public.posts, p_scheduled_for timestamp with time zone)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: resend and move start a new round: the old preview is edited to say it no longer
 * applies, its buttons stop counting (the preview is forgotten, and the next claim names a
 * new round), and the preview goes again: at once for a resend, 2 hours before a moved time
 */
declare
  v_post app_public.posts;
begin
  perform app_private.retract_approval(p_post, case when p_scheduled_for = p_post.scheduled_for then 'resent' else 'moved' end);
  perform app_private.unqueue_post_jobs(p_post.id);
  -- it stays awaiting approval: the owner asked for it once, and the new claim takes it up
  update app_public.posts set status = 'scheduled', scheduled_for = p_scheduled_for, approval_preview = '{}',
    last_error_code = null, last_error_params = '{}'
  where id = p_post.id returning * into v_post;
  if p_scheduled_for = p_post.scheduled_for then
    perform app_private.queue_approval_at(v_post, now());
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.retract_approval(p_post app_public.posts, p_reason text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an approval message that no longer applies is edited to say so (its buttons then do
 * nothing). In the queue of the chat it edits: a channel deleted with 50 previews out edits 50
 * messages in one approver's chat at Telegram's one a second, holding one worker slot (the
 * channel may be gone already, so the queue is named by the preview's chat, not the project's)
 */
begin
  if p_post.approval_preview ? 'chatId' then
    perform graphile_worker.add_job('posts__retract_approval', json_build_object(
      'chatId', p_post.approval_preview -> 'chatId',
      'messageId', p_post.approval_preview -> 'buttonsMessageId',
      'reason', p_reason,
      'language', (select language from app_public.projects where id = p_post.project_id)),
      queue_name := 'approver:' || (p_post.approval_preview ->> 'chatId'));
  end if;
end;
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

CREATE OR REPLACE FUNCTION app_public.claim_approval_reminder(p_post_id bigint)
 RETURNS app_public.post_deliveries
 LANGUAGE plpgsql
AS $function$
/*
 * why: the reminder's guard, recorded before Telegram is called. It answers the post once
 * per round, only while the post is late and still waits on the preview it reminds of; a
 * second worker, a retried job or a job left from an older round finds remindedAt set (or
 * no sent preview) and sends nothing. A crash between this and the send loses that one
 * reminder: a reminder twice is worse than none, and the late flag still shows the owner.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set approval_preview = p.approval_preview || jsonb_build_object('remindedAt', now())
  where p.id = p_post_id and p.status = 'scheduled' and p.approval_preview ? 'buttonsMessageId'
    and not (p.approval_preview ? 'remindedAt') and p.scheduled_for <= now()
  returning * into v_post;
  if not found then
    return null;
  end if;
  return (select d from app_public.post_deliveries d where d.post_id = p_post_id);
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

CREATE OR REPLACE FUNCTION app_public.decide_post(p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean, p_round bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: an admin's press on Approve or Reject. It counts once, from the channel's pinned
 * approver, for a post still waiting, while the project's channel is the chat the preview
 * asked about, and on the current preview: its recorded buttons message, or, while the
 * preview's message ids are not yet recorded (the task records them after the last message
 * is sent, and a watchful approver may press first), the round its buttons name (p_round,
 * null on buttons sent before rounds). Anything else answers null and changes nothing.
 * Approval records the chat it was given for and queues the publication at the post's time
 * (at once if it has passed).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set status = case when p_approve then 'approved' else 'rejected' end,
    approved_chat_id = case when p_approve then p.approval_chat_id end
  where p.id = p_post_id and p.status = 'scheduled'
    and (((p.approval_preview ->> 'chatId')::bigint = p_chat_id
          and (p.approval_preview ->> 'buttonsMessageId')::bigint = p_message_id)
         or (not (p.approval_preview ? 'buttonsMessageId')
             and (p.approval_preview ->> 'round')::bigint = p_round))
    and exists (select 1 from app_public.channels c
                where c.project_id = p.project_id and c.status = 'connected'
                  and c.chat_id = p.approval_chat_id and c.approver_user_id = p_chat_id)
  returning * into v_post;
  if not found then
    return null;
  end if;
  perform app_private.log_activity(v_post.project_id, case when p_approve then 'post.approved' else 'post.rejected' end, 'post', v_post.id,
    jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), null, p_chat_id,
    (select c.approver_handle from app_public.channels c where c.project_id = v_post.project_id and c.status = 'connected'));
  if p_approve then
    perform app_private.queue_publication(v_post.id, greatest(now(), v_post.scheduled_for));
  else
    perform app_private.notify_owner(v_post.project_id, 'postRejected', v_post.id);
  end if;
  return v_post;
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

CREATE OR REPLACE FUNCTION app_public.record_approval_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
/* why: remembers which message carries the buttons, so only that message can decide, and
   queues the round's reminder for when the post is late; a preview sent to someone who is no
   longer the approver records nothing, nor one whose round was ended meanwhile (a resend or a
   move forgets the preview before its ids land: they must not make its buttons count again) */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set approval_preview = jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)],
      'round', p.approval_preview -> 'round')
  where p.id = p_post_id and p.status = 'scheduled' and not (p.approval_preview ? 'chatId')
    and p.approval_preview ? 'round'
    and exists (select 1 from app_public.channels c where c.project_id = p.project_id and c.status = 'connected'
                and c.approver_user_id = p_chat_id and c.chat_id = p.approval_chat_id)
  returning * into v_post;
  if not found then
    return null;
  end if;
  perform app_private.queue_approval_reminder(v_post);
  perform app_private.log_activity(v_post.project_id, 'post.approvalRequested', 'post', v_post.id,
    jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), null);
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's maximum (post_text_max) is refused here, naming the length and the maximum. A
 * post already sent for approval (the automatic request 2 hours before came first) answers
 * as it is: what the user asked for is under way. An author's Publish sends the post to
 * review instead (in_review), remembering that the approver is to be asked at once once it
 * is approved; pressed again while it waits, it answers the post as it is.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_review boolean := app_private.needs_review(app_private.authorize(p_user_id, p_project_id, 'posts.write'));
begin
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL', hint = 'schedule.seriesNotPublishable';
  end if;
  if v_post.status = 'scheduled' or (v_review and v_post.status = 'in_review' and v_post.review_publish) then
    return v_post;
  end if;
  if v_review and v_post.status = 'in_review' then
    update app_public.posts set review_publish = true where id = p_post_id returning * into v_post;
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL', hint = 'schedule.notPlanned';
  end if;
  if v_review then
    perform app_private.assert_publishable(v_post);
    return app_private.hold_for_review(v_post, p_user_id, true);
  end if;
  return app_private.send_for_approval(v_post);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.resend_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_scheduled_for timestamp with time zone)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the owner's answer to a post awaiting approval (most often a late one): send the
 * preview again as it is (p_scheduled_for null), or move the post to a new, future time.
 * Only a post sent for approval and not yet decided qualifies.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.publish');
begin
  if v_post.status <> 'scheduled' or v_post.is_recurring then
    raise exception 'Only a post awaiting approval can be sent again or moved' using errcode = 'EDPUB', hint = 'schedule.notAwaitingApproval';
  end if;
  if p_scheduled_for is not null and p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  -- a move is a new time, kept clear of the ads' top windows like any other
  if p_scheduled_for is not null and v_post.series_id is null and v_post.plan_id is null then
    perform app_private.assert_ad_window_free(p_project_id, p_post_id, p_scheduled_for, v_post.ad, v_post.options);
  end if;
  return app_private.restart_approval(v_post, coalesce(p_scheduled_for, v_post.scheduled_for));
end;
$function$;
