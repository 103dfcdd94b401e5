--! Previous: sha1:6e391e3796c3e90b4f42b49c381d9bd905a4139c
--! Hash: sha1:aba9bb8b0d5f5b79f28c1208c8f57d24e4a38757
--! Message: Lean reads: list versions for drafts and the content plan, project_drafts with scheduledPostId

--! split: 42-lean-reads.sql
-- Reads cost what they show (issue 25): the drafts list and the content plan get a version,
-- bumped in the statement that changes them (as posts_versions for the posts lists), so a
-- client polling them gets a 304 while nothing changed.
create table if not exists app_private.list_versions (
  project_id bigint not null,
  drafts bigint default 0 not null,
  content_plans bigint default 0 not null,
  constraint list_versions_pkey PRIMARY KEY (project_id),
  constraint list_versions_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE
);

-- The triggers need their function first, so it is created here (the commit moves it into
-- sql/functions/common.sql).
CREATE OR REPLACE FUNCTION app_private.bump_list_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
/* why: one bump per statement and project of the list named by the trigger's argument
   (drafts, content_plans), whatever the statement changed; rows deleted with their project
   bump nothing */
begin
  insert into app_private.list_versions (project_id, drafts, content_plans)
  select distinct c.project_id, (tg_argv[0] = 'drafts')::int, (tg_argv[0] = 'content_plans')::int
  from changed_rows c
  where exists (select 1 from app_public.projects p where p.id = c.project_id)
  on conflict (project_id) do update
    set drafts = app_private.list_versions.drafts + excluded.drafts,
        content_plans = app_private.list_versions.content_plans + excluded.content_plans;
  return null;
end;
$function$;

drop trigger if exists _200_bump_version_insert on app_public.drafts;
drop trigger if exists _200_bump_version_update on app_public.drafts;
drop trigger if exists _200_bump_version_delete on app_public.drafts;
create trigger _200_bump_version_insert after insert on app_public.drafts
  referencing new table as changed_rows for each statement execute function app_private.bump_list_version('drafts');
create trigger _200_bump_version_update after update on app_public.drafts
  referencing new table as changed_rows for each statement execute function app_private.bump_list_version('drafts');
create trigger _200_bump_version_delete after delete on app_public.drafts
  referencing old table as changed_rows for each statement execute function app_private.bump_list_version('drafts');

drop trigger if exists _200_bump_version_insert on app_public.content_plans;
drop trigger if exists _200_bump_version_update on app_public.content_plans;
drop trigger if exists _200_bump_version_delete on app_public.content_plans;
create trigger _200_bump_version_insert after insert on app_public.content_plans
  referencing new table as changed_rows for each statement execute function app_private.bump_list_version('content_plans');
create trigger _200_bump_version_update after update on app_public.content_plans
  referencing new table as changed_rows for each statement execute function app_private.bump_list_version('content_plans');
create trigger _200_bump_version_delete after delete on app_public.content_plans
  referencing old table as changed_rows for each statement execute function app_private.bump_list_version('content_plans');

-- project_drafts answers which post holds each draft (scheduled_post_id): a new row type.
drop function if exists app_public.project_drafts(bigint, bigint);

--! split: 43-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.content_plans_version(p_user_id bigint, p_project_id bigint)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the content plan's ETag says; another user's project has none (null: the API answers 404) */
  select coalesce(l.content_plans, 0) from app_public.projects p
  left join app_private.list_versions l on l.project_id = p.id
  where p.id = p_project_id and p.user_id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.project_drafts(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, project_id bigint, title text, content text, entities jsonb, image_url text, image_urls text[], options jsonb, sort_order integer, status text, created_at timestamp with time zone, updated_at timestamp with time zone, scheduled_post_id bigint)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the drafts page lists unpublished drafts in the user's order (then oldest first),
     each with the live post holding it (posts_one_live_per_draft: at most one), so the
     schedule form and the calendar's rotation know which drafts are free without reading
     every planned post */
  select d.id, d.project_id, d.title, d.content, d.entities, d.image_url, d.image_urls, d.options, d.sort_order, d.status,
    d.created_at, d.updated_at, po.id
  from app_public.drafts d
  join app_public.projects p on p.id = d.project_id and p.user_id = p_user_id
  left join app_public.posts po on po.draft_id = d.id and po.status not in ('rejected', 'failed')
  where d.project_id = p_project_id and po.status is distinct from 'published'
  order by d.sort_order, d.created_at, d.id
$function$;

CREATE OR REPLACE FUNCTION app_public.drafts_version(p_user_id bigint, p_project_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the drafts list's ETag says: its drafts and, since each draft says which post
     holds it, the posts too; another user's project has none (null: the API answers 404) */
  select coalesce(l.drafts, 0) || '.' || coalesce(v.version, 0) from app_public.projects p
  left join app_private.list_versions l on l.project_id = p.id
  left join app_private.posts_versions v on v.project_id = p.id
  where p.id = p_project_id and p.user_id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.project_post(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: one whole post, for the calendar's details dialog (its grid reads a lean view); none
     for another user's project */
  select po.* from app_public.posts po
  join app_public.projects p on p.id = po.project_id and p.user_id = p_user_id
  where po.project_id = p_project_id and po.id = p_post_id
$function$;

CREATE OR REPLACE FUNCTION app_public.project_posts_between(p_user_id bigint, p_project_id bigint, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the calendar's month: the posts due in [p_from, p_to), and every series that may
     have occurrences there (begun before p_to and not stopped before p_from), so the grid can
     show its virtual occurrences. Nothing outside the range: which drafts are free is said by
     the drafts list (project_drafts' scheduled_post_id). Only for the project's owner. */
  select po.* from app_public.posts po
  where po.id = any(array(
    select id from app_public.posts
    where project_id = p_project_id and scheduled_for >= p_from and scheduled_for < p_to
    union
    select id from app_public.posts
    where project_id = p_project_id and is_recurring and scheduled_for < p_to
      and (status = 'draft' or coalesce(recurring_last_post, scheduled_for) >= p_from)
  ))
  and exists (select 1 from app_public.projects p where p.id = p_project_id and p.user_id = p_user_id)
  order by po.scheduled_for, po.id
$function$;
