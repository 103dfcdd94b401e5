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
