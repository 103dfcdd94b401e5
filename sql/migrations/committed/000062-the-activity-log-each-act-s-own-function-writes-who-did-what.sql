--! Previous: sha1:b37ec06a64b622baf48fb7da20974d71c5585f9e
--! Hash: sha1:0ca43b2480a5c3557394f9a9ff093a299ac4dc71
--! Message: The activity log: each act's own function writes who did what (a member, the approver in Telegram, or Pressa) in its transaction; GET …/activity pages it newest first

--! split: 63-activity.sql
-- The activity log of a project (docs/teams.md): who did what, written by the act's own
-- function in the act's transaction, so it cannot drift from what happened.
create table app_public.activity (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects (id) on delete cascade,
  at timestamptz not null default now(),
  -- a member (actor_user_id), the channel's approver in Telegram (actor_telegram_id,
  -- actor_handle), or Pressa itself (autopilot, a series, a send, a failure)
  actor_type text not null check (actor_type in ('user', 'telegram', 'system')),
  actor_user_id bigint references app_public.users (id) on delete set null,
  actor_telegram_id bigint,
  actor_handle text,
  action text not null,
  target_type text not null,
  target_id bigint,
  details jsonb not null default '{}'
);
create index activity_project_idx on app_public.activity (project_id, id desc);
-- the filter by member reads one member's entries of a project, newest first
create index activity_project_actor_idx on app_public.activity (project_id, actor_user_id, id desc) where actor_user_id is not null;

--! split: 64-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.log_activity(p_project_id bigint, p_action text, p_target_type text, p_target_id bigint, p_details jsonb, p_user_id bigint DEFAULT NULL::bigint, p_telegram_id bigint DEFAULT NULL::bigint, p_handle text DEFAULT NULL::text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: one line of a project's activity, written by the act's own function in its
     transaction: a member acted (p_user_id), the approver in Telegram (p_telegram_id), or
     nobody, Pressa itself (system) */
  insert into app_public.activity (project_id, actor_type, actor_user_id, actor_telegram_id, actor_handle, action,
                                   target_type, target_id, details)
  values (p_project_id,
          case when p_user_id is not null then 'user' when p_telegram_id is not null then 'telegram' else 'system' end,
          p_user_id, p_telegram_id, p_handle, p_action, p_target_type, p_target_id, coalesce(p_details, '{}'))
$function$;

CREATE OR REPLACE FUNCTION app_public.project_activity(p_user_id bigint, p_project_id bigint, p_before bigint, p_limit integer, p_actor_user_id bigint, p_action text)
 RETURNS TABLE(id bigint, at timestamp with time zone, actor jsonb, action text, target jsonb, details jsonb)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the Activity page, newest first, a page at a time from before an entry's id (so
     entries written meanwhile never shift a page), for any member; filtered by the member
     who acted and by action when asked. An actor whose account is gone shows without an
     address. */
  select a.id, a.at,
    case a.actor_type
      when 'user' then jsonb_build_object('type', 'user', 'userId', a.actor_user_id, 'email', u.email)
      when 'telegram' then jsonb_build_object('type', 'telegram', 'userId', a.actor_telegram_id, 'handle', a.actor_handle)
      else jsonb_build_object('type', 'system')
    end,
    a.action, jsonb_build_object('type', a.target_type, 'id', a.target_id), a.details
  from app_public.activity a
  left join app_public.users u on u.id = a.actor_user_id
  where a.project_id = p_project_id
    and (p_before is null or a.id < p_before)
    and (p_actor_user_id is null or a.actor_user_id = p_actor_user_id)
    and (p_action is null or a.action = p_action)
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by a.id desc
  limit p_limit
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
  -- the statistics start from Telegram's count at connection (docs/statistics.md)
  perform app_private.queue_subscriber_sample(v_channel.id, now());
  perform app_private.queue_waiting_approvals(v_channel.project_id);
  -- connected by the approver's Allow, on the member's request
  perform app_private.log_activity(v_channel.project_id, 'channel.connected', 'channel', v_channel.id,
    jsonb_build_object('channel', v_channel.link, 'requestedBy', v_request.user_id), null, p_from_user_id, v_request.approver_handle);
  return query select 'connected'::text, v_channel.link, v_language;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_channel(p_user_id bigint, p_project_id bigint, p_channel_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: disconnecting a channel withdraws every approval given for it and revokes its invite
   links (they stay listed); a channel of another project is "not found" */
declare
  v_link text;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'channel.manage');
  select c.link into v_link from app_public.channels c
  where c.id = p_channel_id and c.project_id = p_project_id
  for update of c;
  if not found then
    raise exception 'Channel not found' using errcode = 'NTFND', hint = 'channels.noSuchChannel';
  end if;
  perform app_private.revoke_channel_invite_links(p_channel_id);
  delete from app_public.channels where id = p_channel_id;
  perform app_private.log_activity(p_project_id, 'channel.disconnected', 'channel', p_channel_id, jsonb_build_object('channel', v_link), p_user_id);
  perform app_private.withdraw_approvals(p_project_id, 'posts.error.channelDisconnected', jsonb_build_object('channel', v_link),
    'channelChanged');
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.bulk_create_drafts(p_user_id bigint, p_project_id bigint, p_titles text[], p_max_drafts integer DEFAULT NULL::integer)
 RETURNS SETOF app_public.drafts
 LANGUAGE plpgsql
AS $function$
/*
 * why: bulk add (spec §5): lines are trimmed, blank ones ignored, at most bulk_add_lines_max
 * remain, all inserted together (within the project's room) and appended after the existing
 * drafts in the given order.
 */
declare
  v_titles text[];
  v_next int;
  v_draft app_public.drafts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  select coalesce(array_agg(btrim(t) order by n), '{}') into v_titles
  from unnest(p_titles) with ordinality as u(t, n)
  where btrim(t) <> '';
  if cardinality(v_titles) = 0 then
    raise exception 'drafts.bulkAddFailed' using errcode = 'INVAL', hint = 'drafts.bulkAddFailed';
  end if;
  if cardinality(v_titles) > app_private.bulk_add_lines_max() then
    raise exception 'drafts.bulkAddMaxLinesError' using errcode = 'INVAL', hint = 'drafts.bulkAddMaxLinesError';
  end if;
  perform app_private.assert_draft_room(p_project_id, cardinality(v_titles), p_max_drafts);
  select coalesce(max(sort_order) + 1, 0) into v_next from app_public.drafts where project_id = p_project_id;
  for v_draft in
    insert into app_public.drafts (project_id, title, sort_order)
    select p_project_id, t, v_next + (n - 1)::int from unnest(v_titles) with ordinality as u(t, n)
    returning *
  loop
    perform app_private.log_activity(p_project_id, 'draft.created', 'draft', v_draft.id,
      jsonb_build_object('title', v_draft.title), p_user_id);
    return next v_draft;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_draft(p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order integer, p_max_drafts integer DEFAULT NULL::integer, p_entities jsonb DEFAULT '[]'::jsonb, p_options jsonb DEFAULT '{}'::jsonb, p_image_urls text[] DEFAULT NULL::text[])
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0 as in the spec's data */
declare
  v_draft app_public.drafts;
  v_images text[];
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  -- an album when one is given, else the one image
  v_images := app_private.assert_project_uploads(p_project_id, coalesce(p_image_urls, array_remove(array[nullif(p_image_url, '')], null)));
  insert into app_public.drafts (project_id, title, content, entities, image_url, image_urls, options, sort_order)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), coalesce(p_entities, '[]'), v_images[1], v_images,
          coalesce(p_options, '{}'), coalesce(p_order, 0))
  returning * into v_draft;
  perform app_private.log_activity(p_project_id, 'draft.created', 'draft', v_draft.id, jsonb_build_object('title', v_draft.title), p_user_id);
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the delete guard of spec §5: a draft whose linked post is still in status draft
 * (planned but not sent for approval) cannot be deleted. Answers the deleted row (its
 * image may need cleaning up).
 */
declare
  v_draft app_public.drafts := app_private.lock_draft(p_user_id, p_project_id, p_draft_id);
begin
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and status = 'draft') then
    raise exception 'drafts.cannotDeleteScheduled' using errcode = 'DRSCH', hint = 'drafts.cannotDeleteScheduled';
  end if;
  delete from app_public.drafts where id = p_draft_id;
  perform app_private.log_activity(p_project_id, 'draft.deleted', 'draft', p_draft_id, jsonb_build_object('title', v_draft.title), p_user_id);
  return v_draft;
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
  perform app_private.log_activity(v_post.project_id, 'post.published', 'post', v_post.id,
    jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'url',
      (select l.value from jsonb_each_text(v_post.published_links) l order by l.key limit 1)), null);
  -- how late it went out (docs/operating.md "Metrics"); an early send counts as on time
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
    perform app_private.log_activity(v_post.project_id, 'post.failed', 'post', v_post.id,
      jsonb_build_object('title', v_post.title, 'reason', p_reason_code, 'params', p_reason_params, 'uncertain', not p_definite), null);
    perform app_private.notify_admin(p_post_id, case when p_definite then 'failed' else 'uncertain' end);
    perform app_private.notify_owner(v_post.project_id, 'postFailed', p_post_id);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_delete_series boolean)
 RETURNS SETOF app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: deletes a post (or, for a series or one of its occurrences with p_delete_series,
 * the series and its unpublished occurrences) and every job that would act on it. Answers
 * the deleted rows so the caller can remove their channel messages. A post being sent
 * right now cannot be deleted.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_series_id bigint;
  v_row app_public.posts;
begin
  -- what reached Telegram (an approver's preview, the channel) is the publishing roles' to take back
  if v_post.status not in ('draft', 'rejected', 'failed') then
    perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
  end if;
  v_series_id := case when v_post.is_recurring then v_post.id else v_post.series_id end;
  for v_row in
    select * from app_public.posts
    where project_id = p_project_id
      and (id = p_post_id
           or (p_delete_series and v_series_id is not null
               and (id = v_series_id or (series_id = v_series_id and status <> 'published'))))
    for update
  loop
    if v_row.status = 'sending' then
      raise exception 'The post is being published right now; try again in a moment' using errcode = 'EDPUB', hint = 'schedule.cannotDeleteSending';
    end if;
    perform app_private.retract_approval(v_row, 'deleted');
    perform app_private.unqueue_post_jobs(v_row.id);
    delete from app_public.posts where id = v_row.id;
    perform app_private.log_activity(p_project_id, 'post.deleted', 'post', v_row.id,
      jsonb_build_object('title', v_row.title, 'scheduledFor', v_row.scheduled_for, 'status', v_row.status), p_user_id);
    return next v_row;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content, formatting and image it copies, and its options unless the request gives its
 * own. Recurring: a series with placeholder text whose occurrences take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute). A project without a channel plans too:
 * its posts wait for one (claim_post_for_approval, queue_waiting_approvals).
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'posts.write');
  v_project app_public.projects := (select p from app_public.projects p where p.id = p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
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
    perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'recurring', v_post.recurring_type), p_user_id);
    return v_post;
  end if;
  v_draft := app_private.draft_for_post(p_project_id, p_draft_id, null);
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, image_urls, options, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          coalesce(p_options, v_draft.options), p_scheduled_for)
  returning * into v_post;
  perform app_private.queue_approval(v_post);
  perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
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
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
    -- the channel's text is the publishing roles' to change
    perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
    -- only while it is in the project's channel: the chat's own administrators never
    -- approved a later approver or channel
    perform app_private.assert_post_in_channel(v_post);
    -- its time and recurrence are history; its text, formatting and buttons may change
    -- through the approver (request_post_edit)
    if date_trunc('milliseconds', p_scheduled_for) <> date_trunc('milliseconds', v_post.scheduled_for) or v_recurring
       or v_post.is_recurring then
      raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
    end if;
    perform app_private.log_activity(p_project_id, 'post.edited', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'published', true), p_user_id);
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
  perform app_private.log_activity(p_project_id, 'post.edited', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb, p_approver jsonb)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
/*
 * why: PATCH semantics: only the keys present in p_changes change. A new admin handle on a
 * project with a connected channel must come with the approver Telegram confirmed for that
 * very chat (p_approver: userId, handle, name, chatId; see approver_change_prerequisites),
 * else nothing changes (APRNV). The new approver is then asked in Telegram, and the old one
 * stays (the handle too) until the new one allows (decide_approver_request); naming the
 * current handle again withdraws that question. A channel still waiting for the old
 * handle's Allow is dropped: it asked someone who is no longer named.
 */
declare
  v_project app_public.projects;
  v_channel app_public.channels;
  v_handle text := ltrim(btrim(p_changes ->> 'adminHandle'), '@');
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.update');
  select * into v_project from app_public.projects where id = p_project_id for update;
  select * into v_channel from app_public.channels where project_id = p_project_id for update;
  if v_handle is not null and v_channel.id is not null then
    perform app_private.drop_expired_approver_requests();
    delete from app_public.approver_requests where channel_id = v_channel.id and kind = 'handover';
    if lower(v_handle) <> lower(v_project.admin_handle) and v_channel.status = 'pending' then
      delete from app_public.channels where id = v_channel.id;
    elsif lower(v_handle) <> lower(v_project.admin_handle) then
      if p_approver is null or lower(ltrim(p_approver ->> 'handle', '@')) <> lower(v_handle)
         or (p_approver ->> 'chatId')::bigint is distinct from v_channel.chat_id then
        raise exception 'The new admin @% is not confirmed as an administrator of %', v_handle, v_channel.link
          using errcode = 'APRNV', hint = 'projects.approverNotConfirmed';
      end if;
      perform app_private.open_approver_request(v_channel.id, p_user_id, 'handover',
        (p_approver ->> 'userId')::bigint, v_handle, p_approver ->> 'name');
      v_handle := null;
    end if;
  end if;
  update app_public.projects p set
    name = coalesce(btrim(p_changes ->> 'name'), p.name),
    description = coalesce(p_changes ->> 'description', p.description),
    writing_style = coalesce(p_changes -> 'writingStyle', p.writing_style),
    admin_handle = coalesce(v_handle, p.admin_handle),
    timezone = coalesce(p_changes ->> 'timezone', p.timezone),
    language = coalesce(p_changes ->> 'language', p.language),
    sources = coalesce(p_changes ->> 'sources', p.sources)
  where p.id = p_project_id
  returning * into v_project;
  if p_changes <> '{}' then
    perform app_private.log_activity(p_project_id, 'project.updated', 'project', p_project_id,
      jsonb_build_object('fields', (select jsonb_agg(k order by k) from jsonb_object_keys(p_changes) k)), p_user_id);
  end if;
  return v_project;
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
  -- made by the series, not by a person
  perform app_private.log_activity(v_occurrence.project_id, 'post.scheduled', 'post', v_occurrence.id,
    jsonb_build_object('title', v_occurrence.title, 'scheduledFor', v_occurrence.scheduled_for, 'seriesId', v_series.id), null);
  return v_occurrence;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.accept_invitation(p_user_id bigint, p_token text, p_max_members integer)
 RETURNS TABLE(project_id bigint, role text)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the link works once, for the address it was sent to (the signed-in account's e-mail,
 * compared case-insensitively), within 7 days. Someone who is a member already keeps the
 * higher of the two roles: an invitation never demotes.
 */
declare
  v_invitation app_public.project_invitations;
  v_email text := (select lower(email) from app_public.users where id = p_user_id);
  v_role text;
begin
  select * into v_invitation from app_public.project_invitations
  where token_hash = sha256(convert_to(p_token, 'UTF8')) for update;
  if not found or v_invitation.accepted_at is not null or v_invitation.withdrawn_at is not null
     or v_invitation.expires_at <= now() then
    raise exception 'This invitation was used, withdrawn or has expired' using errcode = 'TGONE', hint = 'team.invitationGone';
  end if;
  if lower(v_invitation.email) <> v_email then
    raise exception 'This invitation was sent to another e-mail address' using errcode = 'FORBD', hint = 'team.invitationForAnotherEmail';
  end if;
  perform 1 from app_public.projects where id = v_invitation.project_id for update;
  select m.role into v_role from app_public.project_members m where m.project_id = v_invitation.project_id and m.user_id = p_user_id;
  if v_role is null then
    if (select count(*) from app_public.project_members m where m.project_id = v_invitation.project_id) >= p_max_members then
      raise exception 'A project can have at most % members, invitations included', p_max_members
        using errcode = 'QUOTA', hint = 'team.membersLimit';
    end if;
    insert into app_public.project_members (project_id, user_id, role) values (v_invitation.project_id, p_user_id, v_invitation.role);
    v_role := v_invitation.role;
    perform app_private.log_activity(v_invitation.project_id, 'member.joined', 'member', p_user_id,
      jsonb_build_object('email', v_email, 'role', v_role), p_user_id);
  elsif array_position(array['viewer', 'author', 'editor', 'owner'], v_invitation.role)
        > array_position(array['viewer', 'author', 'editor', 'owner'], v_role) then
    update app_public.project_members m set role = v_invitation.role
    where m.project_id = v_invitation.project_id and m.user_id = p_user_id;
    v_role := v_invitation.role;
  end if;
  update app_public.project_invitations set accepted_at = now(), accepted_by = p_user_id where id = v_invitation.id;
  return query select v_invitation.project_id, v_role;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.change_member_role(p_user_id bigint, p_project_id bigint, p_member_id bigint, p_role text)
 RETURNS TABLE(user_id bigint, email text, role text, joined_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: an owner gives a member another role; the last owner cannot be demoted (team.lastOwner) */
declare
  v_from text;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  perform 1 from app_public.projects where id = p_project_id for update;
  select m.role into v_from from app_public.project_members m where m.project_id = p_project_id and m.user_id = p_member_id;
  update app_public.project_members m set role = p_role where m.project_id = p_project_id and m.user_id = p_member_id;
  if not found then
    raise exception 'Member not found' using errcode = 'NTFND', hint = 'team.memberNotFound';
  end if;
  perform app_private.assert_owner_remains(p_project_id);
  if v_from is distinct from p_role then
    perform app_private.log_activity(p_project_id, 'member.roleChanged', 'member', p_member_id,
      jsonb_build_object('email', (select u.email from app_public.users u where u.id = p_member_id), 'from', v_from, 'to', p_role), p_user_id);
  end if;
  return query
  select m.user_id, u.email, m.role, m.joined_at
  from app_public.project_members m join app_public.users u on u.id = m.user_id
  where m.project_id = p_project_id and m.user_id = p_member_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_member(p_user_id bigint, p_project_id bigint, p_email text, p_role text, p_token text, p_max_members integer, p_max_per_day integer)
 RETURNS app_public.project_invitations
 LANGUAGE plpgsql
AS $function$
/*
 * why: an owner invites an address with a role; the mail with the link is queued in the same
 * transaction. The token is kept only as its hash. A second invitation to the same address
 * replaces the first (its link stops working). Nobody can use Pressa to mail strangers at
 * volume: an account sends at most p_max_per_day invitations a day, and an address gets no
 * more mail from invitations and sign-in codes together than sign-in allows (3 in 10 minutes).
 */
declare
  v_email text := lower(btrim(p_email));
  v_invitation app_public.project_invitations;
  v_sent int;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  perform 1 from app_public.projects where id = p_project_id for update;
  if exists (select 1 from app_public.project_members m join app_public.users u on u.id = m.user_id
             where m.project_id = p_project_id and lower(u.email) = v_email) then
    raise exception '% is already a member of this project', v_email using errcode = 'INVAL', hint = 'team.alreadyMember';
  end if;
  if (select count(*) from app_public.project_members where project_id = p_project_id)
     + (select count(*) from app_public.project_invitations
        where project_id = p_project_id and accepted_at is null and withdrawn_at is null and expires_at > now()
          and lower(email) <> v_email) >= p_max_members then
    raise exception 'A project can have at most % members, invitations included', p_max_members
      using errcode = 'QUOTA', hint = 'team.membersLimit';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('invitations_by:' || p_user_id, 0));
  select count(*) into v_sent from app_public.project_invitations
  where invited_by = p_user_id and created_at > now() - interval '1 day';
  if v_sent >= p_max_per_day then
    raise exception 'An account can send at most % invitations a day. Please try again later.', p_max_per_day
      using errcode = 'RATEL', hint = 'team.tooManyInvitations',
            detail = (select ceil(extract(epoch from min(created_at) + interval '1 day' - now()))::int
                      from app_public.project_invitations where invited_by = p_user_id and created_at > now() - interval '1 day');
  end if;
  -- the address's mail limit is sign-in's own, taken under sign-in's lock for the address
  perform pg_advisory_xact_lock(hashtextextended('sign_in_code:' || v_email, 0));
  if app_private.sign_in_mails_to(v_email)
     + (select count(*) from app_public.project_invitations where lower(email) = v_email and created_at > now() - interval '10 minutes') >= 3 then
    raise exception 'Too many mails to this address. Please wait 10 minutes and try again.'
      using errcode = 'RATEL', hint = 'team.addressBusy', detail = '600';
  end if;
  update app_public.project_invitations set withdrawn_at = now()
  where project_id = p_project_id and lower(email) = v_email and accepted_at is null and withdrawn_at is null;
  insert into app_public.project_invitations (project_id, email, role, token_hash, invited_by)
  values (p_project_id, v_email, p_role, sha256(convert_to(p_token, 'UTF8')), p_user_id)
  returning * into v_invitation;
  perform app_private.log_activity(p_project_id, 'member.invited', 'invitation', v_invitation.id,
    jsonb_build_object('email', v_invitation.email, 'role', v_invitation.role), p_user_id);
  perform graphile_worker.add_job('team__send_invitation',
    json_build_object('invitationId', v_invitation.id, 'token', p_token), max_attempts := 8);
  return v_invitation;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.remove_member(p_user_id bigint, p_project_id bigint, p_member_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an owner removes a member, or a member leaves; the last owner can do neither. The
 * removed account's next request to the project answers "not found", as every call asks
 * app_private.authorize. Its AI chat with the project stays the project's.
 */
declare
  v_role text;
begin
  if p_member_id = p_user_id then
    perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  else
    perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  end if;
  perform 1 from app_public.projects where id = p_project_id for update;
  delete from app_public.project_members m where m.project_id = p_project_id and m.user_id = p_member_id
  returning m.role into v_role;
  if not found then
    raise exception 'Member not found' using errcode = 'NTFND', hint = 'team.memberNotFound';
  end if;
  perform app_private.assert_owner_remains(p_project_id);
  perform app_private.log_activity(p_project_id, 'member.removed', 'member', p_member_id,
    jsonb_build_object('email', (select u.email from app_public.users u where u.id = p_member_id), 'role', v_role,
                       'left', p_member_id = p_user_id), p_user_id);
end;
$function$;
