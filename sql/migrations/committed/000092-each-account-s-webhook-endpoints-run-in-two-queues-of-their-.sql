--! Previous: sha1:f37ed8d00b72f5f2765b75809b68d41db00dbaa8
--! Hash: sha1:b3bc5a8d492ab5c188b18392527388b1f1d0918c
--! Message: Each account's webhook endpoints run in two queues of their own

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.webhook_queue(p_webhook_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the graphile-worker queue an endpoint's deliveries run in, one at a time: one of two
     per account (the account that carries the project), the endpoint always in the same one.
     A receiver that hangs holds a slot 10 s at a time, so an account's endpoints, however
     many and however dead, hold at most two of the webhook runner's slots, and every other
     account's deliveries keep theirs; an endpoint's own deliveries still go in order */
  select 'webhook:account:' || p.user_id || ':' || (w.id % 2)
  from app_public.webhooks w join app_public.projects p on p.id = w.project_id where w.id = p_webhook_id
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_webhook_delivery(p_delivery app_public.webhook_deliveries, p_afresh boolean DEFAULT false)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: when a delivery gets its job, called when one is made and when one ends (delivered,
 * or failed after its last try). A post's events go in the order they happened, so of a
 * post's deliveries to one endpoint only the earliest still pending has a job; the next is
 * queued when it ends, either way: a delivery that failed every try holds back the later
 * ones no longer (they go, in order). Waiting costs no try, and a waiting delivery has no job
 * that could run out of tries. Any other event goes at once. Each job runs in its account's
 * queue for that endpoint (webhook_queue), so a receiver that hangs holds back only its own
 * account's deliveries.
 * graphile-worker retries a failed try after exp(n) s (n: tries so far), so 10 tries span
 * about 3.6 hours, the first retry within seconds (DESIGN.md: >= 5 over >= 1 hour, the first
 * within 60 s). The lock orders this with a concurrent end or event of the same post, which
 * could otherwise each miss the other's row and leave the next delivery without a job.
 * p_afresh (an endpoint switched on again): the job replaces any left from while it was off,
 * which sends nothing and may be running now, past its check, about to end.
 */
declare
  v_next bigint := p_delivery.id;
begin
  if p_delivery.post_id is not null then
    perform pg_advisory_xact_lock(hashtextextended('webhook_delivery:' || p_delivery.webhook_id || ':' || p_delivery.post_id, 0));
    select d.id into v_next from app_public.webhook_deliveries d
    where d.webhook_id = p_delivery.webhook_id and d.post_id = p_delivery.post_id and d.status = 'pending'
    order by d.id limit 1;
  elsif p_delivery.status <> 'pending' then
    v_next := null;
  end if;
  if v_next is not null then
    -- the earliest pending may have its job already (queued, retrying or running): kept as it
    -- is, but when the endpoint comes back on
    perform graphile_worker.add_job('webhooks__deliver', json_build_object('deliveryId', v_next),
      queue_name := app_private.webhook_queue(p_delivery.webhook_id), max_attempts := 10,
      job_key := 'webhook_delivery:' || v_next, job_key_mode := case when p_afresh then 'replace' else 'unsafe_dedupe' end);
  end if;
end;
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
    queue_name := app_private.webhook_queue(p_webhook_id), max_attempts := 10, job_key := 'webhook_delivery:' || p_delivery_id,
    job_key_mode := 'replace');
  update app_public.webhooks set disabled_at = null where webhooks.id = p_webhook_id and disabled_at is not null;
  if found then
    perform app_private.resume_webhook(p_webhook_id);
  end if;
  return query select d.id, d.event_type, d.status, d.attempts, d.last_status, d.created_at
  from app_public.webhook_deliveries d where d.id = p_delivery_id;
end;
$function$;
