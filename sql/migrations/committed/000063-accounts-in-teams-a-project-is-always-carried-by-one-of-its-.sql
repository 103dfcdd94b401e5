--! Previous: sha1:0ca43b2480a5c3557394f9a9ff093a299ac4dc71
--! Hash: sha1:739463cf9715fc5c83a7ad7dee8f5176e58243e2
--! Message: Accounts in teams: a project is always carried by one of its owners (its AI budget, quota and mail), and deleting an account leaves shared projects, refused while it is one's last owner

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.assert_owner_remains(p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: a project always has an owner (who else could connect its channel or add people?):
   a change that leaves none is refused; called after the change, under the project's lock.
   projects.user_id is the account that carries the project (its AI budget for autopilot, its
   project quota, the owner's mails): always one of its owners, so one who left or was
   demoted hands it to the owner who has been one longest, and hears nothing more of it */
begin
  if not exists (select 1 from app_public.project_members where project_id = p_project_id and role = 'owner') then
    raise exception 'A project keeps at least one owner' using errcode = 'LSTOW', hint = 'team.lastOwner';
  end if;
  update app_public.projects p set user_id = (
    select m.user_id from app_public.project_members m where m.project_id = p_project_id and m.role = 'owner'
    order by m.joined_at, m.user_id limit 1)
  where p.id = p_project_id
    and not exists (select 1 from app_public.project_members m
                    where m.project_id = p_project_id and m.user_id = p.user_id and m.role = 'owner');
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_account(p_user_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an account goes with the projects only it is in (as delete_project: their files and
 * invite links too); from a shared project it leaves, which refuses while it is that
 * project's last owner (account.ownsSharedProject, naming it): ownership passes first, so
 * a team never loses its channel to one person's departure.
 */
declare
  v_project record;
begin
  perform pg_advisory_xact_lock(hashtextextended('projects:' || p_user_id, 0));
  for v_project in
    select p.id, p.name from app_public.project_members m join app_public.projects p on p.id = m.project_id
    where m.user_id = p_user_id
    order by p.id
    for update of p
  loop
    if not exists (select 1 from app_public.project_members o where o.project_id = v_project.id and o.user_id <> p_user_id) then
      perform app_public.delete_project(p_user_id, v_project.id);
    elsif not exists (select 1 from app_public.project_members o
                      where o.project_id = v_project.id and o.user_id <> p_user_id and o.role = 'owner')
          and exists (select 1 from app_public.project_members o
                      where o.project_id = v_project.id and o.user_id = p_user_id and o.role = 'owner') then
      raise exception 'You are the last owner of «%»: make another member its owner first', v_project.name
        using errcode = 'LSTOW', hint = 'account.ownsSharedProject';
    else
      delete from app_public.project_members where project_id = v_project.id and user_id = p_user_id;
      perform app_private.assert_owner_remains(v_project.id);
      perform app_private.log_activity(v_project.id, 'member.removed', 'member', p_user_id,
        jsonb_build_object('email', (select u.email from app_public.users u where u.id = p_user_id), 'left', true,
                           'accountDeleted', true), p_user_id);
    end if;
  end loop;
  delete from app_public.users where id = p_user_id;
end;
$function$;
