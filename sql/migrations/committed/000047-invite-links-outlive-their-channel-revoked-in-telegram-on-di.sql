--! Previous: sha1:f757de6b4eb57aff84394761df71cd56407362fb
--! Hash: sha1:755f54b6d3ec34f45442b669402352eab76536a2
--! Message: Invite links outlive their channel: revoked in Telegram on disconnect, still counted toward the limit; invite links and home cards in their own function files

--! split: 7-invite-links-outlive-their-channel.sql
-- A channel's invite links outlive its disconnection: they are revoked in Telegram and stay
-- listed (revoked, with their figures) and counted against the project's limit
-- (app_private.revoke_channel_invite_links). Before, the channel's delete cascaded to them, so
-- people kept joining through links nobody could see, and the limit started over.
alter table app_public.invite_links alter column channel_id drop not null;
alter table app_public.invite_links drop constraint if exists invite_links_channel_id_fkey;
alter table app_public.invite_links add constraint invite_links_channel_id_fkey
  foreign key (channel_id) references app_public.channels(id) on delete set null;

--! split: 8-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.delete_channel(p_user_id bigint, p_project_id bigint, p_channel_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: disconnecting a channel withdraws every approval given for it and revokes its invite
   links (they stay listed); another user's channel is "not found" */
declare
  v_link text;
begin
  select c.link into v_link from app_public.channels c join app_public.projects p on p.id = c.project_id
  where c.id = p_channel_id and c.project_id = p_project_id and p.user_id = p_user_id
  for update of c;
  if not found then
    raise exception 'Channel not found' using errcode = 'NTFND', hint = 'channels.noSuchChannel';
  end if;
  perform app_private.revoke_channel_invite_links(p_channel_id);
  delete from app_public.channels where id = p_channel_id;
  perform app_private.withdraw_approvals(p_project_id, 'posts.error.channelDisconnected', jsonb_build_object('channel', v_link),
    'channelChanged');
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.revoke_channel_invite_links(p_channel_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: a channel leaving its project (disconnected, or the project deleted) must not leave
   links open that nobody can see or revoke: each still open is marked revoked now (it stays
   listed with its figures and keeps counting against the project's limit, as a link revoked
   by hand does) and revoked in Telegram by invite_links__revoke, once per link (job_key), in
   one serial queue so a channel's 50 links hold one worker slot */
declare
  v_link record;
begin
  for v_link in
    update app_public.invite_links l set revoked_at = now()
    from app_public.channels c
    where c.id = p_channel_id and l.channel_id = c.id and l.revoked_at is null
    returning l.id, l.url, c.chat_id
  loop
    perform graphile_worker.add_job('invite_links__revoke', json_build_object('chatId', v_link.chat_id, 'url', v_link.url),
      queue_name := 'invite_links:revoke', max_attempts := 10, job_key := 'invite_link_revoke:' || v_link.id);
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_link_to_revoke(p_user_id bigint, p_project_id bigint, p_link_id bigint)
 RETURNS TABLE(chat_id bigint, channel_link text, url text, revoked boolean)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the link to revoke in Telegram, only the user's own (another's is not found) */
begin
  return query
  select c.chat_id, c.link, l.url, l.revoked_at is not null
  from app_public.invite_links l
  join app_public.projects p on p.id = l.project_id and p.user_id = p_user_id
  left join app_public.channels c on c.id = l.channel_id -- none once the channel is disconnected (its links were revoked then)
  where l.id = p_link_id and l.project_id = p_project_id;
  if not found then
    raise exception 'Invite link not found' using errcode = 'NTFND', hint = 'inviteLinks.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_project(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: deleting a project removes its channel, drafts, posts, chat, jobs and uploads
 * (cascade), and revokes its invite links in Telegram; their files are deleted by the worker (uploads__delete), and their URLs
 * answer 404 at once since the rows are gone.
 */
declare
  v_keys text[];
begin
  select coalesce(array_agg(key), '{}') into v_keys from app_private.uploads
  where project_id = p_project_id and exists (select 1 from app_public.projects where id = p_project_id and user_id = p_user_id);
  -- its links go with it, so nobody could revoke them later
  perform app_private.revoke_channel_invite_links(c.id)
  from app_public.channels c join app_public.projects p on p.id = c.project_id
  where c.project_id = p_project_id and p.user_id = p_user_id;
  delete from app_public.projects where id = p_project_id and user_id = p_user_id;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  if cardinality(v_keys) > 0 then
    perform graphile_worker.add_job('uploads__delete', json_build_object('keys', to_jsonb(v_keys)), max_attempts := 10);
  end if;
end;
$function$;
