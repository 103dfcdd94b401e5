--! Previous: sha1:6bfa9e8015559660e4cace96b98631defd48b73a
--! Hash: sha1:b68f7757dd1a4aafb1877fb30871c761864fb8e2
--! Message: channels: one per project, connected through the bot

create or replace function app_public.channel_prerequisites(p_user_id bigint, p_project_id bigint)
returns table (admin_handle text, admin_chat_id bigint)
language plpgsql stable as $$
/*
 * why: before asking Telegram anything, check what the database alone can refuse: the
 * project is the user's (NTFND), it has no channel yet (CHLIM), and its admin has
 * messaged the bot (ADMNR, naming the handle).
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

create or replace function app_public.add_channel(
  p_user_id bigint, p_project_id bigint, p_type text, p_link text, p_chat_id bigint, p_admin_chat_id bigint
) returns app_public.channels
language plpgsql volatile as $$
/*
 * why: stores a channel the bot verified, as connected. The one-channel rule is the
 * table's unique constraint, so of two concurrent adds exactly one wins; the other gets
 * CHLIM like any second add.
 */
declare
  v_channel app_public.channels;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  insert into app_public.channels (project_id, type, link, status, config)
  values (p_project_id, p_type, p_link, 'connected',
          jsonb_build_object('chatId', p_chat_id, 'adminChatId', p_admin_chat_id))
  returning * into v_channel;
  return v_channel;
exception when unique_violation then
  raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM';
end;
$$;

create or replace function app_public.project_channels(p_user_id bigint, p_project_id bigint)
returns setof app_public.channels
language sql stable as $$
  /* why: the channels page and the schedule page list them; ownership checked in the join */
  select c.* from app_public.channels c
  join app_public.projects p on p.id = c.project_id and p.user_id = p_user_id
  where c.project_id = p_project_id
  order by c.created_at, c.id
$$;

create or replace function app_public.delete_channel(p_user_id bigint, p_project_id bigint, p_channel_id bigint)
returns void
language plpgsql volatile as $$
/* why: disconnecting a channel; another user's channel is "not found" */
begin
  delete from app_public.channels c using app_public.projects p
  where c.id = p_channel_id and c.project_id = p_project_id and p.id = c.project_id and p.user_id = p_user_id;
  if not found then
    raise exception 'Channel not found' using errcode = 'NTFND';
  end if;
end;
$$;
