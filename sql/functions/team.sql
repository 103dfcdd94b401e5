-- The team functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.add_creator_as_owner()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  /* why: the account that creates a project owns it, whichever door made the row (the API, psql, a test) */
  insert into app_public.project_members (project_id, user_id, role) values (new.id, new.user_id, 'owner');
  return null;
end;
$function$;

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

CREATE OR REPLACE FUNCTION app_private.authorize(p_user_id bigint, p_project_id bigint, p_action text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the one gate of every project-scoped call, beside the rule it guards, so no door
 * (API, bot, a task, psql) can skip it. A non-member is told the project does not exist, as
 * before teams (membership is never revealed); a member whose role lacks the action is
 * refused and nothing changes. The role's actions are app_private.role_actions, their only
 * home. Answers the caller's role, for rules that depend on it (an author's Publish).
 */
declare
  v_role text;
begin
  select role into v_role from app_public.project_members where project_id = p_project_id and user_id = p_user_id;
  if v_role is null then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  if not exists (select 1 from app_private.role_actions where role = v_role and action = p_action) then
    if not exists (select 1 from app_private.role_actions where action = p_action) then
      -- a misspelt action must fail loudly, not refuse everyone quietly
      raise exception 'unknown action %', p_action using hint = 'internal';
    end if;
    raise exception 'Your role in this project does not allow this' using errcode = 'FORBD', hint = 'team.forbidden';
  end if;
  return v_role;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.accept_invitation(p_user_id bigint, p_token text, p_max_members integer)
 RETURNS TABLE(project_id bigint, role text)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the link works once, for the address it was sent to (the signed-in account's e-mail,
 * compared case-insensitively), within 7 days. Someone who is a member already keeps the
 * higher of the two roles: an invitation never demotes.
 */
declare
  v_invitation app_public.project_invitations;
  v_email text := (select lower(email) from app_public.users where id = p_user_id);
  v_role text;
begin
  select * into v_invitation from app_public.project_invitations
  where token_hash = sha256(convert_to(p_token, 'UTF8')) for update;
  if not found or v_invitation.accepted_at is not null or v_invitation.withdrawn_at is not null
     or v_invitation.expires_at <= now() then
    raise exception 'This invitation was used, withdrawn or has expired' using errcode = 'TGONE', hint = 'team.invitationGone';
  end if;
  if lower(v_invitation.email) <> v_email then
    raise exception 'This invitation was sent to another e-mail address' using errcode = 'FORBD', hint = 'team.invitationForAnotherEmail';
  end if;
  perform 1 from app_public.projects where id = v_invitation.project_id for update;
  select m.role into v_role from app_public.project_members m where m.project_id = v_invitation.project_id and m.user_id = p_user_id;
  if v_role is null then
    if (select count(*) from app_public.project_members m where m.project_id = v_invitation.project_id) >= p_max_members then
      raise exception 'A project can have at most % members, invitations included', p_max_members
        using errcode = 'QUOTA', hint = 'team.membersLimit';
    end if;
    insert into app_public.project_members (project_id, user_id, role) values (v_invitation.project_id, p_user_id, v_invitation.role);
    v_role := v_invitation.role;
    perform app_private.log_activity(v_invitation.project_id, 'member.joined', 'member', p_user_id,
      jsonb_build_object('email', v_email, 'role', v_role), p_user_id);
  elsif array_position(array['viewer', 'author', 'editor', 'owner'], v_invitation.role)
        > array_position(array['viewer', 'author', 'editor', 'owner'], v_role) then
    update app_public.project_members m set role = v_invitation.role
    where m.project_id = v_invitation.project_id and m.user_id = p_user_id;
    v_role := v_invitation.role;
  end if;
  update app_public.project_invitations set accepted_at = now(), accepted_by = p_user_id where id = v_invitation.id;
  return query select v_invitation.project_id, v_role;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.change_member_role(p_user_id bigint, p_project_id bigint, p_member_id bigint, p_role text)
 RETURNS TABLE(user_id bigint, email text, role text, joined_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: an owner gives a member another role; the last owner cannot be demoted (team.lastOwner) */
declare
  v_from text;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  perform 1 from app_public.projects where id = p_project_id for update;
  select m.role into v_from from app_public.project_members m where m.project_id = p_project_id and m.user_id = p_member_id;
  update app_public.project_members m set role = p_role where m.project_id = p_project_id and m.user_id = p_member_id;
  if not found then
    raise exception 'Member not found' using errcode = 'NTFND', hint = 'team.memberNotFound';
  end if;
  perform app_private.assert_owner_remains(p_project_id);
  if v_from is distinct from p_role then
    perform app_private.log_activity(p_project_id, 'member.roleChanged', 'member', p_member_id,
      jsonb_build_object('email', (select u.email from app_public.users u where u.id = p_member_id), 'from', v_from, 'to', p_role), p_user_id);
  end if;
  return query
  select m.user_id, u.email, m.role, m.joined_at
  from app_public.project_members m join app_public.users u on u.id = m.user_id
  where m.project_id = p_project_id and m.user_id = p_member_id;
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

CREATE OR REPLACE FUNCTION app_public.invitation_mail(p_invitation_id bigint)
 RETURNS TABLE(email text, role text, project_name text, language text, inviter_email text, expires_at timestamp with time zone, open boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the invitation mail says, read when it is sent: a withdrawn invitation is not mailed */
  select i.email, i.role, p.name, p.language, u.email, i.expires_at,
         i.accepted_at is null and i.withdrawn_at is null and i.expires_at > now()
  from app_public.project_invitations i
  join app_public.projects p on p.id = i.project_id
  left join app_public.users u on u.id = i.invited_by
  where i.id = p_invitation_id
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_member(p_user_id bigint, p_project_id bigint, p_email text, p_role text, p_token text, p_max_members integer, p_max_per_day integer)
 RETURNS app_public.project_invitations
 LANGUAGE plpgsql
AS $function$
/*
 * why: an owner invites an address with a role; the mail with the link is queued in the same
 * transaction. The token is kept only as its hash. A second invitation to the same address
 * replaces the first (its link stops working). Nobody can use Pressa to mail strangers at
 * volume: an account sends at most p_max_per_day invitations a day, and an address gets no
 * more mail from invitations and sign-in codes together than sign-in allows (3 in 10 minutes).
 */
declare
  v_email text := lower(btrim(p_email));
  v_invitation app_public.project_invitations;
  v_sent int;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  perform 1 from app_public.projects where id = p_project_id for update;
  if exists (select 1 from app_public.project_members m join app_public.users u on u.id = m.user_id
             where m.project_id = p_project_id and lower(u.email) = v_email) then
    raise exception '% is already a member of this project', v_email using errcode = 'INVAL', hint = 'team.alreadyMember';
  end if;
  if (select count(*) from app_public.project_members where project_id = p_project_id)
     + (select count(*) from app_public.project_invitations
        where project_id = p_project_id and accepted_at is null and withdrawn_at is null and expires_at > now()
          and lower(email) <> v_email) >= p_max_members then
    raise exception 'A project can have at most % members, invitations included', p_max_members
      using errcode = 'QUOTA', hint = 'team.membersLimit';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('invitations_by:' || p_user_id, 0));
  select count(*) into v_sent from app_public.project_invitations
  where invited_by = p_user_id and created_at > now() - interval '1 day';
  if v_sent >= p_max_per_day then
    raise exception 'An account can send at most % invitations a day. Please try again later.', p_max_per_day
      using errcode = 'RATEL', hint = 'team.tooManyInvitations',
            detail = (select ceil(extract(epoch from min(created_at) + interval '1 day' - now()))::int
                      from app_public.project_invitations where invited_by = p_user_id and created_at > now() - interval '1 day');
  end if;
  -- the address's mail limit is sign-in's own, taken under sign-in's lock for the address
  perform pg_advisory_xact_lock(hashtextextended('sign_in_code:' || v_email, 0));
  if app_private.sign_in_mails_to(v_email)
     + (select count(*) from app_public.project_invitations where lower(email) = v_email and created_at > now() - interval '10 minutes') >= 3 then
    raise exception 'Too many mails to this address. Please wait 10 minutes and try again.'
      using errcode = 'RATEL', hint = 'team.addressBusy', detail = '600';
  end if;
  update app_public.project_invitations set withdrawn_at = now()
  where project_id = p_project_id and lower(email) = v_email and accepted_at is null and withdrawn_at is null;
  insert into app_public.project_invitations (project_id, email, role, token_hash, invited_by)
  values (p_project_id, v_email, p_role, sha256(convert_to(p_token, 'UTF8')), p_user_id)
  returning * into v_invitation;
  perform app_private.log_activity(p_project_id, 'member.invited', 'invitation', v_invitation.id,
    jsonb_build_object('email', v_invitation.email, 'role', v_invitation.role), p_user_id);
  perform graphile_worker.add_job('team__send_invitation',
    json_build_object('invitationId', v_invitation.id, 'token', p_token), max_attempts := 8);
  return v_invitation;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.open_invitations(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, email text, role text, created_at timestamp with time zone, expires_at timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: invitations still waiting for their address, newest first; expired ones are gone for the reader */
  select i.id, i.email, i.role, i.created_at, i.expires_at
  from app_public.project_invitations i
  where i.project_id = p_project_id and i.accepted_at is null and i.withdrawn_at is null and i.expires_at > now()
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by i.created_at desc, i.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.project_members(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(user_id bigint, email text, role text, joined_at timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: members see each other's addresses only inside a project they share; owners first, then by joining */
  select m.user_id, u.email, m.role, m.joined_at
  from app_public.project_members m join app_public.users u on u.id = m.user_id
  where m.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by m.role <> 'owner', m.joined_at, m.user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.remove_member(p_user_id bigint, p_project_id bigint, p_member_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an owner removes a member, or a member leaves; the last owner can do neither. The
 * removed account's next request to the project answers "not found", as every call asks
 * app_private.authorize. Its AI chat with the project stays the project's.
 */
declare
  v_role text;
begin
  if p_member_id = p_user_id then
    perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  else
    perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  end if;
  perform 1 from app_public.projects where id = p_project_id for update;
  delete from app_public.project_members m where m.project_id = p_project_id and m.user_id = p_member_id
  returning m.role into v_role;
  if not found then
    raise exception 'Member not found' using errcode = 'NTFND', hint = 'team.memberNotFound';
  end if;
  perform app_private.assert_owner_remains(p_project_id);
  perform app_private.log_activity(p_project_id, 'member.removed', 'member', p_member_id,
    jsonb_build_object('email', (select u.email from app_public.users u where u.id = p_member_id), 'role', v_role,
                       'left', p_member_id = p_user_id), p_user_id);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.withdraw_invitation(p_user_id bigint, p_project_id bigint, p_invitation_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: an owner takes an invitation back; its link answers "gone" from then on */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  update app_public.project_invitations set withdrawn_at = now()
  where id = p_invitation_id and project_id = p_project_id and accepted_at is null and withdrawn_at is null;
  if not found then
    raise exception 'Invitation not found' using errcode = 'NTFND', hint = 'team.invitationNotFound';
  end if;
end;
$function$;
