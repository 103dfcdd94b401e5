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
