--! Previous: sha1:8233376b0d4e4ce6d1662a662ed65937c2d22fa7
--! Hash: sha1:785d97591be049f17a30377411bab505131a0ebd
--! Message: Webhook deliveries older than 30 days that are done are pruned daily, by an index on their age

--! split: 76-prune-webhook-deliveries.sql
-- the daily prune reads the old end of the delivery log by its age
create index if not exists webhook_deliveries_created_idx on app_public.webhook_deliveries (created_at) where status <> 'pending';

--! split: 77-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.prune_webhook_deliveries()
 RETURNS integer
 LANGUAGE sql
AS $function$
  /* why: the delivery log is for looking back over recent sends and redelivering them; after
     30 days a finished delivery is only weight (a busy project writes one per event per
     endpoint). A delivery still pending is kept whatever its age: its retries own it */
  with gone as (
    delete from app_public.webhook_deliveries
    where created_at < now() - interval '30 days' and status <> 'pending'
    returning 1)
  select count(*)::int from gone
$function$;
