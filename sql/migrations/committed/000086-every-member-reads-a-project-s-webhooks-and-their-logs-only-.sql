--! Previous: sha1:1a0ee9a0993f32eb448313262374a1abbb91ffb6
--! Hash: sha1:25df15791e4cb0890cbf8652bf8c271aaad731ab
--! Message: Every member reads a project's webhooks and their logs; only those who manage them read a whole address

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.url_origin(p_url text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: where a URL goes and nothing it carries: its scheme and host (and port), without the
     credentials, path, query or fragment a secret could hide in, and "/…" to say there is more */
  select regexp_replace(substring(p_url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*'), '//[^@/]*@', '//') || '/…'
$function$;

CREATE OR REPLACE FUNCTION app_public.assert_webhooks_manager(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the role is weighed before an address is looked up in DNS, so a role that may not
     add or change an endpoint learns nothing about addresses (and makes no lookups) */
  select null::void from app_private.authorize(p_user_id, p_project_id, 'webhooks.manage')
$function$;

CREATE OR REPLACE FUNCTION app_public.project_webhooks(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, url text, events text[], created_at timestamp with time zone, disabled_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the endpoints of a project, never their secret. Every member reads the page (a viewer
 * reads every page of the project), but a webhook's URL is often a secret of its own (an
 * automation service's hook URL lets whoever knows it start the flow), so only the roles that
 * manage webhooks read it whole; the others read where it goes (app_private.url_origin).
 */
declare
  v_whole boolean := exists (select 1 from app_private.role_actions a
    where a.role = app_private.authorize(p_user_id, p_project_id, 'project.read') and a.action = 'webhooks.manage');
begin
  return query select w.id, case when v_whole then w.url else app_private.url_origin(w.url) end, w.events, w.created_at, w.disabled_at
  from app_public.webhooks w where w.project_id = p_project_id order by w.id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.webhook_delivery_log(p_user_id bigint, p_project_id bigint, p_webhook_id bigint, p_limit integer)
 RETURNS TABLE(id bigint, event_type text, status text, attempts integer, last_status integer, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: an endpoint's deliveries, newest first, as the delivery log shows them to every member
   (they name events and answers, never the URL or the secret) */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  if not exists (select 1 from app_public.webhooks w where w.id = p_webhook_id and w.project_id = p_project_id) then
    raise exception 'Webhook not found' using errcode = 'NTFND', hint = 'webhooks.notFound';
  end if;
  return query select d.id, d.event_type, d.status, d.attempts, d.last_status, d.created_at
  from app_public.webhook_deliveries d where d.webhook_id = p_webhook_id order by d.id desc limit p_limit;
end;
$function$;
