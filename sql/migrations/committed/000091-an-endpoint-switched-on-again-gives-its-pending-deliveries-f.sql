--! Previous: sha1:045fc95f8a460114b372773d8ab2a8c467ac2f6a
--! Hash: sha1:f37ed8d00b72f5f2765b75809b68d41db00dbaa8
--! Message: An endpoint switched on again gives its pending deliveries fresh jobs, replacing any left from while it was off

--! split: 8-queue-webhook-delivery-afresh.sql
-- queue_webhook_delivery takes p_afresh (an endpoint switched on again replaces the jobs left from while it was off)
drop function if exists app_private.queue_webhook_delivery(app_public.webhook_deliveries);

--! split: 9-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
 * that could run out of tries. Any other event goes at once. Each job runs in its endpoint's
 * own queue (one at a time), so a receiver that hangs holds back only its own deliveries.
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
      queue_name := 'webhook:' || p_delivery.webhook_id, max_attempts := 10,
      job_key := 'webhook_delivery:' || v_next, job_key_mode := case when p_afresh then 'replace' else 'unsafe_dedupe' end);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.resume_webhook(p_webhook_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: an endpoint switched on again (a redelivery, a new address) sends what was still
     pending when it was switched off, whose jobs end sending nothing while it is off: each
     post's earliest pending delivery and every other pending one get a fresh job, by the one
     rule (queue_webhook_delivery) */
  select count(app_private.queue_webhook_delivery(d, true)) from app_public.webhook_deliveries d
  where d.webhook_id = p_webhook_id and d.status = 'pending'
$function$;
