--! Previous: sha1:b489811d0b22e0388f7870886e8173cc05c6df0a
--! Hash: sha1:37487182d10f8446ea7a36da72b6fe12c4cb3736
--! Message: Limits and privacy: AI calls and tokens per account, one generation job per project, sign-in per IP, private uploads by key, quotas, 90-day sessions, one live post per draft

/*
 * Limits and privacy. Pressa is one service shared by many accounts: no account may run up
 * the operator's AI costs, starve other accounts' jobs, or read another account's files.
 * Every limit is kept here, in PostgreSQL, so that several API processes share it; the
 * numbers come from the environment (README "Limits") and are passed in by the caller. A
 * null limit means none (for operators calling a function from psql).
 */

------------------------------------------------------------------------------------------
-- AI: calls per minute and tokens per day, per account
------------------------------------------------------------------------------------------
create table if not exists app_private.ai_calls (
  user_id bigint not null references app_public.users on delete cascade,
  called_at timestamptz not null default now()
);
create index if not exists ai_calls_user_idx on app_private.ai_calls (user_id, called_at);

create table if not exists app_private.ai_tokens (
  user_id bigint not null references app_public.users on delete cascade,
  day date not null,
  tokens bigint not null default 0 check (tokens >= 0),
  primary key (user_id, day)
);

create or replace function app_private.utc_today() returns date
language sql stable as $$ select (now() at time zone 'UTC')::date $$;

create or replace function app_public.begin_ai_call(p_user_id bigint, p_calls_per_minute int, p_daily_tokens bigint)
returns void
language plpgsql volatile as $$
/*
 * why: every AI request of an account (titles, posts, chat, a content-generation job)
 * counts one call here before the provider is asked. Over the account's calls in the last
 * minute, or once its tokens of the UTC day are spent, it is refused (AILIM; the hint is
 * the API's code, the detail the seconds to wait). One account's use never counts against
 * another's. Calls of one account are counted one at a time, so concurrent requests
 * cannot slip past the limit together.
 */
declare
  v_spent bigint;
  v_calls int;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('ai_calls:' || p_user_id, 0));
  select tokens into v_spent from app_private.ai_tokens where user_id = p_user_id and day = app_private.utc_today();
  if p_daily_tokens is not null and coalesce(v_spent, 0) >= p_daily_tokens then
    raise exception 'The daily AI budget of this account is spent. It renews at midnight UTC.'
      using errcode = 'AILIM', hint = 'ai.dailyBudgetSpent',
      detail = greatest(1, ceil(extract(epoch from (app_private.utc_today() + 1)::timestamp at time zone 'UTC' - now())))::int::text;
  end if;
  delete from app_private.ai_calls where user_id = p_user_id and called_at <= now() - interval '1 minute';
  select count(*), min(called_at) into v_calls, v_oldest from app_private.ai_calls where user_id = p_user_id;
  if p_calls_per_minute is not null and v_calls >= p_calls_per_minute then
    raise exception 'Too many AI requests from this account. Please wait a minute and try again.'
      using errcode = 'AILIM', hint = 'ai.rateLimited',
      detail = greatest(1, ceil(extract(epoch from v_oldest + interval '1 minute' - now())))::int::text;
  end if;
  insert into app_private.ai_calls (user_id) values (p_user_id);
end;
$$;

create or replace function app_public.record_ai_tokens(p_user_id bigint, p_tokens bigint) returns void
language sql volatile as $$
  /* why: the tokens a provider call cost (as the provider reported them) count against the account's day */
  insert into app_private.ai_tokens (user_id, day, tokens)
  values (p_user_id, app_private.utc_today(), greatest(p_tokens, 0))
  on conflict (user_id, day) do update set tokens = app_private.ai_tokens.tokens + excluded.tokens
$$;

create or replace function app_public.ai_budget_spent(p_user_id bigint, p_daily_tokens bigint) returns boolean
language sql stable as $$
  /* why: a content-generation job stops writing drafts once its owner's day is spent */
  select p_daily_tokens is not null and coalesce((
    select tokens from app_private.ai_tokens where user_id = p_user_id and day = app_private.utc_today()), 0) >= p_daily_tokens
$$;

/* One running content-generation job per project: a second one would double the cost. */
create or replace function app_public.create_generation_job(
  p_user_id bigint, p_project_id bigint, p_draft_ids bigint[], p_post_length int
) returns app_public.generation_jobs
language plpgsql volatile as $$
/*
 * why: "generate content" for 1–30 selected drafts of the project: a job row the client
 * polls, and the worker job that fills the drafts, queued in the same transaction. While
 * another job of the project is running it is refused (GJRUN, the detail is that job's
 * id); a job silent for 15 minutes (its worker lost it for good) no longer counts.
 */
declare
  v_ids bigint[];
  v_job app_public.generation_jobs;
  v_running bigint;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  perform pg_advisory_xact_lock(hashtextextended('generation_job:' || p_project_id, 0));
  select id into v_running from app_public.generation_jobs
  where project_id = p_project_id and status in ('pending', 'processing') and updated_at > now() - interval '15 minutes'
  order by id desc limit 1;
  if v_running is not null then
    raise exception 'Content is already being generated for this project; wait for that job to finish'
      using errcode = 'GJRUN', detail = v_running::text;
  end if;
  select coalesce(array_agg(distinct id), '{}') into v_ids from unnest(p_draft_ids) as id;
  if cardinality(v_ids) = 0 then
    raise exception 'drafts.noSelectedDrafts' using errcode = 'INVAL';
  end if;
  if cardinality(v_ids) > 30 then
    raise exception 'drafts.tooManyDraftsSelected' using errcode = 'INVAL';
  end if;
  if (select count(*) from app_public.drafts where project_id = p_project_id and id = any(v_ids)) <> cardinality(v_ids) then
    raise exception 'Draft not found' using errcode = 'NTFND';
  end if;
  -- keep the user's order of the list
  select array_agg(id order by sort_order, created_at, id) into v_ids
  from app_public.drafts where id = any(v_ids);
  insert into app_public.generation_jobs (project_id, type, data, result)
  values (p_project_id, 'generate_content',
          jsonb_build_object('draftIds', to_jsonb(v_ids), 'postLength', p_post_length),
          jsonb_build_object('progress', jsonb_build_object('completed', 0, 'total', cardinality(v_ids)),
                             'drafts', '{}'::jsonb))
  returning * into v_job;
  perform graphile_worker.add_job('drafts__generate_content', json_build_object('jobId', v_job.id), max_attempts := 3);
  return v_job;
end;
$$;

------------------------------------------------------------------------------------------
-- Sign-in per client IP
------------------------------------------------------------------------------------------
create table if not exists app_private.sign_in_attempts (
  ip text not null check (length(ip) <= 100),
  kind text not null check (kind in ('request', 'verify')),
  at timestamptz not null default now()
);
create index if not exists sign_in_attempts_ip_idx on app_private.sign_in_attempts (ip, kind, at);

create or replace function app_public.count_sign_in_attempt(p_ip text, p_kind text, p_max int) returns void
language plpgsql volatile security definer set search_path = pg_catalog, public as $$
/*
 * why: the per-address rules (3 codes, 5 tries) do not stop one client spraying requests
 * over many addresses. Each code request or check of a client IP counts here; over
 * p_max in 10 minutes it is refused (RATEL, the detail is the seconds to wait). Refused
 * attempts are not counted, so a client that keeps trying waits only the window.
 */
declare
  v_count int;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('sign_in_ip:' || p_kind || ':' || p_ip, 0));
  delete from app_private.sign_in_attempts where ip = p_ip and kind = p_kind and at <= now() - interval '10 minutes';
  select count(*), min(at) into v_count, v_oldest from app_private.sign_in_attempts where ip = p_ip and kind = p_kind;
  if v_count >= p_max then
    raise exception 'Too many sign-in attempts from this network. Please wait a few minutes and try again.'
      using errcode = 'RATEL', detail = greatest(1, ceil(extract(epoch from v_oldest + interval '10 minutes' - now())))::int::text;
  end if;
  insert into app_private.sign_in_attempts (ip, kind) values (p_ip, p_kind);
end;
$$;

create or replace function app_public.delete_expired_sign_in_state() returns void
language sql volatile security definer set search_path = pg_catalog, public as $$
  /* why: expired sessions, old codes, old attempts and old AI counters only grow the tables */
  delete from app_private.sessions where expires_at < now();
  delete from app_private.sign_in_codes where created_at < now() - interval '1 day';
  delete from app_private.sign_in_attempts where at < now() - interval '1 day';
  delete from app_private.ai_calls where called_at < now() - interval '1 day';
  delete from app_private.ai_tokens where day < app_private.utc_today() - 7;
$$;

/* Sessions: besides the 30-day sliding expiry, none lives longer than 90 days. */
create or replace function app_public.extend_session(p_session_id text) returns timestamptz
language sql volatile security definer set search_path = pg_catalog, public as $$
  /* why: a used session lives 30 days from its last use, but never past 90 days from sign-in */
  update app_private.sessions set expires_at = least(now() + interval '30 days', created_at + interval '90 days')
  where id = p_session_id and expires_at > now()
  returning expires_at
$$;

------------------------------------------------------------------------------------------
-- Uploads: private, referenced by key, counted per account
------------------------------------------------------------------------------------------
/* The key of an upload URL of ours (/api/uploads/<key>), or null. */
create or replace function app_private.upload_key(p_url text) returns text
language sql immutable parallel safe as $$
  select substring(p_url from '^/api/uploads/([A-Za-z0-9_-]{16,64}\.(?:png|jpg|webp|gif))$')
$$;

alter table app_public.drafts add column if not exists image_key text
  generated always as (app_private.upload_key(image_url)) stored;
alter table app_public.posts add column if not exists image_key text
  generated always as (app_private.upload_key(image_url)) stored;
alter table app_public.bug_reports add column if not exists screenshot_key text
  generated always as (app_private.upload_key(screenshot_url)) stored;
create index if not exists drafts_image_key_idx on app_public.drafts (image_key) where image_key is not null;
create index if not exists posts_image_key_idx on app_public.posts (image_key) where image_key is not null;
create index if not exists bug_reports_screenshot_key_idx on app_public.bug_reports (screenshot_key) where screenshot_key is not null;
create index if not exists uploads_user_idx on app_private.uploads (user_id);
create index if not exists uploads_project_idx on app_private.uploads (project_id);

alter table app_private.uploads drop constraint if exists uploads_key_project_key;
alter table app_private.uploads add constraint uploads_key_project_key unique (key, project_id);
/*
 * A draft or post may show only an upload of its own project; a bug report only an upload
 * that exists. NOT VALID: rows saved before this rule are not checked (an image of theirs
 * may have no upload row); every row written from now on is.
 */
alter table app_public.drafts drop constraint if exists drafts_image_upload_fkey;
alter table app_public.drafts add constraint drafts_image_upload_fkey
  foreign key (image_key, project_id) references app_private.uploads (key, project_id) not valid;
alter table app_public.posts drop constraint if exists posts_image_upload_fkey;
alter table app_public.posts add constraint posts_image_upload_fkey
  foreign key (image_key, project_id) references app_private.uploads (key, project_id) not valid;
alter table app_public.bug_reports drop constraint if exists bug_reports_screenshot_upload_fkey;
alter table app_public.bug_reports add constraint bug_reports_screenshot_upload_fkey
  foreign key (screenshot_key) references app_private.uploads (key) not valid;

drop function if exists app_public.record_upload(bigint, bigint, text, text, int);
create function app_public.record_upload(
  p_user_id bigint, p_project_id bigint, p_key text, p_content_type text, p_size int, p_max_bytes bigint
) returns void
language plpgsql volatile as $$
/*
 * why: an upload belongs to a project the user owns (NTFND otherwise), or to the user
 * alone (a bug report's screenshot). It is recorded before its file is stored, so the
 * account's stored bytes are counted one upload at a time (QUOTA over p_max_bytes).
 */
begin
  if p_project_id is not null then
    perform app_public.get_project(p_user_id, p_project_id);
  end if;
  perform pg_advisory_xact_lock(hashtextextended('uploads:' || p_user_id, 0));
  if p_max_bytes is not null
     and (select coalesce(sum(size_bytes), 0) from app_private.uploads where user_id = p_user_id) + p_size > p_max_bytes then
    raise exception 'The images of this account have reached the storage limit. Delete drafts with images you no longer need.'
      using errcode = 'QUOTA', hint = 'uploads.quotaReached';
  end if;
  insert into app_private.uploads (key, project_id, user_id, content_type, size_bytes)
  values (p_key, p_project_id, p_user_id, p_content_type, p_size);
end;
$$;

create or replace function app_public.forget_upload(p_key text) returns void
language sql volatile as $$
  /* why: its file could not be stored; nothing refers to it yet */
  delete from app_private.uploads where key = p_key
$$;

create or replace function app_public.readable_upload(p_user_id bigint, p_key text) returns text
language sql stable as $$
  /* why: an upload is served only to the account it belongs to (its project's owner, or
     the user who sent a bug report's screenshot) and to admins for a bug report's
     screenshot; answers its content type, or null (the API then answers 404) */
  select u.content_type from app_private.uploads u
  where u.key = p_key and (
    exists (select 1 from app_public.projects p where p.id = u.project_id and p.user_id = p_user_id)
    or (u.project_id is null and u.user_id = p_user_id)
    or (exists (select 1 from app_public.users a where a.id = p_user_id and a.is_admin)
        and exists (select 1 from app_public.bug_reports b where b.screenshot_key = u.key)))
$$;

create or replace function app_public.take_orphan_uploads(p_older_than interval) returns setof text
language sql volatile as $$
  /* why: files no draft, post or bug report refers to (by their key columns), older than a
     grace period (a draft being edited may hold a fresh upload not yet saved), are
     forgotten here and their keys answered so the worker deletes the files */
  delete from app_private.uploads u
  where u.created_at < now() - p_older_than
    and not exists (select 1 from app_public.drafts d where d.image_key = u.key)
    and not exists (select 1 from app_public.posts p where p.image_key = u.key)
    and not exists (select 1 from app_public.bug_reports b where b.screenshot_key = u.key)
  returning u.key
$$;

create or replace function app_public.delete_project(p_user_id bigint, p_project_id bigint) returns void
language plpgsql volatile as $$
/*
 * why: deleting a project removes its channel, drafts, posts, chat, jobs and uploads
 * (cascade); their files are deleted by the worker (uploads__delete), and their URLs
 * answer 404 at once since the rows are gone.
 */
declare
  v_keys text[];
begin
  select coalesce(array_agg(key), '{}') into v_keys from app_private.uploads
  where project_id = p_project_id and exists (select 1 from app_public.projects where id = p_project_id and user_id = p_user_id);
  delete from app_public.projects where id = p_project_id and user_id = p_user_id;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND';
  end if;
  if cardinality(v_keys) > 0 then
    perform graphile_worker.add_job('uploads__delete', json_build_object('keys', to_jsonb(v_keys)), max_attempts := 10);
  end if;
end;
$$;

------------------------------------------------------------------------------------------
-- Quotas per account
------------------------------------------------------------------------------------------
drop function if exists app_public.create_project(bigint, text, text, jsonb, text, text, text, text);
create function app_public.create_project(
  p_user_id bigint, p_name text, p_description text, p_writing_style jsonb, p_admin_handle text,
  p_timezone text, p_language text, p_sources text, p_max_projects int default null
) returns app_public.projects
language plpgsql volatile as $$
/* why: defaults of spec §3 come from the table; the handle is stored without its @; an account has at most p_max_projects */
declare
  v_project app_public.projects;
begin
  perform pg_advisory_xact_lock(hashtextextended('projects:' || p_user_id, 0));
  if p_max_projects is not null and (select count(*) from app_public.projects where user_id = p_user_id) >= p_max_projects then
    raise exception 'An account can have at most % projects. Delete one you no longer need.', p_max_projects
      using errcode = 'QUOTA', hint = 'projects.quotaReached';
  end if;
  insert into app_public.projects (user_id, name, description, writing_style, admin_handle, timezone, language, sources)
  values (
    p_user_id, btrim(p_name), coalesce(p_description, ''),
    coalesce(p_writing_style, '{"formality": 2, "seriousness": 2, "emojiUsage": 1}'),
    ltrim(btrim(p_admin_handle), '@'), coalesce(p_timezone, 'Europe/Moscow'), coalesce(p_language, 'ru'),
    coalesce(p_sources, '')
  )
  returning * into v_project;
  return v_project;
end;
$$;

create or replace function app_private.assert_draft_room(p_project_id bigint, p_adding int, p_max_drafts int) returns void
language plpgsql volatile as $$
/* why: a project has at most p_max_drafts drafts; adds to one project are counted one at a time */
begin
  if p_max_drafts is null then
    return;
  end if;
  perform 1 from app_public.projects where id = p_project_id for update;
  if (select count(*) from app_public.drafts where project_id = p_project_id) + p_adding > p_max_drafts then
    raise exception 'A project can have at most % drafts. Delete drafts you no longer need.', p_max_drafts
      using errcode = 'QUOTA', hint = 'drafts.quotaReached';
  end if;
end;
$$;

drop function if exists app_public.create_draft(bigint, bigint, text, text, text, int);
create function app_public.create_draft(
  p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order int,
  p_max_drafts int default null
) returns app_public.drafts
language plpgsql volatile as $$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0 as in the spec's data */
declare
  v_draft app_public.drafts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  insert into app_public.drafts (project_id, title, content, image_url, sort_order)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), nullif(p_image_url, ''), coalesce(p_order, 0))
  returning * into v_draft;
  return v_draft;
end;
$$;

drop function if exists app_public.bulk_create_drafts(bigint, bigint, text[]);
create function app_public.bulk_create_drafts(p_user_id bigint, p_project_id bigint, p_titles text[], p_max_drafts int default null)
returns setof app_public.drafts
language plpgsql volatile as $$
/*
 * why: bulk add (spec §5): lines are trimmed, blank ones ignored, at most 30 remain, all
 * inserted together (within the project's room) and appended after the existing drafts in
 * the given order.
 */
declare
  v_titles text[];
  v_next int;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select coalesce(array_agg(btrim(t) order by n), '{}') into v_titles
  from unnest(p_titles) with ordinality as u(t, n)
  where btrim(t) <> '';
  if cardinality(v_titles) = 0 then
    raise exception 'drafts.bulkAddFailed' using errcode = 'INVAL';
  end if;
  if cardinality(v_titles) > 30 then
    raise exception 'drafts.bulkAddMaxLinesError' using errcode = 'INVAL';
  end if;
  perform app_private.assert_draft_room(p_project_id, cardinality(v_titles), p_max_drafts);
  select coalesce(max(sort_order) + 1, 0) into v_next from app_public.drafts where project_id = p_project_id;
  return query
    insert into app_public.drafts (project_id, title, sort_order)
    select p_project_id, t, v_next + (n - 1)::int from unnest(v_titles) with ordinality as u(t, n)
    returning *;
end;
$$;

drop function if exists app_public.create_bug_report(bigint, text, text, text, text);
create function app_public.create_bug_report(
  p_user_id bigint, p_description text, p_screenshot_url text, p_page_url text, p_user_agent text,
  p_max_per_day int default null
) returns app_public.bug_reports
language plpgsql volatile as $$
/* why: a report keeps who sent it and from where, for whoever handles it; at most p_max_per_day per account in 24 hours */
declare
  v_report app_public.bug_reports;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('bug_reports:' || p_user_id, 0));
  if p_max_per_day is not null then
    select min(created_at) into v_oldest from (
      select created_at from app_public.bug_reports
      where user_id = p_user_id and created_at > now() - interval '1 day'
      order by created_at desc limit p_max_per_day) recent
    having count(*) >= p_max_per_day;
    if v_oldest is not null then
      raise exception 'An account can send at most % bug reports a day. Please try again later.', p_max_per_day
        using errcode = 'RATEL', hint = 'bugReports.quotaReached',
        detail = greatest(1, ceil(extract(epoch from v_oldest + interval '1 day' - now())))::int::text;
    end if;
  end if;
  insert into app_public.bug_reports (user_id, description, screenshot_url, page_url, user_agent)
  values (p_user_id, btrim(p_description), nullif(p_screenshot_url, ''), left(p_page_url, 2000), left(p_user_agent, 1000))
  returning * into v_report;
  return v_report;
end;
$$;

------------------------------------------------------------------------------------------
-- One live post per draft, even when two schedules race
------------------------------------------------------------------------------------------
/* A draft planned twice before this rule: the later post not yet out is failed, saying why. */
update app_public.posts p set status = 'failed', last_error = 'schedule.draftAlreadyScheduled'
where p.draft_id is not null and p.status in ('draft', 'scheduled', 'approved') and exists (
  select 1 from app_public.posts o
  where o.draft_id = p.draft_id and o.id < p.id and o.status not in ('rejected', 'failed'));
create unique index if not exists posts_one_live_per_draft on app_public.posts (draft_id)
  where draft_id is not null and status not in ('rejected', 'failed');
