--! Previous: sha1:a9fc90269c72fc1f00b7be547fa4f1634a4c46e4
--! Hash: sha1:86b5d3e19ba95048f783fdda7587db1c780ac0bc
--! Message: The worker's AI posts reserve their bound of tokens like the API's calls (one reservation rule)

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.begin_ai_call(p_user_id bigint, p_calls_per_minute integer, p_daily_tokens bigint, p_total_daily_tokens bigint, p_reserve_tokens bigint)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
/*
 * why: every AI request of an account through the API (titles, posts, chat, starting a
 * content-generation job) counts one call here before the provider is asked: its day is
 * judged and its bound of tokens reserved (reserve_ai_tokens), then it is refused over the
 * account's calls in the last minute (AILIM; the hint is the API's code, the detail the seconds
 * to wait), which gives the reservation back with the rest of the statement. One account's
 * calls never count against another's per-account limits. Answers the reservation.
 */
declare
  v_calls int;
  v_oldest timestamptz;
  v_reservation bigint;
begin
  perform pg_advisory_xact_lock(hashtextextended('ai_calls:' || p_user_id, 0));
  v_reservation := app_private.reserve_ai_tokens(p_user_id, p_daily_tokens, p_total_daily_tokens, p_reserve_tokens);
  delete from app_private.ai_calls where user_id = p_user_id and called_at <= now() - interval '1 minute';
  select count(*), min(called_at) into v_calls, v_oldest from app_private.ai_calls where user_id = p_user_id;
  if p_calls_per_minute is not null and v_calls >= p_calls_per_minute then
    raise exception 'Too many AI requests from this account. Please wait a minute and try again.'
      using errcode = 'AILIM', hint = 'ai.rateLimited',
      detail = greatest(1, ceil(extract(epoch from v_oldest + interval '1 minute' - now())))::int::text;
  end if;
  insert into app_private.ai_calls (user_id) values (p_user_id);
  return v_reservation;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.reserve_ai_tokens(p_user_id bigint, p_daily_tokens bigint, p_total_daily_tokens bigint, p_tokens bigint)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
/*
 * why: every provider call, the API's (begin_ai_call) and the worker's AI jobs' alike, first
 * holds back its bound of tokens, which count as spent until settle_ai_call. Without it
 * concurrent calls pass a cap together, each thinking the day unspent (45 calls at once once
 * spent 5.6 times a 20,000-token cap; the worker's AI slots write for several accounts while
 * others chat): now a day is passed by one call's bound at most. Calls are judged one at a
 * time (the account's lock, then the service's day's). Once the account's day or every
 * account's is spent (spent_ai_budget): AILIM, the hint its code, the detail the seconds to
 * midnight UTC. Answers the reservation.
 */
declare
  v_spent text;
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
  insert into app_private.ai_reservations (user_id, tokens) values (p_user_id, greatest(p_tokens, 0))
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
   * why: the one rule of the AI's day, asked before every provider call (by
   * reserve_ai_tokens, for the API's calls and the AI jobs' posts alike): the code of the budget that is spent,
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

CREATE OR REPLACE FUNCTION app_public.project_stats(p_user_id bigint, p_project_id bigint, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the Statistics page in one read (docs/statistics.md): days and the
   best times in the project's timezone (weekday 1 = Monday), a post's reactions summed over
   all its messages (an album, a photo then its text), and its link in the channel (what
   Published links to; null when the approver confirmed it by hand); at most 1,000 posts, the newest */
declare
  v_tz text;
  v_channel_id bigint;
  v_chat_id bigint;
  v_result jsonb;
begin
  select p.timezone, c.id, c.chat_id into v_tz, v_channel_id, v_chat_id
  from app_public.projects p
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  where p.id = p_project_id and p.user_id = p_user_id;
  if v_tz is null then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;

  with pub as (
    select p.id, p.title, p.published_at, p.channel_message_ids, p.channel_chat_id,
           (select l.value from jsonb_each_text(p.published_links) l order by l.key limit 1) as url
    from app_public.posts p
    where p.project_id = p_project_id and p.status = 'published'
      and p.published_at >= p_from and p.published_at < p_to
    order by p.published_at desc, p.id desc
    limit 1000
  ), reacted as (
    select pub.id, pub.title, pub.published_at, pub.url, coalesce(r.total, 0) as total, coalesce(r.by_emoji, '{}'::jsonb) as by_emoji
    from pub
    left join lateral (
      select sum(n)::int as total, jsonb_object_agg(k, n) as by_emoji
      from (
        select e.key as k, sum(e.value::int)::int as n
        from app_private.message_reactions m, jsonb_each_text(m.reactions) e
        where m.channel_id = v_channel_id and pub.channel_chat_id = v_chat_id
          and m.message_id in (select jsonb_array_elements_text(pub.channel_message_ids)::bigint)
        group by e.key
      ) per_emoji
    ) r on true
  )
  select jsonb_build_object(
    'subscribers', jsonb_build_object(
      'current', (select s.subscribers from app_private.channel_stats s where s.channel_id = v_channel_id),
      'points', coalesce((
        select jsonb_agg(jsonb_build_object('at', app_private.stats_iso(s.sampled_at), 'count', s.subscribers) order by s.sampled_at)
        from app_private.subscriber_samples s
        where s.channel_id = v_channel_id and s.sampled_at >= p_from and s.sampled_at < p_to), '[]'::jsonb)),
    'days', coalesce((
      select jsonb_agg(jsonb_build_object('day', d.day, 'joins', d.joins, 'leaves', d.leaves) order by d.day)
      from (
        select to_char((b.bucket at time zone v_tz)::date, 'YYYY-MM-DD') as day, sum(b.joins)::int as joins, sum(b.leaves)::int as leaves
        from app_private.member_buckets b
        where b.channel_id = v_channel_id and b.bucket >= p_from and b.bucket < p_to
        group by 1
      ) d where d.joins > 0 or d.leaves > 0), '[]'::jsonb),
    'posts', coalesce((
      select jsonb_agg(jsonb_build_object('postId', r.id, 'title', r.title, 'publishedAt', app_private.stats_iso(r.published_at), 'url', r.url,
        'reactions', jsonb_build_object('total', r.total, 'byEmoji', r.by_emoji)) order by r.published_at desc, r.id desc)
      from reacted r), '[]'::jsonb),
    'bestTimes', coalesce((
      select jsonb_agg(jsonb_build_object('weekday', t.weekday, 'hour', t.hour, 'posts', t.posts, 'avgReactions', t.avg_reactions)
        order by t.weekday, t.hour)
      from (
        select extract(isodow from r.published_at at time zone v_tz)::int as weekday,
               extract(hour from r.published_at at time zone v_tz)::int as hour,
               count(*)::int as posts, round(avg(r.total), 2)::float8 as avg_reactions
        from reacted r group by 1, 2
      ) t), '[]'::jsonb))
  into v_result;
  return v_result;
end;
$function$;
