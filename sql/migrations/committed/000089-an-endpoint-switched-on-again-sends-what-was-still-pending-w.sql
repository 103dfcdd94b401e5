--! Previous: sha1:b7997698becf944b79d10768e25f45ed937e1033
--! Hash: sha1:385dd95a11e9ab819a6f7f203abbd3e807724221
--! Message: An endpoint switched on again sends what was still pending when it was switched off

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.resume_webhook(p_webhook_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: an endpoint switched on again (a redelivery, a new address) sends what was still
     pending when it was switched off, whose jobs ended sending nothing meanwhile: each post's
     earliest pending delivery and every other pending one get their job, by the one rule
     (queue_webhook_delivery; a job already there is kept) */
  select count(app_private.queue_webhook_delivery(d)) from app_public.webhook_deliveries d
  where d.webhook_id = p_webhook_id and d.status = 'pending'
$function$;

CREATE OR REPLACE FUNCTION app_public.redeliver_webhook(p_user_id bigint, p_project_id bigint, p_webhook_id bigint, p_delivery_id bigint)
 RETURNS TABLE(id bigint, event_type text, status text, attempts integer, last_status integer, created_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: a delivery sent again at once, under its own webhook-id, whatever became of it; an
   endpoint switched off for failing comes back on with it */
#variable_conflict use_column
begin
  perform app_private.authorize(p_user_id, p_project_id, 'webhooks.manage');
  update app_public.webhook_deliveries d set status = 'pending'
  from app_public.webhooks w
  where d.id = p_delivery_id and d.webhook_id = p_webhook_id and w.id = d.webhook_id and w.project_id = p_project_id;
  if not found then
    raise exception 'Delivery not found' using errcode = 'NTFND', hint = 'webhooks.deliveryNotFound';
  end if;
  perform graphile_worker.add_job('webhooks__deliver', json_build_object('deliveryId', p_delivery_id),
    queue_name := 'webhook:' || p_webhook_id, max_attempts := 10, job_key := 'webhook_delivery:' || p_delivery_id,
    job_key_mode := 'replace');
  update app_public.webhooks set disabled_at = null where webhooks.id = p_webhook_id and disabled_at is not null;
  if found then
    perform app_private.resume_webhook(p_webhook_id);
  end if;
  return query select d.id, d.event_type, d.status, d.attempts, d.last_status, d.created_at
  from app_public.webhook_deliveries d where d.id = p_delivery_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_webhook(p_user_id bigint, p_project_id bigint, p_webhook_id bigint, p_url text, p_events text[])
 RETURNS TABLE(id bigint, url text, events text[], created_at timestamp with time zone, disabled_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: an endpoint's address or events change in place (its secret and log stay); only the
   fields given change; a new address starts afresh, switched on, with what was pending */
#variable_conflict use_column
declare
  v_switched_on boolean;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'webhooks.manage');
  select w.disabled_at is not null and p_url is not null and p_url <> w.url into v_switched_on
  from app_public.webhooks w where w.id = p_webhook_id and w.project_id = p_project_id for update;
  if not found then
    raise exception 'Webhook not found' using errcode = 'NTFND', hint = 'webhooks.notFound';
  end if;
  update app_public.webhooks w set url = coalesce(p_url, w.url), events = coalesce(p_events, w.events),
    disabled_at = case when p_url is not null and p_url <> w.url then null else w.disabled_at end
  where w.id = p_webhook_id;
  if v_switched_on then
    perform app_private.resume_webhook(p_webhook_id);
  end if;
  return query select w.id, w.url, w.events, w.created_at, w.disabled_at from app_public.webhooks w where w.id = p_webhook_id;
end;
$function$;
