--! Previous: sha1:929135e3ae2afeaade7743c0d12d8fb7ee3bc2c2
--! Hash: sha1:ccc47ee07373c510fb39579cc6be74d9d225045a
--! Message: A press counts before its preview is recorded: the preview's round (and an edit's) travels in the buttons, and the connection question's answer counts by its request

--! split: 2-a-press-counts-before-its-preview-is-recorded.sql
-- A press on Approve/Reject (of a post or of an edit) names its preview's round in the buttons'
-- callback data and counts before the preview's message ids are recorded: the deciding
-- functions take the round, so their older forms go.
drop function if exists app_public.decide_post(bigint, bigint, bigint, boolean);
drop function if exists app_public.decide_post_edit(bigint, bigint, bigint, boolean);

--! split: 3-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.decide_approver_request(p_request_id bigint, p_from_user_id bigint, p_message_id bigint, p_decision text)
 RETURNS TABLE(outcome text, channel_link text, project_language text)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approver's answer, counted only from the pinned approver, on the message sent for
 * the request (or on the request its buttons name, while that message's id is not yet
 * recorded), while it is open; anything else is 'stale' and changes nothing. allow: the
 * channel becomes connected (or the approver moves), and other accounts' requests for the
 * chat are dropped; a chat connected meanwhile elsewhere refuses it ('taken'). deny: the
 * request is removed. block: removed, and that account never asks this approver again.
 */
declare
  v_request app_public.approver_requests;
  v_channel app_public.channels;
  v_language text;
begin
  select * into v_request from app_public.approver_requests r
  -- the question's message id is recorded after it is sent: a press that comes first, from the
  -- pinned approver on the request its buttons name, counts all the same
  where r.id = p_request_id and r.approver_user_id = p_from_user_id
    and (r.message_id = p_message_id or r.message_id is null)
    and r.created_at > now() - app_private.approver_request_ttl()
  for update;
  if not found or p_decision not in ('allow', 'deny', 'block') then
    return query select 'stale'::text, null::text, null::text;
    return;
  end if;
  select * into v_channel from app_public.channels where id = v_request.channel_id for update;
  select language into v_language from app_public.projects where id = v_channel.project_id;
  delete from app_public.approver_requests where id = v_request.id;
  if p_decision = 'block' then
    insert into app_public.approver_blocks (approver_user_id, user_id)
    values (v_request.approver_user_id, v_request.user_id) on conflict do nothing;
  end if;
  if p_decision <> 'allow' then
    delete from app_public.channels where id = v_channel.id and status = 'pending';
    return query select case when p_decision = 'block' then 'blocked' else 'denied' end, v_channel.link, v_language;
    return;
  end if;
  if v_request.kind = 'handover' then
    if v_channel.status <> 'connected' then
      return query select 'stale'::text, v_channel.link, v_language;
      return;
    end if;
    perform app_private.move_approver(v_channel, v_request);
    return query select 'approverChanged'::text, v_channel.link, v_language;
    return;
  end if;
  begin
    -- Telegram confirmed the approver when the request was made: trusted as old as that.
    update app_public.channels set status = 'connected', rights_checked_at = v_request.created_at
    where id = v_channel.id and status = 'pending';
  exception when unique_violation then
    delete from app_public.channels where id = v_channel.id and status = 'pending';
    return query select 'taken'::text, v_channel.link, v_language;
    return;
  end;
  -- Only one account holds the chat: the others' requests for it are refused now.
  delete from app_public.channels where chat_id = v_channel.chat_id and status = 'pending' and id <> v_channel.id;
  -- the statistics start from Telegram's count at connection (README "Statistics")
  perform app_private.queue_subscriber_sample(v_channel.id, now());
  return query select 'connected'::text, v_channel.link, v_language;
end;
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
 * claim records which chat the preview asks about, and the preview's round.
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
  -- the round names this preview in its buttons' callback data, so a press counts even before
  -- the preview's message ids are recorded (decide_post); a new claim is a new round
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_preview = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id,
      'round', floor(extract(epoch from clock_timestamp()) * 1000000)::bigint)
  where id = p_post_id returning * into v_post;
  return app_private.delivery(v_post);
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
  if p_approve then
    perform app_private.queue_publication(v_post.id, greatest(now(), v_post.scheduled_for));
  else
    perform app_private.notify_owner(v_post.project_id, 'postRejected', v_post.id);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_approval_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
 RETURNS boolean
 LANGUAGE sql
AS $function$
  /* why: remembers which message carries the buttons, so only that message can decide;
     a preview sent to someone who is no longer the approver records nothing */
  update app_public.posts p set approval_preview = jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)],
      'round', p.approval_preview -> 'round')
  where p.id = p_post_id and p.status = 'scheduled' and not (p.approval_preview ? 'chatId')
    and exists (select 1 from app_public.channels c where c.project_id = p.project_id and c.status = 'connected'
                and c.approver_user_id = p_chat_id and c.chat_id = p.approval_chat_id)
  returning true
$function$;

CREATE OR REPLACE FUNCTION app_private.edit_round(p_pending_edit jsonb)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: names an edit in its preview's buttons: when it was requested, in microseconds */
  select floor(extract(epoch from (p_pending_edit ->> 'requestedAt')::timestamptz) * 1000000)::bigint
$function$;

CREATE OR REPLACE FUNCTION app_public.decide_post_edit(p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean, p_round bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approver's press on an edit's Approve or Reject. Only the current edit's preview
 * counts, once, only from the channel's approver and while the post is in that channel:
 * its recorded buttons message, or, before the preview's ids are recorded, the edit its
 * buttons name (p_round: the edit's requestedAt in microseconds); anything else answers null. Approve
 * queues the edit in the channel; Reject drops it and the channel keeps the post as it is.
 */
declare
  v_post app_public.posts;
begin
  select p.* into v_post from app_public.posts p
  join app_public.channels c on c.project_id = p.project_id and c.status = 'connected' and c.approver_user_id = p_chat_id
  where p.id = p_post_id and p.status = 'published'
    -- the post is still in the project's channel: an edit of an older channel's post is history
    and not app_private.post_channel_changed(p.project_id, p.status, p.channel_chat_id, p.approved_chat_id)
    and (((p.pending_edit ->> 'chatId')::bigint = p_chat_id
          and (p.pending_edit ->> 'buttonsMessageId')::bigint = p_message_id)
         or (not (p.pending_edit ? 'buttonsMessageId')
             and app_private.edit_round(p.pending_edit) = p_round))
    and not (p.pending_edit ? 'approved')
  for update of p;
  if not found then
    return null;
  end if;
  if p_approve then
    update app_public.posts set pending_edit = pending_edit || '{"approved": true}' where id = p_post_id returning * into v_post;
    perform graphile_worker.add_job('posts__apply_edit', json_build_object('postId', p_post_id),
      job_key := app_private.post_job_key(p_post_id, 'apply-edit'), max_attempts := 10);
  else
    update app_public.posts set pending_edit = null where id = p_post_id returning * into v_post;
  end if;
  return v_post;
end;
$function$;
