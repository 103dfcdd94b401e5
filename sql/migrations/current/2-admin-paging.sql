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
