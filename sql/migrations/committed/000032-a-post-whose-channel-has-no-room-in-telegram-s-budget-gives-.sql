--! Previous: sha1:2523f90e8cc8e7b9b61bc238a0c37d6b6f7feaa9
--! Hash: sha1:f426f26308eeaed20f8f32ad6ea6294ff437d858
--! Message: A post whose channel has no room in Telegram's budget gives its worker slot back and comes back when it has (telegram_chat_wait_ms, defer_publication)

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.defer_publication(p_post_id bigint, p_wait_ms double precision)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: the channel has no room in Telegram's budget for this post yet; its job comes back
   when it has (one job per post: the key moves to the new one), holding no worker slot
   meanwhile. Only an approved post, not yet being sent, is deferred. */
begin
  perform 1 from app_public.posts where id = p_post_id and status = 'approved';
  if found then
    perform app_private.queue_publication(p_post_id, now() + make_interval(secs => p_wait_ms / 1000));
  end if;
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
