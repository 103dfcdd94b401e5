--! Previous: sha1:37487182d10f8446ea7a36da72b6fe12c4cb3736
--! Hash: sha1:93bbbc0d4bb6969096a948fe36be010977f9c7f8
--! Message: Scale: posts by range with a per-project version, admin lists paged, drafts moved one at a time, Telegram's send budget shared in PostgreSQL

--! split: 1-posts-by-range.sql
/*
 * The calendar reads one range, and its 5-second refetch costs one indexed lookup while
 * nothing changed: a project's posts carry a version, bumped in the same transaction as
 * any change to them, which the API answers as the list's ETag.
 */
create table if not exists app_private.posts_versions (
  project_id bigint primary key references app_public.projects on delete cascade,
  version bigint not null default 1
);

create or replace function app_private.bump_posts_version() returns trigger
language plpgsql as $$
/* why: one bump per statement and project, whatever the statement changed (insert, update,
   delete); posts deleted with their project bump nothing */
begin
  insert into app_private.posts_versions (project_id)
  select distinct c.project_id from changed_posts c
  where exists (select 1 from app_public.projects p where p.id = c.project_id)
  on conflict (project_id) do update set version = app_private.posts_versions.version + 1;
  return null;
end;
$$;

drop trigger if exists _200_bump_version_insert on app_public.posts;
create trigger _200_bump_version_insert after insert on app_public.posts
  referencing new table as changed_posts for each statement execute function app_private.bump_posts_version();
drop trigger if exists _200_bump_version_update on app_public.posts;
create trigger _200_bump_version_update after update on app_public.posts
  referencing new table as changed_posts for each statement execute function app_private.bump_posts_version();
drop trigger if exists _200_bump_version_delete on app_public.posts;
create trigger _200_bump_version_delete after delete on app_public.posts
  referencing old table as changed_posts for each statement execute function app_private.bump_posts_version();

create or replace function app_public.posts_version(p_user_id bigint, p_project_id bigint) returns bigint
language sql stable as $$
  /* why: what the posts lists' ETag says; another user's project has none (null: the API answers 404) */
  select coalesce(v.version, 0) from app_public.projects p
  left join app_private.posts_versions v on v.project_id = p.id
  where p.id = p_project_id and p.user_id = p_user_id
$$;

/* The range read is three index scans: by time, the series, and the live posts holding a draft. */
create index if not exists posts_project_series_idx on app_public.posts (project_id) where is_recurring;
create index if not exists posts_project_live_draft_idx on app_public.posts (project_id)
  where draft_id is not null and status in ('draft', 'scheduled', 'approved', 'sending', 'uncertain');

create or replace function app_public.project_posts_between(
  p_user_id bigint, p_project_id bigint, p_from timestamptz, p_to timestamptz
) returns setof app_public.posts
language sql stable as $$
  /* why: the calendar's month: the posts due in [p_from, p_to); every series that may have
     occurrences there (begun before p_to and not stopped before p_from), so the grid can
     show its virtual occurrences; and every post still holding a draft, wherever it lies,
     so the schedule form knows which drafts are free. Ownership in the join. */
  select po.* from app_public.posts po
  join app_public.projects p on p.id = po.project_id and p.user_id = p_user_id
  where po.id in (
    select id from app_public.posts
    where project_id = p_project_id and scheduled_for >= p_from and scheduled_for < p_to
    union
    select id from app_public.posts
    where project_id = p_project_id and is_recurring and scheduled_for < p_to
      and (status = 'draft' or coalesce(recurring_last_post, scheduled_for) >= p_from)
    union
    select id from app_public.posts
    where project_id = p_project_id and draft_id is not null
      and status in ('draft', 'scheduled', 'approved', 'sending', 'uncertain')
  )
  order by po.scheduled_for, po.id
$$;

--! split: 2-admin-paging.sql
-- Admin lists are paged: users (searchable by e-mail) and bug reports come a page at a time,
-- and the dashboard counts bug reports so no screen needs the whole list for a number.

/*
 * E-mail search is a case-insensitive substring match (`like '%…%'`; e-mails are stored in
 * lower case, see users' check), served by a trigram index. pg_trgm ships with PostgreSQL's
 * contrib (embedded PostgreSQL and the postgres image both have it, and it is a trusted
 * extension: a database owner may create it). Where it is missing the search still works,
 * by reading the users table; the notice says so.
 */
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
    create extension if not exists pg_trgm;
    create index if not exists users_email_trgm_idx on app_public.users using gin (email gin_trgm_ops);
  else
    raise notice 'pg_trgm is not available: the admin e-mail search reads the whole users table';
  end if;
end;
$$;

/*
 * Bug reports are listed newest first and paged after the last row shown, whose time the API
 * shows to the millisecond: the order and the cursor use that same millisecond, so a cursor
 * taken from the API is exact. date_trunc with a zone is immutable, so it can be indexed.
 */
create index if not exists bug_reports_created_ms_idx
  on app_public.bug_reports (date_trunc('milliseconds', created_at, 'UTC') desc, id desc);
drop index if exists app_public.bug_reports_created_idx; -- only the admin list read it

create or replace function app_private.admin_user_counts(p_user_id bigint)
returns table (project_count bigint, channel_count bigint, post_count bigint, draft_count bigint)
language sql stable as $$
  /* why: one user's row of the admin users table; each count walks that user's projects only */
  select count(*),
         coalesce(sum((select count(*) from app_public.channels c where c.project_id = p.id)), 0)::bigint,
         coalesce(sum((select count(*) from app_public.posts po where po.project_id = p.id)), 0)::bigint,
         coalesce(sum((select count(*) from app_public.drafts d where d.project_id = p.id)), 0)::bigint
  from app_public.projects p
  where p.user_id = p_user_id
$$;

drop function if exists app_public.admin_users(bigint);
create or replace function app_public.admin_users(p_user_id bigint, p_search text, p_after bigint, p_limit integer)
returns table (
  id bigint, email text, is_admin boolean, created_at timestamptz,
  project_count bigint, channel_count bigint, post_count bigint, draft_count bigint
)
language plpgsql stable
-- planned for each call's own search text: a rare one reads the trigram index, a common one
-- (or none) walks the ids and stops after a page; one cached plan cannot be right for both
set plan_cache_mode = force_custom_plan as $$
/*
 * why: the admin users table a page at a time, by id (a user who signs up meanwhile lands
 * after the rows shown, never among them); p_search matches any part of the e-mail. Counts
 * are taken for the page's users only, each through its project's indexes.
 */
declare
  v_pattern text;
begin
  perform app_private.assert_admin(p_user_id);
  if nullif(p_search, '') is null then
    return query
      select page.*, counts.*
      from (
        select u.id, u.email, u.is_admin, u.created_at from app_public.users u
        where u.id > coalesce(p_after, 0)
        order by u.id
        limit p_limit
      ) page
      cross join lateral app_private.admin_user_counts(page.id) counts
      order by page.id;
  else
    v_pattern := '%' || replace(replace(replace(lower(p_search), '\', '\\'), '%', '\%'), '_', '\_') || '%';
    return query
      select page.*, counts.*
      from (
        select u.id, u.email, u.is_admin, u.created_at from app_public.users u
        where u.id > coalesce(p_after, 0) and u.email like v_pattern
        order by u.id
        limit p_limit
      ) page
      cross join lateral app_private.admin_user_counts(page.id) counts
      order by page.id;
  end if;
end;
$$;

drop function if exists app_public.admin_bug_reports(bigint);
create or replace function app_public.admin_bug_reports(
  p_user_id bigint, p_before timestamptz, p_before_id bigint, p_limit integer
)
returns table (
  id bigint, user_id bigint, user_email text, description text, screenshot_url text, page_url text,
  user_agent text, status text, created_at timestamptz, updated_at timestamptz
)
language plpgsql stable as $$
/*
 * why: the admin list of bug reports with the reporter's e-mail, newest first, a page at a
 * time after the last report shown (p_before: its time as the API shows it, p_before_id: its
 * id), so reports sent meanwhile never shift or repeat rows
 */
begin
  perform app_private.assert_admin(p_user_id);
  return query
    select b.id, b.user_id, u.email, b.description, b.screenshot_url, b.page_url, b.user_agent, b.status,
           b.created_at, b.updated_at
    from app_public.bug_reports b
    left join app_public.users u on u.id = b.user_id
    where (date_trunc('milliseconds', b.created_at, 'UTC'), b.id)
        < (coalesce(p_before, 'infinity'), coalesce(p_before_id, 0))
    order by date_trunc('milliseconds', b.created_at, 'UTC') desc, b.id desc
    limit p_limit;
end;
$$;

drop function if exists app_public.admin_stats(bigint);
create or replace function app_public.admin_stats(p_user_id bigint)
returns table (
  user_count bigint, post_count bigint, scheduled_today_count bigint,
  bug_report_count bigint, new_bug_report_count bigint
)
language plpgsql stable as $$
/*
 * why: the admin dashboard's three counters; "today" is the current UTC day. The bug-report
 * counts (all, and those still new) give the bug-report screens their total and badge now
 * that their list comes a page at a time.
 */
begin
  perform app_private.assert_admin(p_user_id);
  return query select
    (select count(*) from app_public.users),
    (select count(*) from app_public.posts),
    (select count(*) from app_public.posts
      where scheduled_for >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
        and scheduled_for < (date_trunc('day', now() at time zone 'UTC') + interval '1 day') at time zone 'UTC'),
    b.total, b.new_count
  from (select count(*) as total, count(*) filter (where status = 'new') as new_count from app_public.bug_reports) b;
end;
$$;

--! split: 3-drafts-at-scale.sql
-- Drafts at scale: a drag saves one draft's new place (move_draft) instead of the whole list,
-- and every change of a project's drafts order takes the same lock.

create or replace function app_private.lock_drafts_order(p_user_id bigint, p_project_id bigint) returns void
language plpgsql volatile as $$
/*
 * why: one writer of a project's drafts order at a time (a move, a whole-list reorder; adds
 * take the same row with assert_draft_room), so two tabs' moves apply one after the other.
 * The project row is locked "for no key update": inserts that only reference the project
 * (drafts, posts) are not held up. Another account's project is "not found".
 */
begin
  perform 1 from app_public.projects where id = p_project_id and user_id = p_user_id for no key update;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND';
  end if;
end;
$$;

-- (its answer's columns may still change while this migration is being written)
drop function if exists app_public.move_draft(bigint, bigint, bigint, bigint);
create function app_public.move_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_after_id bigint)
returns table (draft_id bigint, draft_order int)
language plpgsql volatile as $$
/*
 * why: a drag saves one draft's new place: right after p_after_id, or first when it is null.
 * The list's order is (sort_order, created_at, id) and keys are spread out, so a move usually
 * rewrites one row, taking the key halfway between its new neighbours. When they have no key
 * between them (adjacent or equal keys), the drafts around the place are respaced: a window
 * that doubles until its keys can be spread at least 64 apart (up to the whole list, e.g.
 * after a whole-list reorder left keys 0, 1, 2, …). Answers the moved draft first, then every
 * other draft whose key changed, so a client can update its copy without reloading the list.
 * Keys stay within the API's order range (±1,000,000), and at or above 0 when written at the
 * top, so a draft created with order -1 (the create form) still comes first.
 */
declare
  c_gap constant int := 1024;
  c_min_gap constant int := 64;
  c_max_key constant int := 1000000;
  v_after app_public.drafts;
  v_low bigint;
  v_next bigint;
  v_key bigint;
  v_ids bigint[];
  v_keys bigint[];
  v_count int;
  v_rank int;
  v_lo int;
  v_hi int;
  v_grow int := 1;
  v_l bigint;
  v_u bigint;
  v_step bigint;
begin
  perform app_private.lock_drafts_order(p_user_id, p_project_id);
  perform 1 from app_public.drafts d where d.id = p_draft_id and d.project_id = p_project_id;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND';
  end if;
  if p_after_id = p_draft_id then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL';
  end if;

  if p_after_id is null then
    v_low := -1;
    select d.sort_order into v_next from app_public.drafts d
    where d.project_id = p_project_id and d.id <> p_draft_id
    order by d.sort_order, d.created_at, d.id limit 1;
  else
    select * into v_after from app_public.drafts d where d.id = p_after_id and d.project_id = p_project_id;
    if not found then
      raise exception 'Draft not found' using errcode = 'NTFND';
    end if;
    v_low := v_after.sort_order;
    select d.sort_order into v_next from app_public.drafts d
    where d.project_id = p_project_id and d.id <> p_draft_id
      and (d.sort_order, d.created_at, d.id) > (v_after.sort_order, v_after.created_at, v_after.id)
    order by d.sort_order, d.created_at, d.id limit 1;
  end if;

  v_key := case when v_next is null then v_low + c_gap else v_low + (v_next - v_low) / 2 end;
  if v_key > v_low and (v_next is null or v_key < v_next) and v_key between -c_max_key and c_max_key then
    return query
      update app_public.drafts d set sort_order = v_key where d.id = p_draft_id returning d.id, d.sort_order;
    return;
  end if;

  -- No room between the neighbours: respace a window of the other drafts around the place.
  select array_agg(d.id order by d.sort_order, d.created_at, d.id),
         array_agg(d.sort_order::bigint order by d.sort_order, d.created_at, d.id)
    into v_ids, v_keys
  from app_public.drafts d where d.project_id = p_project_id and d.id <> p_draft_id;
  v_count := cardinality(v_ids);
  v_rank := coalesce(array_position(v_ids, p_after_id), 0);
  v_lo := greatest(1, v_rank);
  v_hi := least(v_count, v_rank + 1);
  loop
    -- the window's drafts and the moved one share the keys strictly between v_l and v_u
    v_l := case when v_lo > 1 then v_keys[v_lo - 1] else -1 end;
    v_u := case when v_hi < v_count then v_keys[v_hi + 1]
                else least(c_max_key + 1, v_l + (v_hi - v_lo + 3) * c_gap) end;
    v_step := (v_u - v_l) / (v_hi - v_lo + 3);
    exit when v_step >= c_min_gap or (v_lo = 1 and v_hi = v_count);
    v_lo := greatest(1, v_lo - v_grow);
    v_hi := least(v_count, v_hi + v_grow);
    v_grow := v_grow * 2;
  end loop;
  if v_step < 1 then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL'; -- only past a million drafts
  end if;
  return query
    with window_drafts as (
      select u.id, case when v_lo + u.n - 1 <= v_rank then u.n else u.n + 1 end as pos
      from unnest(v_ids[v_lo:v_hi]) with ordinality as u(id, n)
      union all
      select p_draft_id, v_rank - v_lo + 2
    ), respaced as (
      update app_public.drafts d set sort_order = v_l + w.pos * v_step
      from window_drafts w
      where d.id = w.id and (d.id = p_draft_id or d.sort_order <> v_l + w.pos * v_step)
      returning d.id, d.sort_order
    )
    select r.id, r.sort_order from respaced r order by r.id <> p_draft_id, r.sort_order;
end;
$$;

create or replace function app_public.reorder_drafts(p_user_id bigint, p_project_id bigint, p_items jsonb)
returns void
language plpgsql volatile as $$
/*
 * why: the spec's whole-list reorder, kept for its clients (the SPA moves one draft at a time,
 * move_draft): one statement; an id that is not a draft of this project (another project's,
 * or unknown) refuses the whole change. It takes the drafts order's lock, like a move.
 */
declare
  v_given int;
  v_updated int;
begin
  perform app_private.lock_drafts_order(p_user_id, p_project_id);
  if jsonb_typeof(p_items) <> 'array' then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL';
  end if;
  select count(distinct (x ->> 'id')) into v_given from jsonb_array_elements(p_items) x;
  with wanted as (
    select (x ->> 'id')::bigint as id, (x ->> 'order')::int as ord from jsonb_array_elements(p_items) x
  ), moved as (
    update app_public.drafts d set sort_order = wanted.ord
    from wanted where d.id = wanted.id and d.project_id = p_project_id
    returning d.id
  )
  select count(*) into v_updated from moved;
  if v_updated <> v_given or v_given <> jsonb_array_length(p_items) then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL';
  end if;
end;
$$;

--! split: 4-telegram-send-budget.sql
/*
 * Telegram's limits, shared by every process (API, workers, bot). Each message a process
 * is about to send reserves a moment to send it at, here, in one call
 * (app_private.reserve_telegram_send): at least a gap after and before every other
 * message of the bot (evenly spaced, so under 30/s bot-wide), and within the chat's own
 * window (under 20/min per channel, ~1/s per private chat). The process then waits until
 * that moment and sends. One round trip per message, whatever the number of processes.
 *
 * Unlogged: the reservations only matter for the next minute or two, and losing them in a
 * crash costs at most a 429 that the sender waits out; their rows then write no WAL.
 */
-- every message of a bot, bot-wide: kept a few seconds past its moment
create unlogged table if not exists app_private.telegram_slots (
  bot_id text not null,
  send_at timestamptz not null
);
create index if not exists telegram_slots_idx on app_private.telegram_slots (bot_id, send_at);

-- messages into a chat (not edits): kept 2 minutes, the longest window
create unlogged table if not exists app_private.telegram_sends (
  bot_id text not null,
  chat_key text not null,
  send_at timestamptz not null
);
create index if not exists telegram_sends_idx on app_private.telegram_sends (bot_id, chat_key, send_at);

create or replace function app_private.reserve_telegram_send(
  p_bot_id text,
  p_chat_key text,
  p_chat_limit int,
  p_chat_window_ms double precision,
  p_bot_gap_ms double precision
) returns double precision
language plpgsql volatile as $$
/*
 * why: a message of the bot `p_bot_id` (the id part of its token, never the token) is
 * about to go to `p_chat_key` (null for an edit: bot-wide only). Answers how many
 * milliseconds the caller must wait before sending it, and holds that moment for it:
 *   - per chat: at most `p_chat_limit` messages in any `p_chat_window_ms`, in the order
 *     they were asked for (never before the chat's last reserved message);
 *   - bot-wide: at least `p_bot_gap_ms` from every other reserved message of the bot, the
 *     earliest such moment (a message held back by its chat leaves the moments before it
 *     to others).
 * Calls for one bot are taken one at a time. Chat history older than 2 minutes is
 * dropped, so windows longer than that are refused.
 */
declare
  v_gap interval := make_interval(secs => p_bot_gap_ms / 1000);
  v_window interval := make_interval(secs => p_chat_window_ms / 1000);
  v_now timestamptz;
  v_ready timestamptz;
  v_at timestamptz;
  v_slot timestamptz;
begin
  if p_chat_window_ms > 120000 or p_bot_gap_ms > 1000 then
    raise exception 'windows over 2 minutes and gaps over 1 second are not kept' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('telegram_sends:' || p_bot_id, 0));
  v_now := clock_timestamp();
  v_ready := v_now;

  if p_chat_key is not null then
    -- never before the chat's last message, nor before its p_chat_limit-th newest leaves the window
    select greatest(v_now, max(send_at), (array_agg(send_at order by send_at desc))[p_chat_limit] + v_window)
      into v_ready
      from app_private.telegram_sends
     where bot_id = p_bot_id and chat_key = p_chat_key and send_at > v_now - v_window;
  end if;

  -- the earliest moment from v_ready at least a gap from every other message: walk the
  -- bot's messages from one gap before it, in order, until one leaves room
  v_at := v_ready;
  for v_slot in select send_at from app_private.telegram_slots
                 where bot_id = p_bot_id and send_at > v_ready - v_gap order by send_at loop
    exit when v_slot >= v_at + v_gap;
    v_at := greatest(v_at, v_slot + v_gap);
  end loop;

  -- a sample of calls clears what no window needs any more (a few dozen rows each time)
  if random() < 0.05 then
    delete from app_private.telegram_slots where bot_id = p_bot_id and send_at < v_now - interval '2 seconds';
    delete from app_private.telegram_sends where bot_id = p_bot_id and send_at < v_now - interval '2 minutes';
  end if;

  insert into app_private.telegram_slots (bot_id, send_at) values (p_bot_id, v_at);
  if p_chat_key is not null then
    insert into app_private.telegram_sends (bot_id, chat_key, send_at) values (p_bot_id, p_chat_key, v_at);
  end if;
  return greatest(0, extract(epoch from v_at - v_now) * 1000);
end;
$$;
