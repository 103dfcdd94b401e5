-- The admin functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.admin_user_counts(p_user_id bigint)
 RETURNS TABLE(project_count bigint, channel_count bigint, post_count bigint, draft_count bigint)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: one user's row of the admin users table; each count walks that user's projects only */
  select count(*),
         coalesce(sum((select count(*) from app_public.channels c where c.project_id = p.id)), 0)::bigint,
         coalesce(sum((select count(*) from app_public.posts po where po.project_id = p.id)), 0)::bigint,
         coalesce(sum((select count(*) from app_public.drafts d where d.project_id = p.id)), 0)::bigint
  from app_public.projects p
  where p.user_id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_private.assert_admin(p_user_id bigint)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: every admin function starts here; a signed-in non-admin gets FORBD (403) */
begin
  if not exists (select 1 from app_public.users where id = p_user_id and is_admin) then
    raise exception 'Only administrators can do this' using errcode = 'FORBD', hint = 'forbidden';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.admin_bug_reports(p_user_id bigint, p_before timestamp with time zone, p_before_id bigint, p_limit integer)
 RETURNS TABLE(id bigint, user_id bigint, user_email text, description text, screenshot_url text, page_url text, user_agent text, status text, created_at timestamp with time zone, updated_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the admin list of bug reports with the reporter's e-mail, newest first, a page at a
 * time after the last report shown (p_before: its time as the API shows it, p_before_id: its
 * id), so reports sent meanwhile never shift or repeat rows; both sides are the UTC
 * millisecond as a timestamp, the form bug_reports_created_ms_idx can hold on PostgreSQL 15–18
 */
begin
  perform app_private.assert_admin(p_user_id);
  return query
    select b.id, b.user_id, u.email, b.description, b.screenshot_url, b.page_url, b.user_agent, b.status,
           b.created_at, b.updated_at
    from app_public.bug_reports b
    left join app_public.users u on u.id = b.user_id
    where (date_trunc('milliseconds', b.created_at at time zone 'UTC'), b.id)
        < (coalesce(p_before, 'infinity') at time zone 'UTC', coalesce(p_before_id, 0))
    order by date_trunc('milliseconds', b.created_at at time zone 'UTC') desc, b.id desc
    limit p_limit;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.admin_stats(p_user_id bigint)
 RETURNS TABLE(user_count bigint, post_count bigint, scheduled_today_count bigint, bug_report_count bigint, new_bug_report_count bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION app_public.admin_users(p_user_id bigint, p_search text, p_after bigint, p_limit integer)
 RETURNS TABLE(id bigint, email text, is_admin boolean, created_at timestamp with time zone, project_count bigint, channel_count bigint, post_count bigint, draft_count bigint)
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION app_public.create_bug_report(p_user_id bigint, p_description text, p_screenshot_url text, p_page_url text, p_user_agent text, p_max_per_day integer DEFAULT NULL::integer)
 RETURNS app_public.bug_reports
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE FUNCTION app_public.set_bug_report_status(p_user_id bigint, p_report_id bigint, p_status text)
 RETURNS app_public.bug_reports
 LANGUAGE plpgsql
AS $function$
/* why: an admin may move a report to any status from any other (spec §4) */
declare
  v_report app_public.bug_reports;
begin
  perform app_private.assert_admin(p_user_id);
  update app_public.bug_reports set status = p_status where id = p_report_id returning * into v_report;
  if not found then
    raise exception 'Bug report not found' using errcode = 'NTFND', hint = 'bugReports.notFound';
  end if;
  return v_report;
end;
$function$;
