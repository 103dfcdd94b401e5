--! Previous: sha1:9f2ca036232f714ff94e3fdbab1e48dcbbbd892f
--! Hash: sha1:7c9899075ff6e2571f14a9bd70f9c30235e56202
--! Message: The named approver confirms in Telegram; the app runs as pressa_app, a role that owns nothing

--! split: 2-approver-confirm.sql
-- The named approver confirms in Telegram (README "Trust model"): a connect request or a
-- handle change is a pending request until the approver presses Allow in the bot.

-- Only a confirmed connection holds the chat: pending requests for the same chat coexist.
alter table app_public.channels drop constraint if exists channels_chat_id_key;
create unique index if not exists channels_connected_chat_key on app_public.channels (chat_id) where status = 'connected';
create index if not exists channels_chat_id_idx on app_public.channels (chat_id);

create table if not exists app_public.approver_requests (
  id bigint generated always as identity primary key,
  channel_id bigint not null references app_public.channels (id) on delete cascade,
  -- the account asking, named (masked) in the approver's message
  user_id bigint not null references app_public.users (id) on delete cascade,
  -- connect: the pending channel becomes connected; handover: a connected channel's approver moves
  kind text not null check (kind in ('connect', 'handover')),
  approver_user_id bigint not null,
  approver_handle text not null,
  approver_name text,
  -- the bot's message carrying the buttons (presses count only there), once sent
  message_id bigint,
  asked_at timestamptz,
  created_at timestamptz not null default now(),
  constraint approver_requests_one_per_channel unique (channel_id),
  constraint approver_requests_one_per_approver_account unique (approver_user_id, user_id)
);
create index if not exists approver_requests_created_at_idx on app_public.approver_requests (created_at);
create index if not exists approver_requests_user_id_idx on app_public.approver_requests (user_id);

-- An approver's "Deny and block": that account's requests to them are refused for good.
create table if not exists app_public.approver_blocks (
  approver_user_id bigint not null,
  user_id bigint not null references app_public.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (approver_user_id, user_id)
);
create index if not exists approver_blocks_user_id_idx on app_public.approver_blocks (user_id);

-- Channels left pending by migration 000013 have nobody to confirm them: they hold nothing now.
delete from app_public.channels c
where c.status = 'pending' and not exists (select 1 from app_public.approver_requests r where r.channel_id = c.id);

-- add_channel stored a channel as connected at once; request_channel replaces it.
drop function if exists app_public.add_channel(bigint, bigint, text, text, bigint, bigint, text, text);

-- project_channels now answers each channel with the request waiting on it.
drop function if exists app_public.project_channels(bigint, bigint);

--! split: 6-app-role.sql
-- Least privilege (README "Least privilege"): the API, the worker and the bot run as
-- pressa_app, which owns nothing. The migrations run as the owner; pressa_app gets the rows
-- of the tables and the functions, never the right to drop, alter or replace them. The role
-- is made before the migrations by sql/app_role.ts (roles belong to the server, not to a
-- database).

grant usage on schema app_public, app_private, graphile_worker to pressa_app;

grant select, insert, update, delete on all tables in schema app_public, app_private to pressa_app;
grant usage, select on all sequences in schema app_public, app_private, graphile_worker to pressa_app;
grant execute on all functions in schema app_public, app_private, graphile_worker to pressa_app;

-- Sessions, sign-in codes and per-IP attempts are reached only through the SECURITY DEFINER
-- sign-in functions: the app never reads a session's or a code's hash, so a bug in it
-- cannot list them.
revoke all on app_private.sessions, app_private.sign_in_codes, app_private.sign_in_attempts from pressa_app;

-- graphile-worker's runner claims, completes and fails jobs, registers its task names and
-- crontab, and at start reads which of its migrations ran (it changes its schema only
-- through `deno task migrate`, as the owner).
grant select, insert, update, delete on all tables in schema graphile_worker to pressa_app;
revoke insert, update, delete, truncate on graphile_worker.migrations from pressa_app;

-- What later migrations (ours and graphile-worker's) create, as this same owner, is
-- granted the same way without a line in each of them.
alter default privileges in schema app_public, app_private, graphile_worker
  grant select, insert, update, delete on tables to pressa_app;
alter default privileges in schema app_public, app_private, graphile_worker
  grant usage, select on sequences to pressa_app;
alter default privileges in schema app_public, app_private, graphile_worker
  grant execute on functions to pressa_app;

-- PostgreSQL 15 stopped letting everyone create objects in `public`, but a database upgraded
-- from an older server keeps the old grant: the app role could then plant a function or an
-- operator there that a SECURITY DEFINER function (search_path pg_catalog, public) might
-- pick up. An owner who does not own `public` (some managed services) leaves it as it is.
do $$
begin
  revoke create on schema public from public;
exception when insufficient_privilege or invalid_schema_name then
  raise notice 'left the privileges of schema public as they are: %', sqlerrm;
end $$;

--! split: 7-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.channel_prerequisites(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(admin_handle text, admin_chat_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: before asking Telegram anything, check what the database alone can refuse: the
 * project is the user's (NTFND), it has no channel yet, connected or waiting for its
 * approver (CHLIM; an expired request is no channel), and its admin has
 * messaged the bot (ADMNR, naming the handle). The admin's chat id is their user id,
 * which Telegram is then asked about.
 */
declare
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

CREATE OR REPLACE FUNCTION app_private.open_approver_request(p_channel_id bigint, p_user_id bigint, p_kind text, p_approver_user_id bigint, p_approver_handle text, p_approver_name text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the named approver must say yes in Telegram before an account acts in their name
 * (README "Trust model"). An approver who blocked the account is never asked again (CHBLK);
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
  perform app_public.get_project(p_user_id, p_project_id);
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

CREATE OR REPLACE FUNCTION app_public.drop_approver_request(p_request_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: Telegram refused for good to deliver the question (the approver blocked the bot):
     nobody can answer it, so it holds nothing */
  with gone as (delete from app_public.approver_requests where id = p_request_id and message_id is null returning channel_id)
  delete from app_public.channels c using gone where c.id = gone.channel_id and c.status = 'pending'
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

CREATE OR REPLACE FUNCTION app_public.decide_approver_request(p_request_id bigint, p_from_user_id bigint, p_message_id bigint, p_decision text)
 RETURNS TABLE(outcome text, channel_link text, project_language text)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approver's answer, counted only from the pinned approver, on the message sent for
 * the request, while it is open; anything else is 'stale' and changes nothing. allow: the
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
  where r.id = p_request_id and r.approver_user_id = p_from_user_id and r.message_id = p_message_id
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
  return query select 'connected'::text, v_channel.link, v_language;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.approver_request_ttl()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how long an approver's Allow/Deny request stays open (APPROVER_REQUEST_TTL_HOURS in TypeScript) */
  select interval '24 hours'
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
  select * into v_project from app_public.projects where id = p_project_id and user_id = p_user_id for update;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
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
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_channels(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, project_id bigint, type text, link text, status text, config jsonb, created_at timestamp with time zone, updated_at timestamp with time zone, chat_id bigint, approver_user_id bigint, approver_handle text, approver_name text, rights_checked_at timestamp with time zone, awaiting_handle text, awaiting_until timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the channels page and the schedule page list them, each with the approver's request
     still waiting on it (a pending channel whose request expired is gone); ownership checked
     in the join */
  select c.*, r.approver_handle as awaiting_handle, r.created_at + app_private.approver_request_ttl() as awaiting_until
  from app_public.channels c
  join app_public.projects p on p.id = c.project_id and p.user_id = p_user_id
  left join app_public.approver_requests r
    on r.channel_id = c.id and r.created_at > now() - app_private.approver_request_ttl()
  where c.project_id = p_project_id and (c.status = 'connected' or r.id is not null)
  order by c.created_at, c.id
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
