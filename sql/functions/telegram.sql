-- The telegram functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.record_telegram_webhook(p_bot_id text, p_url text, p_secret_digest text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: after a successful setWebhook, the next instance to start finds the same secret
     registered and leaves Telegram alone (one setWebhook a second is allowed) */
  insert into app_private.telegram_webhooks (bot_id, url, secret_digest, registered_at)
  values (p_bot_id, p_url, p_secret_digest, now())
  on conflict (bot_id) do update
    set url = excluded.url, secret_digest = excluded.secret_digest, registered_at = excluded.registered_at
$function$;

CREATE OR REPLACE FUNCTION app_private.reserve_telegram_send(p_bot_id text, p_chat_key text, p_chat_limit integer, p_chat_window_ms double precision, p_bot_gap_ms double precision)
 RETURNS double precision
 LANGUAGE plpgsql
AS $function$
/*
 * why: a message of the bot `p_bot_id` (the id part of its token, never the token) is
 * about to go to `p_chat_key` (null for an edit: bot-wide only). Answers how many
 * milliseconds the caller must wait before sending it, and holds that moment for it:
 *   - per chat: at most `p_chat_limit` messages in any `p_chat_window_ms`, in the order
 *     they were asked for (never before the chat's last reserved message);
 *   - bot-wide: at least `p_bot_gap_ms` from every other reserved message of the bot, the
 *     earliest such moment (a message held back by its chat leaves the moments before it
 *     to others).
 * Calls for one bot are taken one at a time. Chat history older than 2 minutes is
 * dropped, so windows longer than that are refused.
 */
declare
  v_gap interval := make_interval(secs => p_bot_gap_ms / 1000);
  v_window interval := make_interval(secs => p_chat_window_ms / 1000);
  v_now timestamptz;
  v_ready timestamptz;
  v_at timestamptz;
  v_slot timestamptz;
begin
  if p_chat_window_ms > 120000 or p_bot_gap_ms > 1000 then
    raise exception 'windows over 2 minutes and gaps over 1 second are not kept' using errcode = '22023', hint = 'internal';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('telegram_sends:' || p_bot_id, 0));
  v_now := clock_timestamp();
  v_ready := v_now;

  if p_chat_key is not null then
    -- never before the chat's last message, nor before its p_chat_limit-th newest leaves the window
    select greatest(v_now, max(send_at), (array_agg(send_at order by send_at desc))[p_chat_limit] + v_window)
      into v_ready
      from app_private.telegram_sends
     where bot_id = p_bot_id and chat_key = p_chat_key and send_at > v_now - v_window;
  end if;

  -- the earliest moment from v_ready at least a gap from every other message: walk the
  -- bot's messages from one gap before it, in order, until one leaves room
  v_at := v_ready;
  for v_slot in select send_at from app_private.telegram_slots
                 where bot_id = p_bot_id and send_at > v_ready - v_gap order by send_at loop
    exit when v_slot >= v_at + v_gap;
    v_at := greatest(v_at, v_slot + v_gap);
  end loop;

  -- a sample of calls clears what no window needs any more (a few dozen rows each time)
  if random() < 0.05 then
    delete from app_private.telegram_slots where bot_id = p_bot_id and send_at < v_now - interval '2 seconds';
    delete from app_private.telegram_sends where bot_id = p_bot_id and send_at < v_now - interval '2 minutes';
  end if;

  insert into app_private.telegram_slots (bot_id, send_at) values (p_bot_id, v_at);
  if p_chat_key is not null then
    insert into app_private.telegram_sends (bot_id, chat_key, send_at) values (p_bot_id, p_chat_key, v_at);
  end if;
  return greatest(0, extract(epoch from v_at - v_now) * 1000);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.telegram_chat_wait_ms(p_bot_id text, p_chat_key text, p_chat_limit integer, p_chat_window_ms double precision, p_messages integer)
 RETURNS double precision
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a job that would wait for a chat's budget gives its worker slot back and comes back
     when the chat has room, instead of sleeping in a slot other accounts need. Answers the
     milliseconds until `p_chat_key` could take `p_messages` more messages by the rule of
     reserve_telegram_send, without reserving anything (the job reserves when it sends). */
  select greatest(0, extract(epoch from greatest(
           clock_timestamp(),
           max(s.send_at),
           (array_agg(s.send_at order by s.send_at desc))[greatest(1, p_chat_limit - p_messages + 1)]
             + make_interval(secs => p_chat_window_ms / 1000)) - clock_timestamp()) * 1000)
  from app_private.telegram_sends s
  where s.bot_id = p_bot_id and s.chat_key = p_chat_key
    and s.send_at > clock_timestamp() - make_interval(secs => p_chat_window_ms / 1000)
$function$;

CREATE OR REPLACE FUNCTION app_private.telegram_webhook_secret_digest(p_bot_id text)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: Telegram never reads back a webhook's secret, so an API instance compares its own
     secret's digest with the one registered last to know whether setWebhook is needed */
  select secret_digest from app_private.telegram_webhooks where bot_id = p_bot_id
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_telegram_updates(p_claimer text, p_limit integer)
 RETURNS TABLE(update_id bigint, body jsonb)
 LANGUAGE plpgsql
AS $function$
/*
 * why: one process handles an update. It takes the stored updates nobody handles, oldest
 * first: unclaimed ones, and ones whose claimer has held them past a minute (it died
 * mid-handling; the handlers are guarded, so a slow one handled twice changes nothing).
 * Others' drains skip what is taken. Handled updates older than a day are pruned as it goes,
 * a hundred at most per claim, read by the partial index telegram_updates_handled (every
 * process claims every 2 s, so the prune must not read the day's handled rows).
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
