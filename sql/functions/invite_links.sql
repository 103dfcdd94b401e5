-- The invite links functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

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

CREATE OR REPLACE FUNCTION app_public.add_invite_link(p_user_id bigint, p_project_id bigint, p_chat_id bigint, p_name text, p_url text, p_max integer)
 RETURNS TABLE(id bigint, name text, url text, joins integer, leaves integer, created_at timestamp with time zone, revoked boolean)
 LANGUAGE plpgsql
AS $function$
/* why: records the link Telegram made, for the channel it was made in; the project's row
   is locked so two requests at once cannot both take the last place */
declare
  v_channel_id bigint;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  perform 1 from app_public.projects pr where pr.id = p_project_id for update;
  select c.id into v_channel_id from app_public.channels c
  where c.project_id = p_project_id and c.status = 'connected' and c.chat_id = p_chat_id;
  if v_channel_id is null then
    raise exception 'Connect a channel before creating invite links' using errcode = 'NOCHN', hint = 'inviteLinks.noChannel';
  end if;
  if (select count(*) from app_public.invite_links l where l.project_id = p_project_id) >= p_max then
    raise exception 'A project can have at most % invite links', p_max using errcode = 'QUOTA', hint = 'inviteLinks.quotaReached';
  end if;
  return query
  insert into app_public.invite_links as l (project_id, channel_id, name, url)
  values (p_project_id, v_channel_id, p_name, p_url)
  returning l.id, l.name, l.url, l.joins, l.leaves, l.created_at, false;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_link_prerequisites(p_user_id bigint, p_project_id bigint, p_max integer)
 RETURNS TABLE(chat_id bigint, channel_link text)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: before Telegram is asked for a link: the member's role may make links, the project's channel is
   connected, and the project has room for one more link (revoked ones count too, so
   making and revoking cannot run up Telegram calls); answers the channel's chat and link */
declare
  v_chat_id bigint;
  v_link text;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  select c.chat_id, c.link into v_chat_id, v_link from app_public.channels c where c.project_id = p_project_id and c.status = 'connected';
  if v_chat_id is null then
    raise exception 'Connect a channel before creating invite links' using errcode = 'NOCHN', hint = 'inviteLinks.noChannel';
  end if;
  if (select count(*) from app_public.invite_links l where l.project_id = p_project_id) >= p_max then
    raise exception 'A project can have at most % invite links', p_max using errcode = 'QUOTA', hint = 'inviteLinks.quotaReached';
  end if;
  return query select v_chat_id, v_link;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_link_to_revoke(p_user_id bigint, p_project_id bigint, p_link_id bigint)
 RETURNS TABLE(chat_id bigint, channel_link text, url text, revoked boolean)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the link to revoke in Telegram, only the project's own (another's is not found) */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  return query
  select c.chat_id, c.link, l.url, l.revoked_at is not null
  from app_public.invite_links l
  left join app_public.channels c on c.id = l.channel_id -- none once the channel is disconnected (its links were revoked then)
  where l.id = p_link_id and l.project_id = p_project_id;
  if not found then
    raise exception 'Invite link not found' using errcode = 'NTFND', hint = 'inviteLinks.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_invite_links(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, name text, url text, joins integer, leaves integer, created_at timestamp with time zone, revoked boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a project's links, newest first, revoked ones too with their figures (a non-member is
     refused: 404) */
  select l.id, l.name, l.url, l.joins, l.leaves, l.created_at, l.revoked_at is not null
  from app_public.invite_links l
  where l.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by l.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.revoke_invite_link(p_user_id bigint, p_project_id bigint, p_link_id bigint)
 RETURNS TABLE(id bigint, name text, url text, joins integer, leaves integer, created_at timestamp with time zone, revoked boolean)
 LANGUAGE plpgsql
AS $function$
/* why: a revoked link stays listed with its figures; joins through it still count for it */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  return query
  update app_public.invite_links l set revoked_at = coalesce(l.revoked_at, now())
  where l.id = p_link_id and l.project_id = p_project_id
  returning l.id, l.name, l.url, l.joins, l.leaves, l.created_at, true;
  if not found then
    raise exception 'Invite link not found' using errcode = 'NTFND', hint = 'inviteLinks.notFound';
  end if;
end;
$function$;
