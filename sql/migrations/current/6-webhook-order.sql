-- A post's webhook deliveries to one endpoint are chained (sql/functions/webhooks.sql,
-- queue_webhook_delivery): only the earliest still pending has a job, and the next is queued
-- when it ends. Each delivery names its post, indexed among the pending ones, so finding the
-- next reads only what is still to send.
alter table app_public.webhook_deliveries add column if not exists post_id bigint;
update app_public.webhook_deliveries set post_id = (payload #>> '{data,post,id}')::bigint
where post_id is null and payload #> '{data,post,id}' is not null;
create index if not exists webhook_deliveries_pending_post_idx on app_public.webhook_deliveries (webhook_id, post_id, id)
  where status = 'pending' and post_id is not null;
-- a delivery no longer waits at its send (it is queued only once it may go): a changed result,
-- so the function is made again from sql/functions/webhooks.sql
drop function if exists app_public.webhook_delivery_to_send(bigint);
