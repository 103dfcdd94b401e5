--! Previous: sha1:b68f7757dd1a4aafb1877fb30871c761864fb8e2
--! Hash: sha1:296635ed589b6d2d9e71150d0c33e1d841386882
--! Message: bug reports and the admin dashboard

create or replace function app_private.assert_admin(p_user_id bigint) returns void
language plpgsql stable as $$
/* why: every admin function starts here; a signed-in non-admin gets FORBD (403) */
begin
  if not exists (select 1 from app_public.users where id = p_user_id and is_admin) then
    raise exception 'Only administrators can do this' using errcode = 'FORBD';
  end if;
end;
$$;

create or replace function app_public.create_bug_report(
  p_user_id bigint, p_description text, p_screenshot_url text, p_page_url text, p_user_agent text
) returns app_public.bug_reports
language sql volatile as $$
  /* why: a report keeps who sent it and from where, for whoever handles it */
  insert into app_public.bug_reports (user_id, description, screenshot_url, page_url, user_agent)
  values (p_user_id, btrim(p_description), nullif(p_screenshot_url, ''), left(p_page_url, 2000), left(p_user_agent, 1000))
  returning *
$$;

create or replace function app_public.admin_stats(p_user_id bigint)
returns table (user_count bigint, post_count bigint, scheduled_today_count bigint)
language plpgsql stable as $$
/* why: the admin dashboard's three counters; "today" is the current UTC day */
begin
  perform app_private.assert_admin(p_user_id);
  return query select
    (select count(*) from app_public.users),
    (select count(*) from app_public.posts),
    (select count(*) from app_public.posts
      where scheduled_for >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
        and scheduled_for < (date_trunc('day', now() at time zone 'UTC') + interval '1 day') at time zone 'UTC');
end;
$$;

create or replace function app_public.admin_users(p_user_id bigint)
returns table (
  id bigint, email text, is_admin boolean, created_at timestamptz,
  project_count bigint, channel_count bigint, post_count bigint, draft_count bigint
)
language plpgsql stable as $$
/* why: the admin users table with per-user counts in one query (grouped once per table, not per user) */
begin
  perform app_private.assert_admin(p_user_id);
  return query
    with per_project as (
      select p.user_id,
             count(*) as projects,
             sum((select count(*) from app_public.channels c where c.project_id = p.id)) as channels,
             sum((select count(*) from app_public.posts po where po.project_id = p.id)) as posts,
             sum((select count(*) from app_public.drafts d where d.project_id = p.id)) as drafts
      from app_public.projects p
      group by p.user_id
    )
    select u.id, u.email, u.is_admin, u.created_at,
           coalesce(pp.projects, 0)::bigint, coalesce(pp.channels, 0)::bigint,
           coalesce(pp.posts, 0)::bigint, coalesce(pp.drafts, 0)::bigint
    from app_public.users u
    left join per_project pp on pp.user_id = u.id
    order by u.id;
end;
$$;

create or replace function app_public.admin_bug_reports(p_user_id bigint)
returns table (
  id bigint, user_id bigint, user_email text, description text, screenshot_url text, page_url text,
  user_agent text, status text, created_at timestamptz, updated_at timestamptz
)
language plpgsql stable as $$
/* why: the admin list of bug reports, newest first, with the reporter's e-mail */
begin
  perform app_private.assert_admin(p_user_id);
  return query
    select b.id, b.user_id, u.email, b.description, b.screenshot_url, b.page_url, b.user_agent, b.status,
           b.created_at, b.updated_at
    from app_public.bug_reports b
    left join app_public.users u on u.id = b.user_id
    order by b.created_at desc, b.id desc;
end;
$$;

create or replace function app_public.set_bug_report_status(p_user_id bigint, p_report_id bigint, p_status text)
returns app_public.bug_reports
language plpgsql volatile as $$
/* why: an admin may move a report to any status from any other (spec §4) */
declare
  v_report app_public.bug_reports;
begin
  perform app_private.assert_admin(p_user_id);
  update app_public.bug_reports set status = p_status where id = p_report_id returning * into v_report;
  if not found then
    raise exception 'Bug report not found' using errcode = 'NTFND';
  end if;
  return v_report;
end;
$$;
