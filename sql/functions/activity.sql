-- The activity functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.log_activity(p_project_id bigint, p_action text, p_target_type text, p_target_id bigint, p_details jsonb, p_user_id bigint DEFAULT NULL::bigint, p_telegram_id bigint DEFAULT NULL::bigint, p_handle text DEFAULT NULL::text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: one line of a project's activity, written by the act's own function in its
     transaction: a member acted (p_user_id), the approver in Telegram (p_telegram_id), or
     nobody, Pressa itself (system) */
  insert into app_public.activity (project_id, actor_type, actor_user_id, actor_telegram_id, actor_handle, action,
                                   target_type, target_id, details)
  values (p_project_id,
          case when p_user_id is not null then 'user' when p_telegram_id is not null then 'telegram' else 'system' end,
          p_user_id, p_telegram_id, p_handle, p_action, p_target_type, p_target_id, coalesce(p_details, '{}'))
$function$;

CREATE OR REPLACE FUNCTION app_public.project_activity(p_user_id bigint, p_project_id bigint, p_before bigint, p_limit integer, p_actor_user_id bigint, p_action text)
 RETURNS TABLE(id bigint, at timestamp with time zone, actor jsonb, action text, target jsonb, details jsonb)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the Activity page, newest first, a page at a time from before an entry's id (so
     entries written meanwhile never shift a page), for any member; filtered by the member
     who acted and by action when asked. An actor whose account is gone shows without an
     address. */
  select a.id, a.at,
    case a.actor_type
      when 'user' then jsonb_build_object('type', 'user', 'userId', a.actor_user_id, 'email', u.email)
      when 'telegram' then jsonb_build_object('type', 'telegram', 'userId', a.actor_telegram_id, 'handle', a.actor_handle)
      else jsonb_build_object('type', 'system')
    end,
    a.action, jsonb_build_object('type', a.target_type, 'id', a.target_id), a.details
  from app_public.activity a
  left join app_public.users u on u.id = a.actor_user_id
  where a.project_id = p_project_id
    and (p_before is null or a.id < p_before)
    and (p_actor_user_id is null or a.actor_user_id = p_actor_user_id)
    and (p_action is null or a.action = p_action)
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by a.id desc
  limit p_limit
$function$;
