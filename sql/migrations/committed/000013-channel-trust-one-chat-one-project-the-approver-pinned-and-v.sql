--! Previous: sha1:e39aa44a46cd844201463db90088a4d4f519908d
--! Hash: sha1:b489811d0b22e0388f7870886e8173cc05c6df0a
--! Message: Channel trust: one chat one project, the approver pinned and verified, an approval belongs to its chat

/*
 * Channel trust. One bot serves every account, so the bot is an administrator of many
 * people's channels; what it does in a channel must be something that channel's own
 * administrators asked for:
 *   - the project's approver is the Telegram user (by id, pinned when verified) whom
 *     Telegram confirms as the channel's creator or an administrator allowed to post;
 *   - one chat belongs to one project (a unique constraint, so two accounts racing to
 *     connect the same channel cannot both win);
 *   - an approval belongs to the chat it was given for: a post remembers the chat its
 *     preview asked about and the chat it was approved for, and is only ever sent there;
 *   - a published post remembers the chat its messages are in, and is deleted only there.
 */

------------------------------------------------------------------------------------------
-- Channels: the chat id as a column (unique), the pinned approver, the rights check cache
------------------------------------------------------------------------------------------
alter table app_public.channels add column if not exists chat_id bigint;
/* The approver's Telegram user id (in a private chat, the chat id is the user's id). */
alter table app_public.channels add column if not exists approver_user_id bigint;
alter table app_public.channels add column if not exists approver_handle text;
alter table app_public.channels add column if not exists approver_name text;
/* When Telegram last confirmed the approver administers the chat and the bot may post. */
alter table app_public.channels add column if not exists rights_checked_at timestamptz;

update app_public.channels set chat_id = (config ->> 'chatId')::bigint
where chat_id is null and config ? 'chatId';
/*
 * A chat connected in several projects before this rule: the first connection keeps it;
 * later ones go back to pending, and their owners must disconnect them (reconnecting
 * answers "already connected").
 */
update app_public.channels c set status = 'pending', chat_id = null
where c.chat_id is not null and exists (
  select 1 from app_public.channels o
  where o.chat_id = c.chat_id and (o.created_at, o.id) < (c.created_at, c.id));
update app_public.channels set status = 'pending' where status = 'connected' and chat_id is null;

alter table app_public.channels drop constraint if exists channels_chat_id_key;
alter table app_public.channels add constraint channels_chat_id_key unique (chat_id);
alter table app_public.channels drop constraint if exists channels_connected_has_chat;
alter table app_public.channels add constraint channels_connected_has_chat
  check (status <> 'connected' or chat_id is not null);

/*
 * Channels connected before this rule get the approver their project's handle pointed at;
 * their rights are unchecked, so the next preview or publication asks Telegram first (and
 * fails the post if that person does not administer the channel).
 */
update app_public.channels c set approver_user_id = coalesce(a.chat_id, (c.config ->> 'adminChatId')::bigint),
  approver_handle = p.admin_handle
from app_public.projects p
left join app_public.admin_chat_ids a on a.admin_handle = lower(p.admin_handle)
where p.id = c.project_id and c.approver_user_id is null;

------------------------------------------------------------------------------------------
-- Posts: the chat of the approval, of the approved send, and of the messages
------------------------------------------------------------------------------------------
/* The channel chat the preview asked about (set when the preview is claimed). */
alter table app_public.posts add column if not exists approval_chat_id bigint;
/* The channel chat the approver said yes for; the only chat the post may be sent to. */
alter table app_public.posts add column if not exists approved_chat_id bigint;
/* The chat holding channel_message_ids (published, or parts of an interrupted send). */
alter table app_public.posts add column if not exists channel_chat_id bigint;

update app_public.posts p set approval_chat_id = c.chat_id
from app_public.channels c
where c.project_id = p.project_id and c.status = 'connected' and p.approval_chat_id is null
  and p.status in ('scheduled', 'approved', 'sending', 'uncertain');
update app_public.posts set approved_chat_id = approval_chat_id
where approved_chat_id is null and status in ('approved', 'sending', 'uncertain');
update app_public.posts p set channel_chat_id = c.chat_id
from app_public.channels c
where c.project_id = p.project_id and p.channel_chat_id is null and jsonb_array_length(p.channel_message_ids) > 0;

------------------------------------------------------------------------------------------
-- Connecting and disconnecting
------------------------------------------------------------------------------------------
create or replace function app_public.channel_prerequisites(p_user_id bigint, p_project_id bigint)
returns table (admin_handle text, admin_chat_id bigint)
language plpgsql stable as $$
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
    raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM';
  end if;
  select a.chat_id into v_chat_id from app_public.admin_chat_ids a where a.admin_handle = lower(v_project.admin_handle);
  if v_chat_id is null then
    raise exception 'The admin @% has not messaged the bot yet: the admin must message the bot first', v_project.admin_handle
      using errcode = 'ADMNR';
  end if;
  return query select v_project.admin_handle, v_chat_id;
end;
$$;

drop function if exists app_public.add_channel(bigint, bigint, text, text, bigint, bigint);
create function app_public.add_channel(
  p_user_id bigint, p_project_id bigint, p_type text, p_link text, p_chat_id bigint,
  p_approver_user_id bigint, p_approver_handle text, p_approver_name text
) returns app_public.channels
language plpgsql volatile as $$
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
      using errcode = 'CHCON';
  end if;
  raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM';
end;
$$;

create or replace function app_private.withdraw_approvals(p_project_id bigint, p_reason text, p_retract text)
returns void
language plpgsql volatile as $$
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
    update app_public.posts set status = 'draft', approval_message_ids = '{}', approval_chat_id = null,
      approved_chat_id = null, last_error = p_reason
    where id = v_post.id;
  end loop;
end;
$$;

create or replace function app_public.delete_channel(p_user_id bigint, p_project_id bigint, p_channel_id bigint)
returns void
language plpgsql volatile as $$
/* why: disconnecting a channel withdraws every approval given for it; another user's channel is "not found" */
declare
  v_link text;
begin
  delete from app_public.channels c using app_public.projects p
  where c.id = p_channel_id and c.project_id = p_project_id and p.id = c.project_id and p.user_id = p_user_id
  returning c.link into v_link;
  if not found then
    raise exception 'Channel not found' using errcode = 'NTFND';
  end if;
  perform app_private.withdraw_approvals(p_project_id,
    format('The channel %s was disconnected before this post went out; publish it again to send it for approval', v_link),
    'channelChanged');
end;
$$;

------------------------------------------------------------------------------------------
-- Changing the approver
------------------------------------------------------------------------------------------
create or replace function app_public.approver_change_prerequisites(p_user_id bigint, p_project_id bigint, p_handle text)
returns table (channel_chat_id bigint, channel_link text, admin_chat_id bigint)
language plpgsql stable as $$
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
      using errcode = 'ADMNR';
  end if;
  return query select v_channel.chat_id, v_channel.link, v_chat_id;
end;
$$;

drop function if exists app_public.update_project(bigint, bigint, jsonb);
create function app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb, p_approver jsonb)
returns app_public.projects
language plpgsql volatile as $$
/*
 * why: PATCH semantics: only the keys present in p_changes change. A new admin handle on a
 * project with a connected channel must come with the approver Telegram confirmed for that
 * very chat (p_approver: userId, handle, name, chatId; see approver_change_prerequisites),
 * else nothing changes (APRNV). The approver then moves, and posts waiting for approval are
 * asked again of the new approver (the old previews lose their buttons).
 */
declare
  v_project app_public.projects;
  v_channel app_public.channels;
  v_handle text := ltrim(btrim(p_changes ->> 'adminHandle'), '@');
  v_moved boolean := false;
  v_post app_public.posts;
begin
  select * into v_project from app_public.projects where id = p_project_id and user_id = p_user_id for update;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND';
  end if;
  select * into v_channel from app_public.channels
  where project_id = p_project_id and status = 'connected' for update;
  if v_handle is not null and lower(v_handle) <> lower(v_project.admin_handle) and v_channel.id is not null then
    if p_approver is null or lower(ltrim(p_approver ->> 'handle', '@')) <> lower(v_handle)
       or (p_approver ->> 'chatId')::bigint is distinct from v_channel.chat_id then
      raise exception 'The new admin @% is not confirmed as an administrator of %', v_handle, v_channel.link
        using errcode = 'APRNV';
    end if;
    v_moved := (p_approver ->> 'userId')::bigint is distinct from v_channel.approver_user_id;
    update app_public.channels set approver_user_id = (p_approver ->> 'userId')::bigint, approver_handle = v_handle,
      approver_name = p_approver ->> 'name', rights_checked_at = now(),
      config = config || jsonb_build_object('adminChatId', (p_approver ->> 'userId')::bigint)
    where id = v_channel.id;
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
  if v_moved then
    for v_post in
      select * from app_public.posts where project_id = p_project_id and status = 'scheduled' for update
    loop
      perform app_private.retract_approval(v_post, 'approverChanged');
      update app_public.posts set approval_message_ids = '{}', approval_chat_id = null where id = v_post.id;
      perform graphile_worker.add_job('posts__send_approval', json_build_object('postId', v_post.id),
        job_key := app_private.post_job_key(v_post.id, 'approval'), max_attempts := 10);
    end loop;
  end if;
  return v_project;
end;
$$;

------------------------------------------------------------------------------------------
-- What the worker reads and records
------------------------------------------------------------------------------------------
alter type app_public.post_delivery add attribute channel_id bigint;
alter type app_public.post_delivery add attribute approver_handle text;
alter type app_public.post_delivery add attribute rights_checked_at timestamptz;
alter type app_public.post_delivery add attribute sent_chat_id bigint;

create or replace function app_private.delivery(p_post app_public.posts) returns app_public.post_delivery
language sql stable as $$
  /* why: a post with its project's connected channel and that channel's pinned approver */
  select p_post.id, p_post.status, p_post.title, p_post.content, p_post.image_url, p_post.scheduled_for,
         c.chat_id, c.link, c.approver_user_id,
         p_post.approval_message_ids, p_post.channel_message_ids, p_post.last_error, pr.language, pr.timezone,
         c.id, c.approver_handle, c.rights_checked_at, p_post.channel_chat_id
  from app_public.projects pr
  left join app_public.channels c on c.project_id = pr.id and c.status = 'connected'
  where pr.id = p_post.project_id
$$;

create or replace function app_public.record_channel_rights_checked(p_channel_id bigint, p_approver_user_id bigint)
returns void
language sql volatile as $$
  /* why: Telegram just confirmed the approver and the bot; a check made for an approver
     who has since been replaced confirms nothing */
  update app_public.channels set rights_checked_at = now()
  where id = p_channel_id and approver_user_id = p_approver_user_id
$$;

create or replace function app_public.fail_post_for_channel_rights(p_post_id bigint, p_reason text) returns void
language sql volatile as $$
  /* why: the approver no longer administers the channel, or the bot may no longer post:
     the post fails with a reason its owner reads, before anything is sent, and nobody is
     sent anything (the former approver may no longer be entitled to see the post) */
  update app_public.posts set status = 'failed', last_error = p_reason, sending_worker_id = null
  where id = p_post_id
    and (status = 'approved' or (status = 'scheduled' and not (approval_message_ids ? 'chatId')))
$$;

create or replace function app_public.post_for_approval(p_post_id bigint, p_job_id text) returns app_public.post_delivery
language plpgsql volatile as $$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over 4096 characters fails the post with the reason instead of sending; a project
 * without a channel leaves it a draft saying so. The claim lets one job send the preview
 * when the automatic request and Publish meet; the same job retried after a crash takes
 * its claim back, and any job may take a claim older than two minutes. The claim records
 * which chat the preview asks about.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_message_ids ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > 4096 then
    update app_public.posts set status = 'failed',
      last_error = format('schedule.captionTooLong: %s/%s', length(v_post.content), 4096)
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_message_ids ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_message_ids ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    update app_public.posts set status = 'draft', approval_message_ids = '{}', approval_chat_id = null,
      last_error = 'Connect a channel before publishing'
    where id = p_post_id;
    return null;
  end if;
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_message_ids = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id)
  where id = p_post_id returning * into v_post;
  return app_private.delivery(v_post);
end;
$$;

create or replace function app_public.record_approval_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
returns boolean
language sql volatile as $$
  /* why: remembers which message carries the buttons, so only that message can decide;
     a preview sent to someone who is no longer the approver records nothing */
  update app_public.posts p set approval_message_ids = jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)])
  where p.id = p_post_id and p.status = 'scheduled' and not (p.approval_message_ids ? 'chatId')
    and exists (select 1 from app_public.channels c where c.project_id = p.project_id and c.status = 'connected'
                and c.approver_user_id = p_chat_id and c.chat_id = p.approval_chat_id)
  returning true
$$;

create or replace function app_public.decide_post(
  p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: an admin's press on Approve or Reject. Only the current approval message of a post
 * still waiting counts, once, and only while the project's channel is the chat the preview
 * asked about; anything else answers null and changes nothing. Approval records the chat
 * it was given for and queues the publication at the post's time (at once if it has passed).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set status = case when p_approve then 'approved' else 'rejected' end,
    approved_chat_id = case when p_approve then p.approval_chat_id end
  where p.id = p_post_id and p.status = 'scheduled'
    and (p.approval_message_ids ->> 'chatId')::bigint = p_chat_id
    and (p.approval_message_ids ->> 'buttonsMessageId')::bigint = p_message_id
    and p.approval_chat_id = (select c.chat_id from app_public.channels c
                              where c.project_id = p.project_id and c.status = 'connected')
  returning * into v_post;
  if not found then
    return null;
  end if;
  if p_approve then
    perform app_private.queue_publication(v_post.id, greatest(now(), v_post.scheduled_for));
  end if;
  return v_post;
end;
$$;

create or replace function app_public.begin_sending(p_post_id bigint, p_worker_id text) returns app_public.post_delivery
language plpgsql volatile as $$
/*
 * why: the publication's guard, committed before Telegram is called. From here on a crash
 * cannot lead to a second send: the post is `sending` with the worker's id, and only a
 * person (the admin) can send it again. A post is only sent to the chat it was approved
 * for: if the project's channel is another one now, it goes back to draft, saying why.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts
  where id = p_post_id and status = 'approved' and scheduled_for <= now() + interval '2 seconds'
  for update;
  if not found then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_post.approved_chat_id is null or v_post.approved_chat_id is distinct from v_channel.chat_id then
    update app_public.posts set status = 'draft', approval_message_ids = '{}', approval_chat_id = null,
      approved_chat_id = null,
      last_error = 'The channel changed after this post was approved; publish it again to send it for approval'
    where id = p_post_id;
    return null;
  end if;
  update app_public.posts set status = 'sending', sending_worker_id = p_worker_id, sending_started_at = now()
  where id = p_post_id
  returning * into v_post;
  return app_private.delivery(v_post);
end;
$$;

drop function if exists app_public.record_sent_part(bigint, bigint[]);
create function app_public.record_sent_part(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[]) returns void
language sql volatile as $$
  /* why: what of a post being sent is in the channel, and in which chat (an empty list once leftovers are removed) */
  update app_public.posts set channel_message_ids = to_jsonb(p_message_ids), channel_chat_id = p_chat_id
  where id = p_post_id and status = 'sending'
$$;

drop function if exists app_public.record_published(bigint, bigint[], jsonb);
create function app_public.record_published(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_links jsonb)
returns app_public.posts
language sql volatile as $$
  /* why: the send succeeded: keep the chat, its message ids and links; the draft leaves the list */
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    channel_chat_id = p_chat_id, published_links = p_links, published_at = now(), sending_worker_id = null,
    last_error = null
  where id = p_post_id and status in ('sending', 'uncertain')
  returning *
$$;

create or replace function app_private.resolve_uncertain(p_post_id bigint, p_in_channel boolean)
returns app_public.posts
language plpgsql volatile as $$
/*
 * why: only a person can tell whether an uncertain post reached the channel. "It is
 * there" records it published, linked to its first message when that is known (a photo
 * recorded before the text) and the channel is still the chat it went to; "Send again"
 * queues a new send, which first removes what of the post is known to be in the channel.
 * Answers null when the post is not uncertain (someone answered first).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set
    status = case when p_in_channel then 'published' else 'approved' end,
    published_at = case when p_in_channel then now() else null end,
    published_links = case
      when p_in_channel and jsonb_array_length(p.channel_message_ids) > 0 then coalesce((
        select jsonb_build_object(regexp_replace(d.channel_link, '^@', ''),
          'https://t.me/' || regexp_replace(d.channel_link, '^@', '') || '/' || (p.channel_message_ids ->> 0))
        from app_private.delivery(p) d where d.channel_link is not null and d.channel_chat_id = p.channel_chat_id), '{}')
      else p.published_links end,
    last_error = null
  where p.id = p_post_id and p.status = 'uncertain'
  returning * into v_post;
  if found and not p_in_channel then
    perform app_private.queue_publication(p_post_id, now());
  end if;
  return v_post;
end;
$$;
