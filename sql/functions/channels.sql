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

CREATE OR REPLACE FUNCTION app_private.withdraw_approvals(p_project_id bigint, p_reason text, p_retract text)
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
    perform app_private.withdraw_approval(v_post.id, p_reason);
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.add_channel(p_user_id bigint, p_project_id bigint, p_type text, p_link text, p_chat_id bigint, p_approver_user_id bigint, p_approver_handle text, p_approver_name text)
 RETURNS app_public.channels
 LANGUAGE plpgsql
AS $function$
/*
 * why: stores a channel that Telegram confirmed (the bot may post; the approver is its
 * creator or an administrator who may post) as connected, with the approver pinned by
 * user id. One channel per project and one project per chat are unique constraints, so
 * of two concurrent adds exactly one wins; the other is told which rule it met.
 */
declare
  v_channel app_public.channels;
  v_constraint text;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  insert into app_public.channels (project_id, type, link, status, config, chat_id,
    approver_user_id, approver_handle, approver_name, rights_checked_at)
  values (p_project_id, p_type, p_link, 'connected',
          jsonb_build_object('chatId', p_chat_id, 'adminChatId', p_approver_user_id), p_chat_id,
          p_approver_user_id, ltrim(p_approver_handle, '@'), p_approver_name, now())
  returning * into v_channel;
  return v_channel;
exception when unique_violation then
  get stacked diagnostics v_constraint = constraint_name;
  if v_constraint = 'channels_chat_id_key' then
    raise exception '% is already connected in another project or account. It must be disconnected there first.', p_link
      using errcode = 'CHCON', hint = 'channels.alreadyConnected';
  end if;
  raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM', hint = 'channels.limitReached';
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.approver_change_prerequisites(p_user_id bigint, p_project_id bigint, p_handle text)
 RETURNS TABLE(channel_chat_id bigint, channel_link text, admin_chat_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: a project with a connected channel may only name a new admin whom Telegram confirms
 * as an administrator of that channel. Answers what to ask Telegram (no row when nothing
 * needs checking: no channel, or the same handle); refuses a handle that has not messaged
 * the bot (ADMNR), as connecting does.
 */
declare
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

CREATE OR REPLACE FUNCTION app_public.channel_prerequisites(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(admin_handle text, admin_chat_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: before asking Telegram anything, check what the database alone can refuse: the
 * project is the user's (NTFND), it has no channel yet (CHLIM), and its admin has
 * messaged the bot (ADMNR, naming the handle). The admin's chat id is their user id,
 * which Telegram is then asked about.
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_chat_id bigint;
begin
  if exists (select 1 from app_public.channels where project_id = p_project_id) then
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
  perform app_private.withdraw_approvals(p_project_id,
    format('The channel %s was disconnected before this post went out; publish it again to send it for approval', v_link),
    'channelChanged');
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.fail_post_for_channel_rights(p_post_id bigint, p_reason text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the approver no longer administers the channel, or the bot may no longer post:
     the post fails with a reason its owner reads (and gets by mail), before anything is
     sent, and nobody in Telegram is sent anything (the former approver may no longer be
     entitled to see the post) */
  with failed as (
    update app_public.posts set status = 'failed', last_error = p_reason, sending_worker_id = null
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
   the owner's post (projects.notFound, posts.notFound), and only while the chat they are
   in is the project's channel (posts.channelChanged) */
declare
  v_post app_public.posts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
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
 RETURNS SETOF app_public.channels
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the channels page and the schedule page list them; ownership checked in the join */
  select c.* from app_public.channels c
  join app_public.projects p on p.id = c.project_id and p.user_id = p_user_id
  where c.project_id = p_project_id
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

CREATE OR REPLACE FUNCTION app_public.record_channel_rights_checked(p_channel_id bigint, p_approver_user_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: Telegram just confirmed the approver and the bot; a check made for an approver
     who has since been replaced confirms nothing */
  update app_public.channels set rights_checked_at = now()
  where id = p_channel_id and approver_user_id = p_approver_user_id
$function$;
