--! Previous: sha1:f975742bca087476d31effeee9dc094bc3d64987
--! Hash: sha1:aab7cfdb5b33b6ac703980cbe75f76ec8fd901e5
--! Message: Every object a client creates it can change: comments edited or deleted by their writer (an owner removes any), webhooks changed in place, tokens renamed; the owner is mailed when an endpoint is switched off

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.edit_post_comment(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_comment_id bigint, p_text text)
 RETURNS TABLE(id bigint, user_id bigint, email text, text text, created_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: a comment is its writer's to correct (while they may still comment); another's is "not found" */
#variable_conflict use_column
begin
  perform app_private.authorize(p_user_id, p_project_id, 'comments.write');
  update app_public.post_comments c set text = p_text
  where c.id = p_comment_id and c.post_id = p_post_id and c.project_id = p_project_id and c.user_id = p_user_id;
  if not found then
    raise exception 'Comment not found' using errcode = 'NTFND', hint = 'comments.notFound';
  end if;
  return query select c.id, c.user_id, u.email, c.text, c.created_at
  from app_public.post_comments c left join app_public.users u on u.id = c.user_id where c.id = p_comment_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_post_comment(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_comment_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: a writer takes back their own comment; an owner may remove anyone's (moderation of the project) */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'comments.write');
begin
  delete from app_public.post_comments c
  where c.id = p_comment_id and c.post_id = p_post_id and c.project_id = p_project_id
    and (c.user_id = p_user_id or v_role = 'owner');
  if not found then
    raise exception 'Comment not found' using errcode = 'NTFND', hint = 'comments.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.notification_settings(p_user_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the kinds of mail the account wants; a kind not stored yet is on. The weekly summary
     is a column of its own: off for accounts older than it, on for newer ones (migration 46) */
  select '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true, "webhookDisabled": true, "reviewRequested": true,
           "reviewApproved": true, "reviewReturned": true, "postCommented": true}'::jsonb || notifications
    || jsonb_build_object('weeklySummary', weekly_summary)
  from app_public.users where id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.rename_api_token(p_user_id bigint, p_token_id bigint, p_name text)
 RETURNS TABLE(id bigint, name text, project_id bigint, scopes text[], created_at timestamp with time zone, last_used_at timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/* why: a token's name says where it is used; its scope and project never change (make a new one) */
#variable_conflict use_column
begin
  update app_private.api_tokens t set name = btrim(p_name) where t.id = p_token_id and t.user_id = p_user_id and t.revoked_at is null;
  if not found then
    raise exception 'Token not found' using errcode = 'NTFND', hint = 'tokens.notFound';
  end if;
  return query select t.id, t.name, t.project_id, t.scopes, t.created_at, t.last_used_at from app_private.api_tokens t where t.id = p_token_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_webhook_attempt(p_delivery_id bigint, p_ok boolean, p_status integer, p_error text, p_final boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: each try is counted with its answer's status; the last failed try fails the delivery;
   an endpoint whose deliveries have failed for 3 days is switched off (its owner sees it in
   the list and the activity), so a dead receiver stops costing tries */
declare
  v_delivery app_public.webhook_deliveries;
  v_hook app_public.webhooks;
begin
  update app_public.webhook_deliveries set attempts = attempts + 1, last_status = p_status, last_error = left(p_error, 500),
    status = case when p_ok then 'delivered' when p_final then 'failed' else 'pending' end,
    delivered_at = case when p_ok then now() end
  where id = p_delivery_id
  returning * into v_delivery;
  if not found or p_ok then
    return;
  end if;
  select * into v_hook from app_public.webhooks where id = v_delivery.webhook_id;
  if v_hook.disabled_at is null
     and not exists (select 1 from app_public.webhook_deliveries d where d.webhook_id = v_hook.id
                     and d.status = 'delivered' and d.delivered_at > now() - interval '3 days')
     and exists (select 1 from app_public.webhook_deliveries d where d.webhook_id = v_hook.id
                 and d.status <> 'delivered' and d.created_at < now() - interval '3 days') then
    update app_public.webhooks set disabled_at = now() where id = v_hook.id;
    perform app_private.log_activity(v_hook.project_id, 'webhook.disabled', 'webhook', v_hook.id,
      jsonb_build_object('url', v_hook.url), null);
    perform app_private.notify_owner(v_hook.project_id, 'webhookDisabled', null);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_webhook(p_user_id bigint, p_project_id bigint, p_webhook_id bigint, p_url text, p_events text[])
 RETURNS TABLE(id bigint, url text, events text[], created_at timestamp with time zone, disabled_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: an endpoint's address or events change in place (its secret and log stay); only the
   fields given change; a new address starts afresh, switched on */
#variable_conflict use_column
begin
  perform app_private.authorize(p_user_id, p_project_id, 'webhooks.manage');
  update app_public.webhooks w set url = coalesce(p_url, w.url), events = coalesce(p_events, w.events),
    disabled_at = case when p_url is not null and p_url <> w.url then null else w.disabled_at end
  where w.id = p_webhook_id and w.project_id = p_project_id;
  if not found then
    raise exception 'Webhook not found' using errcode = 'NTFND', hint = 'webhooks.notFound';
  end if;
  return query select w.id, w.url, w.events, w.created_at, w.disabled_at from app_public.webhooks w where w.id = p_webhook_id;
end;
$function$;
