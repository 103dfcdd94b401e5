--! Previous: -
--! Hash: sha1:5accb53bff2339b82b84a30b5566f76bd13c3cea
--! Message: schema for every entity, sign-in and projects

/*
 * Pressa's schema. app_public holds what the API, the worker and the bot call;
 * app_private holds secrets (session and code hashes) and internals.
 * Every rule the product depends on is a constraint or a function here; error codes
 * raised by functions are listed in sql/error_codes.md.
 */
create schema if not exists app_public;
create schema if not exists app_private;

create or replace function app_private.touch_updated_at() returns trigger
language plpgsql as $$
begin
  /* why: updated_at must move on every change, whoever makes it (API, worker, psql) */
  new.updated_at := now();
  return new;
end;
$$;

/* The timezone choices of spec §3; the SPA offers the same list (api/contract/limits.ts). */
create or replace function app_private.is_supported_timezone(p_zone text) returns boolean
language sql immutable parallel safe as $$
  select p_zone in (
    'UTC', 'Europe/London', 'Europe/Paris', 'Europe/Berlin', 'Europe/Athens', 'Europe/Kaliningrad',
    'Europe/Moscow', 'Europe/Samara', 'Asia/Yekaterinburg', 'Asia/Omsk', 'Asia/Krasnoyarsk',
    'Asia/Irkutsk', 'Asia/Yakutsk', 'Asia/Vladivostok', 'Asia/Magadan', 'Asia/Kamchatka',
    'Asia/Dubai', 'Asia/Singapore', 'Asia/Tokyo', 'America/New_York', 'America/Chicago',
    'America/Denver', 'America/Los_Angeles', 'Australia/Sydney')
$$;

------------------------------------------------------------------------------------------
-- Users, sessions, sign-in codes
------------------------------------------------------------------------------------------
create table app_public.users (
  id bigint generated always as identity primary key,
  email text not null unique
    check (email = lower(btrim(email)) and email ~ '^[^@\s]+@[^@\s]+$' and length(email) <= 254),
  is_admin boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger _100_touch before update on app_public.users
  for each row execute function app_private.touch_updated_at();

/* A session is known only by the SHA-256 of its token; the token lives in the cookie. */
create table app_private.sessions (
  id text primary key check (id ~ '^[0-9a-f]{64}$'),
  user_id bigint not null references app_public.users on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index sessions_user_id_idx on app_private.sessions (user_id);
create index sessions_expires_at_idx on app_private.sessions (expires_at);

/*
 * Sign-in codes are issued per e-mail, not per user: the user row is created only at the
 * first successful sign-in, so known and unknown addresses are treated the same.
 */
create table app_private.sign_in_codes (
  id bigint generated always as identity primary key,
  email text not null check (email = lower(btrim(email))),
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  salt text not null,
  failed_attempts int not null default 0 check (failed_attempts between 0 and 5),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index sign_in_codes_email_created_idx on app_private.sign_in_codes (email, created_at desc);

------------------------------------------------------------------------------------------
-- Projects and their channel
------------------------------------------------------------------------------------------
create table app_public.projects (
  id bigint generated always as identity primary key,
  user_id bigint not null references app_public.users on delete cascade,
  name text not null check (btrim(name) <> '' and length(name) <= 100),
  description text not null default '' check (length(description) <= 2000),
  writing_style jsonb not null default '{"formality": 2, "seriousness": 2, "emojiUsage": 1}'
    /* "is true": a missing key makes the test null, which a bare check would let through */
    check ((
      jsonb_typeof(writing_style) = 'object'
      and jsonb_typeof(writing_style -> 'formality') = 'number'
      and jsonb_typeof(writing_style -> 'seriousness') = 'number'
      and jsonb_typeof(writing_style -> 'emojiUsage') = 'number'
      and (writing_style ->> 'formality')::numeric in (0, 1, 2, 3, 4)
      and (writing_style ->> 'seriousness')::numeric in (0, 1, 2, 3, 4)
      and (writing_style ->> 'emojiUsage')::numeric in (0, 1, 2)
    ) is true),
  /* stored without the @; Telegram compares usernames case-insensitively */
  admin_handle text not null check (admin_handle ~ '^[A-Za-z0-9_]{5,64}$'),
  timezone text not null default 'Europe/Moscow' check (app_private.is_supported_timezone(timezone)),
  language text not null default 'ru' check (language in ('ru', 'en')),
  sources text not null default '' check (length(sources) <= 5000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index projects_user_created_idx on app_public.projects (user_id, created_at desc, id desc);
create trigger _100_touch before update on app_public.projects
  for each row execute function app_private.touch_updated_at();

create table app_public.channels (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects on delete cascade,
  type text not null check (type in ('telegram', 'vk', 'dzen')),
  link text not null check (btrim(link) <> '' and length(link) <= 200),
  status text not null default 'pending' check (status in ('pending', 'connected')),
  /* chatId, adminChatId, lastPostTime */
  config jsonb not null default '{}' check (jsonb_typeof(config) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  /* spec §9: one channel per project; a constraint so two concurrent adds cannot both win */
  constraint channels_one_per_project unique (project_id)
);
create trigger _100_touch before update on app_public.channels
  for each row execute function app_private.touch_updated_at();

/* Telegram handle → private chat id, recorded by the bot when the admin messages it. */
create table app_public.admin_chat_ids (
  id bigint generated always as identity primary key,
  admin_handle text not null check (admin_handle ~ '^[a-z0-9_]{5,64}$'),
  chat_id bigint not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint admin_chat_ids_handle_key unique (admin_handle)
);
create trigger _100_touch before update on app_public.admin_chat_ids
  for each row execute function app_private.touch_updated_at();

------------------------------------------------------------------------------------------
-- Drafts, posts, content plans
------------------------------------------------------------------------------------------
create table app_public.drafts (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects on delete cascade,
  title text not null check (btrim(title) <> '' and length(title) <= 500),
  content text not null default '' check (length(content) <= 20000),
  image_url text check (image_url is null or length(image_url) <= 1000),
  sort_order int not null default 0,
  status text not null default 'draft' check (status in ('draft')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index drafts_project_order_idx on app_public.drafts (project_id, sort_order, created_at, id);
create trigger _100_touch before update on app_public.drafts
  for each row execute function app_private.touch_updated_at();

create table app_public.posts (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects on delete cascade,
  draft_id bigint references app_public.drafts on delete set null,
  title text not null default '' check (length(title) <= 500),
  content text not null default '' check (length(content) <= 20000),
  image_url text check (image_url is null or length(image_url) <= 1000),
  status text not null default 'draft' check (status in ('draft', 'scheduled', 'published', 'rejected')),
  scheduled_for timestamptz not null,
  is_recurring boolean not null default false,
  recurring_type text not null default 'none' check (recurring_type in ('none', 'daily', 'weekly')),
  recurring_last_post timestamptz,
  approval_message_ids jsonb not null default '{}' check (jsonb_typeof(approval_message_ids) = 'object'),
  published_links jsonb not null default '{}' check (jsonb_typeof(published_links) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint posts_recurring_type_matches check (is_recurring = (recurring_type <> 'none')),
  constraint posts_title_unless_recurring check (is_recurring or btrim(title) <> '')
);
create index posts_project_scheduled_idx on app_public.posts (project_id, scheduled_for, id);
create index posts_draft_idx on app_public.posts (draft_id) where draft_id is not null;
create index posts_due_idx on app_public.posts (scheduled_for) where status in ('draft', 'scheduled');
create trigger _100_touch before update on app_public.posts
  for each row execute function app_private.touch_updated_at();

create table app_public.content_plans (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects on delete cascade,
  day_of_week smallint not null check (day_of_week between 0 and 6),
  time text not null check (time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  timezone text not null default 'Europe/Moscow' check (app_private.is_supported_timezone(timezone)),
  post_length int not null check (post_length between 50 and 5000),
  active boolean not null default true,
  created_at timestamptz not null default now()
);
create index content_plans_project_idx on app_public.content_plans (project_id, day_of_week, time);

------------------------------------------------------------------------------------------
-- AI: content-generation jobs and the assistant chat
------------------------------------------------------------------------------------------
create table app_public.generation_jobs (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects on delete cascade,
  type text not null check (type in ('generate_content')),
  status text not null default 'pending' check (status in ('pending', 'processing', 'completed', 'failed')),
  data jsonb not null default '{}',
  result jsonb not null default '{}',
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index generation_jobs_project_idx on app_public.generation_jobs (project_id, created_at desc);
create trigger _100_touch before update on app_public.generation_jobs
  for each row execute function app_private.touch_updated_at();

create table app_public.chat_messages (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects on delete cascade,
  user_id bigint not null references app_public.users on delete cascade,
  role text not null check (role in ('user', 'assistant')),
  content text not null check (length(content) <= 20000),
  created_at timestamptz not null default now()
);
create index chat_messages_project_created_idx on app_public.chat_messages (project_id, created_at desc, id desc);
create index chat_messages_user_idx on app_public.chat_messages (user_id);

------------------------------------------------------------------------------------------
-- Bug reports
------------------------------------------------------------------------------------------
create table app_public.bug_reports (
  id bigint generated always as identity primary key,
  user_id bigint references app_public.users on delete set null,
  description text not null check (btrim(description) <> '' and length(description) <= 10000),
  screenshot_url text check (screenshot_url is null or length(screenshot_url) <= 1000),
  page_url text check (page_url is null or length(page_url) <= 2000),
  user_agent text check (user_agent is null or length(user_agent) <= 1000),
  status text not null default 'new' check (status in ('new', 'in_progress', 'resolved', 'closed')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index bug_reports_created_idx on app_public.bug_reports (created_at desc, id desc);
create index bug_reports_user_idx on app_public.bug_reports (user_id);
create trigger _100_touch before update on app_public.bug_reports
  for each row execute function app_private.touch_updated_at();

------------------------------------------------------------------------------------------
-- Sign-in
------------------------------------------------------------------------------------------
create or replace function app_private.hash_sign_in_code(p_salt text, p_code text) returns text
language sql immutable parallel safe as $$
  select encode(sha256(convert_to(p_salt || ':' || p_code, 'UTF8')), 'hex')
$$;

create or replace function app_public.request_sign_in_code(p_email text, p_code text) returns boolean
language plpgsql volatile security definer set search_path = pg_catalog, public as $$
/*
 * why: issues a code for an e-mail and queues the mail in the same transaction. Answers
 * true (code already sent, nothing mailed) while a live code exists; refuses a 4th code
 * within 10 minutes. Known and unknown addresses take the same path.
 */
declare
  v_salt text := gen_random_uuid()::text;
  v_recent int;
begin
  -- one request per address at a time, so concurrent requests cannot exceed the limits
  perform pg_advisory_xact_lock(hashtextextended('sign_in_code:' || p_email, 0));
  if exists (
    select 1 from app_private.sign_in_codes
    where email = p_email and used_at is null and expires_at > now() and failed_attempts < 5
  ) then
    return true;
  end if;
  select count(*) into v_recent from app_private.sign_in_codes
    where email = p_email and created_at > now() - interval '10 minutes';
  if v_recent >= 3 then
    raise exception 'Too many codes requested for this e-mail. Please wait 10 minutes and try again.'
      using errcode = 'RATEL';
  end if;
  insert into app_private.sign_in_codes (email, code_hash, salt, expires_at)
    values (p_email, app_private.hash_sign_in_code(v_salt, p_code), v_salt, now() + interval '10 minutes');
  perform graphile_worker.add_job(
    'sign_in_codes__send',
    json_build_object('email', p_email, 'code', p_code),
    max_attempts := 8
  );
  return false;
end;
$$;

create or replace function app_public.verify_sign_in_code(
  p_email text, p_code text, p_session_id text, p_make_admin boolean
) returns table (id bigint, email text, is_admin boolean)
language plpgsql volatile security definer set search_path = pg_catalog, public as $$
/*
 * why: checks the newest live code of an address. A wrong code counts an attempt (the
 * fifth kills the code) and answers no row instead of raising, so the count is kept.
 * The right code is spent, the user is created on first sign-in, and a session opens.
 */
declare
  v_code app_private.sign_in_codes;
  v_user app_public.users;
begin
  select * into v_code from app_private.sign_in_codes c
    where c.email = p_email and c.used_at is null and c.expires_at > now() and c.failed_attempts < 5
    order by c.created_at desc limit 1
    for update;
  if not found then
    return;
  end if;
  if v_code.code_hash <> app_private.hash_sign_in_code(v_code.salt, p_code) then
    update app_private.sign_in_codes set failed_attempts = failed_attempts + 1 where sign_in_codes.id = v_code.id;
    return;
  end if;
  update app_private.sign_in_codes set used_at = now() where sign_in_codes.id = v_code.id;
  insert into app_public.users as u (email, is_admin) values (p_email, p_make_admin)
    on conflict on constraint users_email_key do update set is_admin = u.is_admin or excluded.is_admin
    returning * into v_user;
  insert into app_private.sessions (id, user_id, expires_at) values (p_session_id, v_user.id, now() + interval '30 days');
  return query select v_user.id, v_user.email, v_user.is_admin;
end;
$$;

create or replace function app_public.session_user(p_session_id text)
returns table (id bigint, email text, is_admin boolean, expires_at timestamptz)
language sql volatile security definer set search_path = pg_catalog, public as $$
  /* why: one round trip per request: find the session's user and slide the expiry when
     less than half of the 30 days is left (so most requests write nothing) */
  with slid as (
    update app_private.sessions s set expires_at = now() + interval '30 days'
    where s.id = p_session_id and s.expires_at > now() and s.expires_at < now() + interval '15 days'
    returning s.user_id, s.expires_at
  ), live as (
    select user_id, expires_at from slid
    union all
    select s.user_id, s.expires_at from app_private.sessions s
    where s.id = p_session_id and s.expires_at >= now() + interval '15 days'
  )
  select u.id, u.email, u.is_admin, live.expires_at from live join app_public.users u on u.id = live.user_id
$$;

create or replace function app_public.revoke_session(p_session_id text) returns void
language sql volatile security definer set search_path = pg_catalog, public as $$
  /* why: logout must end the session on the server, not only drop the cookie */
  delete from app_private.sessions where id = p_session_id
$$;

create or replace function app_public.delete_expired_sign_in_state() returns void
language sql volatile security definer set search_path = pg_catalog, public as $$
  /* why: expired sessions and old codes are useless and only grow the tables */
  delete from app_private.sessions where expires_at < now();
  delete from app_private.sign_in_codes where created_at < now() - interval '1 day';
$$;

------------------------------------------------------------------------------------------
-- Projects
------------------------------------------------------------------------------------------
create or replace function app_public.user_projects(p_user_id bigint) returns setof app_public.projects
language sql stable as $$
  /* why: the dashboard and sidebar list, newest first */
  select * from app_public.projects where user_id = p_user_id order by created_at desc, id desc
$$;

create or replace function app_public.get_project(p_user_id bigint, p_project_id bigint)
returns app_public.projects
language plpgsql stable as $$
/* why: ownership check shared by every project-scoped call: another user's project is "not found" */
declare
  v_project app_public.projects;
begin
  select * into v_project from app_public.projects where id = p_project_id and user_id = p_user_id;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND';
  end if;
  return v_project;
end;
$$;

create or replace function app_public.create_project(
  p_user_id bigint, p_name text, p_description text, p_writing_style jsonb, p_admin_handle text,
  p_timezone text, p_language text, p_sources text
) returns app_public.projects
language sql volatile as $$
  /* why: defaults of spec §3 come from the table; the handle is stored without its @ */
  insert into app_public.projects (user_id, name, description, writing_style, admin_handle, timezone, language, sources)
  values (
    p_user_id, btrim(p_name), coalesce(p_description, ''),
    coalesce(p_writing_style, '{"formality": 2, "seriousness": 2, "emojiUsage": 1}'),
    ltrim(btrim(p_admin_handle), '@'), coalesce(p_timezone, 'Europe/Moscow'), coalesce(p_language, 'ru'),
    coalesce(p_sources, '')
  )
  returning *
$$;

create or replace function app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb)
returns app_public.projects
language plpgsql volatile as $$
/* why: PATCH semantics: only the keys present in p_changes change */
declare
  v_project app_public.projects;
begin
  update app_public.projects p set
    name = coalesce(btrim(p_changes ->> 'name'), p.name),
    description = coalesce(p_changes ->> 'description', p.description),
    writing_style = coalesce(p_changes -> 'writingStyle', p.writing_style),
    admin_handle = coalesce(ltrim(btrim(p_changes ->> 'adminHandle'), '@'), p.admin_handle),
    timezone = coalesce(p_changes ->> 'timezone', p.timezone),
    language = coalesce(p_changes ->> 'language', p.language),
    sources = coalesce(p_changes ->> 'sources', p.sources)
  where p.id = p_project_id and p.user_id = p_user_id
  returning * into v_project;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND';
  end if;
  return v_project;
end;
$$;

create or replace function app_public.delete_project(p_user_id bigint, p_project_id bigint) returns void
language plpgsql volatile as $$
/* why: deleting a project removes its channel, drafts, posts, chat and jobs (cascade) */
begin
  delete from app_public.projects where id = p_project_id and user_id = p_user_id;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND';
  end if;
end;
$$;

------------------------------------------------------------------------------------------
-- Telegram admins
------------------------------------------------------------------------------------------
create or replace function app_public.record_admin_chat(p_username text, p_chat_id bigint) returns void
language sql volatile as $$
  /* why: the bot learns a handle's private chat when its owner writes to it; a project
     can only connect a channel once its admin handle is known here. Handles compare
     case-insensitively, without the @. */
  insert into app_public.admin_chat_ids (admin_handle, chat_id)
  values (lower(ltrim(p_username, '@')), p_chat_id)
  on conflict on constraint admin_chat_ids_handle_key do update set chat_id = excluded.chat_id
$$;
