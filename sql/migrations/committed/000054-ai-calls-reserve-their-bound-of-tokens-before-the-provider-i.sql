--! Previous: sha1:79a9d083f3a061b7ad59647b6e77697fe838979d
--! Hash: sha1:a9fc90269c72fc1f00b7be547fa4f1634a4c46e4
--! Message: AI calls reserve their bound of tokens before the provider is asked and settle after

--! split: 2-ai-calls-reserve-their-tokens.sql
-- An AI call reserves its bound of tokens before the provider is asked, and settles after
-- (app_public.begin_ai_call, settle_ai_call): concurrent calls cannot pass a cap together.
create table if not exists app_private.ai_reservations (
  id bigint generated always as identity primary key,
  user_id bigint not null references app_public.users(id) on delete cascade,
  tokens bigint not null check (tokens >= 0),
  reserved_at timestamptz not null default now()
);
create index if not exists ai_reservations_user on app_private.ai_reservations (user_id, reserved_at);
drop function if exists app_public.begin_ai_call(bigint, integer, bigint, bigint);

--! split: 3-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.begin_ai_call(p_user_id bigint, p_calls_per_minute integer, p_daily_tokens bigint, p_total_daily_tokens bigint, p_reserve_tokens bigint)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
/*
 * why: every AI request of an account (titles, posts, chat, a content-generation job)
 * counts one call here before the provider is asked. Once the account's tokens of the UTC
 * day are spent, or every account's together (spent_ai_budget), or over the account's calls
 * in the last minute, it is refused (AILIM; the hint is the API's code, the detail the
 * seconds to wait). One account's calls never count against another's per-account limits.
 * A call that may go on reserves its bound of tokens (p_reserve_tokens), which count as spent
 * until settle_ai_call: so concurrent calls cannot pass a cap together, each thinking the day
 * unspent (45 calls at once once spent 5.6 times a 20,000-token cap); a day can be passed by
 * one call's bound at most. Calls are judged one at a time (the account's lock, and the
 * service's for its day across accounts). Answers the reservation.
 */
declare
  v_spent text;
  v_calls int;
  v_oldest timestamptz;
  v_reservation bigint;
begin
  perform pg_advisory_xact_lock(hashtextextended('ai_calls:' || p_user_id, 0));
  perform pg_advisory_xact_lock(hashtextextended('ai_calls:all', 0));
  v_spent := app_public.spent_ai_budget(p_user_id, p_daily_tokens, p_total_daily_tokens);
  if v_spent = 'ai.dailyBudgetSpent' then
    raise exception 'The daily AI budget of this account is spent. It renews at midnight UTC.'
      using errcode = 'AILIM', hint = 'ai.dailyBudgetSpent', detail = app_private.seconds_to_next_utc_day()::text;
  elsif v_spent = 'ai.globalDailyLimit' then
    raise exception 'The AI has reached this service''s daily limit for all accounts. It renews at midnight UTC.'
      using errcode = 'AILIM', hint = 'ai.globalDailyLimit', detail = app_private.seconds_to_next_utc_day()::text;
  end if;
  delete from app_private.ai_calls where user_id = p_user_id and called_at <= now() - interval '1 minute';
  select count(*), min(called_at) into v_calls, v_oldest from app_private.ai_calls where user_id = p_user_id;
  if p_calls_per_minute is not null and v_calls >= p_calls_per_minute then
    raise exception 'Too many AI requests from this account. Please wait a minute and try again.'
      using errcode = 'AILIM', hint = 'ai.rateLimited',
      detail = greatest(1, ceil(extract(epoch from v_oldest + interval '1 minute' - now())))::int::text;
  end if;
  insert into app_private.ai_calls (user_id) values (p_user_id);
  insert into app_private.ai_reservations (user_id, tokens) values (p_user_id, greatest(p_reserve_tokens, 0))
  returning id into v_reservation;
  return v_reservation;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.spent_ai_budget(p_user_id bigint, p_daily_tokens bigint, p_total_daily_tokens bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /*
   * why: the one rule of the AI's day, asked before every provider call (by begin_ai_call,
   * and by the AI jobs before each post they write): the code of the budget that is spent,
   * the account's own (ai.dailyBudgetSpent) or every account's together
   * (ai.globalDailyLimit, which free sign-ups cannot multiply), or null while both last.
   * Tokens reserved by calls still running count as spent (a reservation a crash left
   * behind stops counting after 10 minutes).
   */
  select case
    when p_daily_tokens is not null and coalesce((
      select tokens from app_private.ai_tokens where user_id = p_user_id and day = app_private.utc_today()), 0)
      + coalesce((select sum(r.tokens) from app_private.ai_reservations r
                  where r.user_id = p_user_id and r.reserved_at > now() - interval '10 minutes'), 0) >= p_daily_tokens
      then 'ai.dailyBudgetSpent'
    when p_total_daily_tokens is not null and coalesce((
      select tokens from app_private.ai_tokens_total where day = app_private.utc_today()), 0)
      + coalesce((select sum(r.tokens) from app_private.ai_reservations r
                  where r.reserved_at > now() - interval '10 minutes'), 0) >= p_total_daily_tokens
      then 'ai.globalDailyLimit'
  end
$function$;

CREATE OR REPLACE FUNCTION app_public.settle_ai_call(p_reservation_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a call that ended (its tokens recorded, or it failed) holds back no more of the day */
  delete from app_private.ai_reservations where id = p_reservation_id
$function$;
