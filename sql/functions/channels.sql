-- The channels functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.assert_post_in_channel(p_post app_public.posts)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a change to a post that went out (an edit, deleting it from the channel, "it is in
   the channel") is refused once its chat is no longer the project's channel: that chat's
   administrators never approved this project's new approver or channel */
begin
  if app_private.post_channel_changed(p_post.project_id, p_post.status, p_post.channel_chat_id, p_post.approved_chat_id) then
    raise exception 'This post went out in a channel that is no longer the project''s channel: it is read-only history'
      using errcode = 'EDPUB', hint = 'posts.channelChanged';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.drop_expired_approver_requests()
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a request unanswered for its whole time is treated as absent everywhere; removing it
     (and the channel it would have connected) frees its approver-and-account slot */
  with gone as (
    delete from app_public.approver_requests
    where created_at <= now() - app_private.approver_request_ttl()
    returning channel_id
  )
  delete from app_public.channels c using gone where c.id = gone.channel_id and c.status = 'pending'
$function$;

CREATE OR REPLACE FUNCTION app_private.live_channel(p_project_id bigint)
 RETURNS app_public.channels
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a project's channel is connected, or waits for its approver's Allow; a request left
     unanswered past its time is no channel at all */
  select c.* from app_public.channels c
  where c.project_id = p_project_id
    and (c.status = 'connected' or exists (
      select 1 from app_public.approver_requests r
      where r.channel_id = c.id and r.created_at > now() - app_private.approver_request_ttl()))
  limit 1
$function$;

CREATE OR REPLACE FUNCTION app_private.move_approver(p_channel app_public.channels, p_request app_public.approver_requests)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the project's admin becomes the approver who allowed it; posts waiting for approval
 * lose their old buttons and are asked of the new approver. Telegram confirmed the new
 * approver when the request was made, so that confirmation is as old as the request.
 */
declare
  v_post app_public.posts;
begin
  update app_public.channels set approver_user_id = p_request.approver_user_id,
    approver_handle = p_request.approver_handle, approver_name = p_request.approver_name,
    rights_checked_at = p_request.created_at,
    config = config || jsonb_build_object('adminChatId', p_request.approver_user_id)
  where id = p_channel.id;
  update app_public.projects set admin_handle = p_request.approver_handle where id = p_channel.project_id;
  if p_request.approver_user_id is not distinct from p_channel.approver_user_id then
    return;
  end if;
  for v_post in
    select * from app_public.posts where project_id = p_channel.project_id and status = 'scheduled' for update
  loop
    perform app_private.retract_approval(v_post, 'approverChanged');
    update app_public.posts set approval_preview = '{}', approval_chat_id = null where id = v_post.id;
    perform app_private.queue_approval_at(v_post, now());
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.open_approver_request(p_channel_id bigint, p_user_id bigint, p_kind text, p_approver_user_id bigint, p_approver_handle text, p_approver_name text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the named approver must say yes in Telegram before an account acts in their name
 * (docs/trust-model.md). An approver who blocked the account is never asked again (CHBLK);
 * one request per approver and account waits at a time (CHREQ), so nobody can flood an
 * admin. The message is sent by a job queued in this transaction.
 */
declare
  v_id bigint;
begin
  if exists (select 1 from app_public.approver_blocks b
             where b.approver_user_id = p_approver_user_id and b.user_id = p_user_id) then
    raise exception '@% has refused requests from this account', ltrim(p_approver_handle, '@')
      using errcode = 'CHBLK', hint = 'channels.approverRefused';
  end if;
  insert into app_public.approver_requests (channel_id, user_id, kind, approver_user_id, approver_handle, approver_name)
  values (p_channel_id, p_user_id, p_kind, p_approver_user_id, ltrim(p_approver_handle, '@'), p_approver_name)
  returning id into v_id;
  -- in the approver's queue (app_private.approval_queue_name): many accounts asking one
  -- approver at once hold one worker slot, never all of them
  perform graphile_worker.add_job('approver_requests__ask', json_build_object('requestId', v_id),
    queue_name := 'approver:' || p_approver_user_id,
    job_key := 'approver_request:' || v_id, max_attempts := 5);
exception when unique_violation then
  raise exception 'A request to @% from this account is already waiting for an answer in Telegram', ltrim(p_approver_handle, '@')
    using errcode = 'CHREQ', hint = 'channels.requestPending';
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.post_channel_changed(p_project_id bigint, p_status text, p_channel_chat_id bigint, p_approved_chat_id bigint)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a channel's messages are touched only while it is the project's channel. A post
     that went out (published, or uncertain: perhaps out) belongs to the chat it went to
     (the chat it was approved for when no message of it is known); once that is not the
     project's connected channel (another one, or none), the post is history. Connecting
     the same chat again makes it the project's channel again. */
  select p_status in ('published', 'uncertain')
     and coalesce(p_channel_chat_id, p_approved_chat_id) is distinct from (app_private.project_channel(p_project_id)).chat_id
$function$;

CREATE OR REPLACE FUNCTION app_private.project_channel(p_project_id bigint)
 RETURNS app_public.channels
 LANGUAGE sql
 STABLE
AS $function$
  select * from app_public.channels where project_id = p_project_id and status = 'connected' limit 1
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

CREATE OR REPLACE FUNCTION app_public.approver_change_prerequisites(p_user_id bigint, p_project_id bigint, p_handle text)
 RETURNS TABLE(connected_chat_id bigint, channel_link text, approver_user_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: a project with a connected channel may only name a new admin whom Telegram confirms
 * as an administrator of that channel. Answers what to ask Telegram (no row when nothing
 * needs checking: no channel, or the same handle); refuses a handle that has not messaged
 * the bot (ADMNR), as connecting does. Its columns are named as along the publish act
 * (docs/publishing.md "Names along the publish act"): the channel's chat now, and the user
 * who becomes channels.approver_user_id.
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'project.update');
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_channel app_public.channels := app_private.project_channel(p_project_id);
  v_handle text := ltrim(btrim(p_handle), '@');
  v_chat_id bigint;
begin
  if v_channel.id is null or lower(v_handle) = lower(v_project.admin_handle) then
    return;
  end if;
  select a.chat_id into v_chat_id from app_public.admin_chat_ids a where a.admin_handle = lower(v_handle);
  if v_chat_id is null then
    raise exception 'The admin @% has not messaged the bot yet: the admin must message the bot first', v_handle
      using errcode = 'ADMNR', hint = 'channels.adminNotRegistered';
  end if;
  return query select v_channel.chat_id, v_channel.link, v_chat_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.approver_request_to_ask(p_request_id bigint)
 RETURNS TABLE(approver_user_id bigint, kind text, channel_link text, account_email text, project_language text)
 LANGUAGE sql
AS $function$
  /* why: the worker asks each request once: claimed here before the message is sent (a
     second run finds it claimed and sends nothing); a request answered, dropped or expired
     meanwhile is not asked */
  with claimed as (
    update app_public.approver_requests r set asked_at = now()
    where r.id = p_request_id and r.asked_at is null
      and r.created_at > now() - app_private.approver_request_ttl()
    returning r.*
  )
  select claimed.approver_user_id, claimed.kind, c.link, u.email, p.language
  from claimed
  join app_public.channels c on c.id = claimed.channel_id
  join app_public.projects p on p.id = c.project_id
  join app_public.users u on u.id = claimed.user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.channel_prerequisites(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(admin_handle text, admin_chat_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: before asking Telegram anything, check what the database alone can refuse: the
 * member may connect it (NTFND, team.forbidden), it has no channel yet, connected or waiting for its
 * approver (CHLIM; an expired request is no channel), and its admin has
 * messaged the bot (ADMNR, naming the handle). The admin's chat id is their user id,
 * which Telegram is then asked about.
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'channel.manage');
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_chat_id bigint;
begin
  if app_private.live_channel(p_project_id) is not null then
    raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM', hint = 'channels.limitReached';
  end if;
  select a.chat_id into v_chat_id from app_public.admin_chat_ids a where a.admin_handle = lower(v_project.admin_handle);
  if v_chat_id is null then
    raise exception 'The admin @% has not messaged the bot yet: the admin must message the bot first', v_project.admin_handle
      using errcode = 'ADMNR', hint = 'channels.adminNotRegistered';
  end if;
  return query select v_project.admin_handle, v_chat_id;
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

CREATE OR REPLACE FUNCTION app_public.drop_approver_request(p_request_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: Telegram refused for good to deliver the question (the approver blocked the bot):
     nobody can answer it, so it holds nothing */
  with gone as (delete from app_public.approver_requests where id = p_request_id and message_id is null returning channel_id)
  delete from app_public.channels c using gone where c.id = gone.channel_id and c.status = 'pending'
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

CREATE OR REPLACE FUNCTION app_public.post_channel_messages(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS TABLE(status text, channel_chat_id bigint, channel_message_ids jsonb, published_links jsonb)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the messages "delete from channel" removes, asked before Telegram is called: only
   a publishing member's (projects.notFound, team.forbidden, posts.notFound), and only while the chat they are
   in is the project's channel (posts.channelChanged) */
declare
  v_post app_public.posts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
  select * into v_post from app_public.posts p where p.id = p_post_id and p.project_id = p_project_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  if v_post.status = 'published' and jsonb_array_length(v_post.channel_message_ids) > 0 then
    perform app_private.assert_post_in_channel(v_post);
  end if;
  return query select v_post.status, v_post.channel_chat_id, v_post.channel_message_ids, v_post.published_links;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_channels(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, project_id bigint, type text, link text, status text, config jsonb, created_at timestamp with time zone, updated_at timestamp with time zone, chat_id bigint, approver_user_id bigint, approver_handle text, approver_name text, rights_checked_at timestamp with time zone, awaiting_handle text, awaiting_until timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the channels page and the schedule page list them, each with the approver's request
     still waiting on it (a pending channel whose request expired is gone), for any member */
  select c.*, r.approver_handle as awaiting_handle, r.created_at + app_private.approver_request_ttl() as awaiting_until
  from app_public.channels c
  left join app_public.approver_requests r
    on r.channel_id = c.id and r.created_at > now() - app_private.approver_request_ttl()
  where c.project_id = p_project_id and (c.status = 'connected' or r.id is not null)
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by c.created_at, c.id
$function$;

CREATE OR REPLACE FUNCTION app_public.record_admin_chat(p_username text, p_chat_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the bot learns a handle's private chat when its owner writes to it; a project
     can only connect a channel once its admin handle is known here. Handles compare
     case-insensitively, without the @. */
  insert into app_public.admin_chat_ids (admin_handle, chat_id)
  values (lower(ltrim(p_username, '@')), p_chat_id)
  on conflict on constraint admin_chat_ids_handle_key do update set chat_id = excluded.chat_id
$function$;

CREATE OR REPLACE FUNCTION app_public.record_approver_asked(p_request_id bigint, p_message_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: presses count only on the message that was sent for the request; a failed send that
     will be retried gives the claim back (p_message_id null) */
  update app_public.approver_requests
  set message_id = p_message_id, asked_at = case when p_message_id is null then null else asked_at end
  where id = p_request_id and message_id is null
$function$;

CREATE OR REPLACE FUNCTION app_public.record_channel_rights_checked(p_channel_id bigint, p_approver_user_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: Telegram just confirmed the approver and the bot; a check made for an approver
     who has since been replaced confirms nothing */
  update app_public.channels set rights_checked_at = now()
  where id = p_channel_id and approver_user_id = p_approver_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.request_channel(p_user_id bigint, p_project_id bigint, p_type text, p_link text, p_chat_id bigint, p_approver_user_id bigint, p_approver_handle text, p_approver_name text)
 RETURNS app_public.channels
 LANGUAGE plpgsql
AS $function$
/*
 * why: stores a channel that Telegram confirmed (the bot may post; the approver is its
 * creator or an administrator who may post) as pending, and asks the approver, pinned by
 * user id, to allow it. Only a connected channel holds its chat, so a pending request never
 * blocks another account; a chat connected anywhere is refused (CHCON). One channel per
 * project is a unique constraint, so of two concurrent adds exactly one wins (CHLIM).
 */
declare
  v_channel app_public.channels;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'channel.manage');
  perform app_private.drop_expired_approver_requests();
  if exists (select 1 from app_public.channels c where c.chat_id = p_chat_id and c.status = 'connected') then
    raise exception '% is already connected in another project or account. It must be disconnected there first.', p_link
      using errcode = 'CHCON', hint = 'channels.alreadyConnected';
  end if;
  begin
    insert into app_public.channels (project_id, type, link, status, config, chat_id,
      approver_user_id, approver_handle, approver_name)
    values (p_project_id, p_type, p_link, 'pending',
            jsonb_build_object('chatId', p_chat_id, 'adminChatId', p_approver_user_id), p_chat_id,
            p_approver_user_id, ltrim(p_approver_handle, '@'), p_approver_name)
    returning * into v_channel;
  exception when unique_violation then
    raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM', hint = 'channels.limitReached';
  end;
  perform app_private.open_approver_request(v_channel.id, p_user_id, 'connect', p_approver_user_id, p_approver_handle, p_approver_name);
  return v_channel;
end;
$function$;
