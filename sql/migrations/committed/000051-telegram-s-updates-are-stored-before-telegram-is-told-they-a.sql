--! Previous: sha1:abdce8666c121413b42b4eaf1477b96320234ea1
--! Hash: sha1:9f22e097882ed5ca08987784353b34deadfc074e
--! Message: Telegram's updates are stored before Telegram is told they arrived, and handled from there by one process

--! split: 3-telegram-updates-stored-before-they-are-confirmed.sql
-- Telegram's updates are stored before Telegram is told they arrived (the next getUpdates
-- offset when polling, the webhook's 200), and handled from here: an update whose process died
-- before handling it is taken up by the next drain of any process (bot/inbox.ts).
create table if not exists app_private.telegram_updates (
  update_id bigint primary key,
  body jsonb not null,
  received_at timestamptz not null default now(),
  claimed_by text,
  claimed_at timestamptz,
  handled_at timestamptz
);
create index if not exists telegram_updates_waiting on app_private.telegram_updates (update_id) where handled_at is null;

--! split: 4-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.store_telegram_updates(p_updates jsonb)
 RETURNS integer
 LANGUAGE sql
AS $function$
  /* why: an update is kept before Telegram is told it arrived, so none is lost to a crash
     between the two; Telegram sending one again (no 2xx, an offset not yet moved) stores
     nothing new. Answers how many were new. */
  with stored as (
    insert into app_private.telegram_updates (update_id, body)
    select (u ->> 'update_id')::bigint, u from jsonb_array_elements(p_updates) u
    on conflict (update_id) do nothing
    returning 1)
  select count(*)::int from stored
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_telegram_updates(p_claimer text, p_limit integer)
 RETURNS TABLE(update_id bigint, body jsonb)
 LANGUAGE plpgsql
AS $function$
/*
 * why: one process handles an update. It takes the stored updates nobody handles, oldest
 * first: unclaimed ones, and ones whose claimer has held them past a minute (it died
 * mid-handling; the handlers are guarded, so a slow one handled twice changes nothing).
 * Others' drains skip what is taken. Handled updates older than a day are pruned as it goes.
 */
begin
  delete from app_private.telegram_updates t
  where t.update_id in (select d.update_id from app_private.telegram_updates d
                        where d.handled_at < now() - interval '1 day' limit 100);
  return query
  update app_private.telegram_updates t set claimed_by = p_claimer, claimed_at = now()
  where t.update_id in (
    select w.update_id from app_private.telegram_updates w
    where w.handled_at is null and (w.claimed_at is null or w.claimed_at < now() - interval '1 minute')
    order by w.update_id limit p_limit
    for update skip locked)
  returning t.update_id, t.body;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_telegram_update_handled(p_update_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a handled update is never handled again */
  update app_private.telegram_updates set handled_at = now() where update_id = p_update_id and handled_at is null
$function$;
