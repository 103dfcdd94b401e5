-- The projects functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_public.create_project(p_user_id bigint, p_name text, p_description text, p_writing_style jsonb, p_admin_handle text, p_timezone text, p_language text, p_sources text, p_max_projects integer DEFAULT NULL::integer)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
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
    ltrim(btrim(p_admin_handle), '@'), coalesce(p_timezone, app_private.default_timezone()), coalesce(p_language, 'ru'),
    coalesce(p_sources, '')
  )
  returning * into v_project;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_project(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: deleting a project removes its channel, drafts, posts, chat, jobs and uploads
 * (cascade), and revokes its invite links in Telegram; their files are deleted by the worker (uploads__delete), and their URLs
 * answer 404 at once since the rows are gone.
 */
declare
  v_keys text[];
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.delete');
  select coalesce(array_agg(key), '{}') into v_keys from app_private.uploads where project_id = p_project_id;
  -- its links go with it, so nobody could revoke them later
  perform app_private.revoke_channel_invite_links(c.id) from app_public.channels c where c.project_id = p_project_id;
  delete from app_public.projects where id = p_project_id;
  if cardinality(v_keys) > 0 then
    perform graphile_worker.add_job('uploads__delete', json_build_object('keys', to_jsonb(v_keys)), max_attempts := 10);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.get_project(p_user_id bigint, p_project_id bigint)
 RETURNS app_public.projects
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a project as any of its members reads it; another account's project is "not found" */
declare
  v_project app_public.projects;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  select * into v_project from app_public.projects where id = p_project_id;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.member_project(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(project app_public.projects, role text)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: one project as its page reads it, with the caller's role, which the page follows */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'project.read');
begin
  return query select p, v_role from app_public.projects p where p.id = p_project_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb, p_approver jsonb)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
/*
 * why: PATCH semantics: only the keys present in p_changes change. A new admin handle on a
 * project with a connected channel must come with the approver Telegram confirmed for that
 * very chat (p_approver: userId, handle, name, chatId; see approver_change_prerequisites),
 * else nothing changes (APRNV). The new approver is then asked in Telegram, and the old one
 * stays (the handle too) until the new one allows (decide_approver_request); naming the
 * current handle again withdraws that question. A channel still waiting for the old
 * handle's Allow is dropped: it asked someone who is no longer named.
 */
declare
  v_project app_public.projects;
  v_channel app_public.channels;
  v_handle text := ltrim(btrim(p_changes ->> 'adminHandle'), '@');
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.update');
  select * into v_project from app_public.projects where id = p_project_id for update;
  select * into v_channel from app_public.channels where project_id = p_project_id for update;
  if v_handle is not null and v_channel.id is not null then
    perform app_private.drop_expired_approver_requests();
    delete from app_public.approver_requests where channel_id = v_channel.id and kind = 'handover';
    if lower(v_handle) <> lower(v_project.admin_handle) and v_channel.status = 'pending' then
      delete from app_public.channels where id = v_channel.id;
    elsif lower(v_handle) <> lower(v_project.admin_handle) then
      if p_approver is null or lower(ltrim(p_approver ->> 'handle', '@')) <> lower(v_handle)
         or (p_approver ->> 'chatId')::bigint is distinct from v_channel.chat_id then
        raise exception 'The new admin @% is not confirmed as an administrator of %', v_handle, v_channel.link
          using errcode = 'APRNV', hint = 'projects.approverNotConfirmed';
      end if;
      perform app_private.open_approver_request(v_channel.id, p_user_id, 'handover',
        (p_approver ->> 'userId')::bigint, v_handle, p_approver ->> 'name');
      v_handle := null;
    end if;
  end if;
  update app_public.projects p set
    name = coalesce(btrim(p_changes ->> 'name'), p.name),
    description = coalesce(p_changes ->> 'description', p.description),
    writing_style = coalesce(p_changes -> 'writingStyle', p.writing_style),
    admin_handle = coalesce(v_handle, p.admin_handle),
    timezone = coalesce(p_changes ->> 'timezone', p.timezone),
    language = coalesce(p_changes ->> 'language', p.language),
    sources = coalesce(p_changes ->> 'sources', p.sources)
  where p.id = p_project_id
  returning * into v_project;
  if p_changes <> '{}' then
    perform app_private.log_activity(p_project_id, 'project.updated', 'project', p_project_id,
      jsonb_build_object('fields', (select jsonb_agg(k order by k) from jsonb_object_keys(p_changes) k)), p_user_id);
  end if;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.user_projects(p_user_id bigint)
 RETURNS TABLE(project app_public.projects, role text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the dashboard and sidebar list: every project the account is a member of, with its role there, newest first */
  select p, m.role
  from app_public.project_members m join app_public.projects p on p.id = m.project_id
  where m.user_id = p_user_id
  order by p.created_at desc, p.id desc
$function$;
