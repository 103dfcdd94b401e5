-- The notifications functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.notify_owner(p_project_id bigint, p_kind text, p_post_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the project's owner hears by e-mail that something needs them (the queue runs low, a
 * post failed, was rejected, or the channel's rights were lost), if they want that kind,
 * at most once per project, kind and day in the project's zone, so a bad day is one mail.
 */
declare
  v_day date;
begin
  select (now() at time zone p.timezone)::date into v_day
  from app_public.projects p join app_public.users u on u.id = p.user_id
  where p.id = p_project_id and coalesce((u.notifications ->> p_kind)::boolean, true);
  if v_day is null then
    return; -- no such project, or the owner does not want this kind
  end if;
  insert into app_private.notifications_sent (project_id, kind, day, post_id) values (p_project_id, p_kind, v_day, p_post_id)
  on conflict do nothing;
  if found then
    perform graphile_worker.add_job('notifications__send',
      json_build_object('projectId', p_project_id, 'kind', p_kind, 'postId', p_post_id), max_attempts := 5);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.notification_settings(p_user_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the kinds of mail the account wants; a kind not stored yet is on */
  select '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true}'::jsonb || notifications
  from app_public.users where id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.owner_notification(p_project_id bigint, p_kind text, p_post_id bigint)
 RETURNS TABLE(email text, project_name text, language text, timezone text, post_title text, scheduled_for timestamp with time zone, reason_code text, reason_params jsonb, runs_dry_at timestamp with time zone, drafts_left integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the mail about one event says, read when it is sent; nothing when the owner
     has switched that kind off meanwhile */
  select u.email, p.name, p.language, p.timezone, po.title, po.scheduled_for, po.last_error_code, po.last_error_params,
         f.runs_dry_at, f.drafts_left
  from app_public.projects p
  join app_public.users u on u.id = p.user_id
  left join app_public.posts po on po.id = p_post_id and po.project_id = p.id
  left join lateral app_private.queue_forecast(p.id, now()) f on p_kind = 'queueLow'
  where p.id = p_project_id and coalesce((u.notifications ->> p_kind)::boolean, true)
$function$;

CREATE OR REPLACE FUNCTION app_public.update_notification_settings(p_user_id bigint, p_changes jsonb)
 RETURNS jsonb
 LANGUAGE sql
AS $function$
  /* why: PATCH semantics: only the kinds given change (the API accepts only known kinds) */
  update app_public.users set notifications = notifications || p_changes where id = p_user_id;
  select app_public.notification_settings(p_user_id);
$function$;
