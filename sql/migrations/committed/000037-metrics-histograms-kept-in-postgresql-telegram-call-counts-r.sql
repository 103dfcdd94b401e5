--! Previous: sha1:543fafd7567e1371d83892d1d607f8320cc4ed7d
--! Hash: sha1:9f2ca036232f714ff94e3fdbab1e48dcbbbd892f
--! Message: Metrics: histograms kept in PostgreSQL, Telegram call counts, read_metrics

--! split: 8-metrics.sql
-- Metrics (GET /metrics, README "Metrics"): what the series are computed from lives here, so
-- every API instance answers the same numbers whichever of them is scraped.

-- A histogram per row: `buckets[i]` counts the observations ≤ `bounds[i]` (cumulative, as
-- Prometheus exposes them); +Inf is `observations`. Counters since the table was created.
create table if not exists app_private.metric_histograms (
  name text primary key,
  bounds double precision[] not null,
  buckets bigint[] not null,
  total double precision not null default 0,
  observations bigint not null default 0,
  constraint metric_histograms_shape check (cardinality(bounds) = cardinality(buckets) and cardinality(bounds) > 0)
);

insert into app_private.metric_histograms (name, bounds, buckets) values
  -- on time is under a second (500 ms polling); a channel's budget defers by up to a minute;
  -- a worker outage or a flood wait shows in the long tail
  ('publish_lateness_seconds', '{0.5,1,2,5,10,30,60,120,300,900,3600}', array_fill(0::bigint, array[11])),
  -- README's fairness target is 2 s under a burst
  ('sign_in_mail_delay_seconds', '{0.25,0.5,1,2,5,10,30,60,300}', array_fill(0::bigint, array[9]))
on conflict (name) do nothing;

-- Telegram calls by method and result, added in batches by each process (core/telegram/call_counts.ts).
-- Unlogged: no WAL for a counter; a crash of PostgreSQL empties it, which Prometheus reads as
-- a counter reset.
create unlogged table if not exists app_private.telegram_call_counts (
  method text not null,
  result text not null,
  calls bigint not null default 0,
  primary key (method, result),
  constraint telegram_call_counts_result_check check (result in ('ok', 'rate_limited', 'refused', 'unreachable'))
);

--! split: 9-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.observe_metric(p_name text, p_value double precision)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: one observation into a histogram kept in the database, so every API instance
     reports the same buckets; the row is updated in the caller's transaction (a rolled-back
     publication is not observed) and held only until it commits */
  update app_private.metric_histograms h
     set buckets = array(
           select b.count + (p_value <= b.bound)::int
           from unnest(h.bounds, h.buckets) with ordinality as b(bound, count, i)
           order by b.i),
         total = h.total + p_value,
         observations = h.observations + 1
   where h.name = p_name
$function$;

CREATE OR REPLACE FUNCTION app_public.record_sign_in_mail_metric(p_requested_at timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the sign-in mail was handed to SMTP; its delay since the code was requested (the
     job was queued in the request's transaction, so its creation is the request) */
  select app_private.observe_metric('sign_in_mail_delay_seconds',
    greatest(0, extract(epoch from clock_timestamp() - p_requested_at))::float8)
$function$;

CREATE OR REPLACE FUNCTION app_public.add_telegram_call_metrics(p_methods text[], p_results text[], p_calls bigint[])
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a process's Telegram calls since its last batch, added to the shared counters in
     one statement (never one per call) */
  insert into app_private.telegram_call_counts (method, result, calls)
  select method, result, sum(calls)
  from unnest(p_methods, p_results, p_calls) as u(method, result, calls)
  group by method, result
  on conflict (method, result) do update set calls = app_private.telegram_call_counts.calls + excluded.calls
$function$;

CREATE OR REPLACE FUNCTION app_public.read_metrics()
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /*
   * why: everything GET /metrics reports from the database, in one call. Jobs by task, in
   * disjoint states: running (locked), waiting (due, not yet taken), scheduled (due later,
   * retries in their backoff included), failed (out of attempts; kept until cleaned up);
   * failing counts those that failed at least once and are still in play (any state but
   * failed). One pass over graphile-worker's job table (one row per queued job: ~30 ms for
   * 100,000 jobs on 2 cores), one row per histogram, per Telegram method and per AI day.
   */
  select jsonb_build_object(
    'jobs', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'task', t.identifier, 'waiting', coalesce(s.waiting, 0), 'scheduled', coalesce(s.scheduled, 0),
               'running', coalesce(s.running, 0), 'failed', coalesce(s.failed, 0), 'failing', coalesce(s.failing, 0),
               'oldestWaitingSeconds', coalesce(s.oldest_waiting_seconds, 0))
             order by t.identifier), '[]'::jsonb)
      from graphile_worker._private_tasks t
      left join (
        select j.task_id,
          count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now()) as waiting,
          count(*) filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at > now()) as scheduled,
          count(*) filter (where j.locked_at is not null) as running,
          count(*) filter (where j.locked_at is null and j.attempts >= j.max_attempts) as failed,
          count(*) filter (where j.last_error is not null and not (j.locked_at is null and j.attempts >= j.max_attempts)) as failing,
          extract(epoch from now() - min(j.run_at)
            filter (where j.locked_at is null and j.attempts < j.max_attempts and j.run_at <= now()))::float8
            as oldest_waiting_seconds
        from graphile_worker._private_jobs j
        group by j.task_id
      ) s on s.task_id = t.id
    ),
    'histograms', (
      select coalesce(jsonb_object_agg(h.name, jsonb_build_object(
               'bounds', to_jsonb(h.bounds), 'buckets', to_jsonb(h.buckets), 'sum', h.total, 'count', h.observations)), '{}'::jsonb)
      from app_private.metric_histograms h
    ),
    'telegramCalls', (
      select coalesce(jsonb_agg(jsonb_build_object('method', c.method, 'result', c.result, 'calls', c.calls)
             order by c.method, c.result), '[]'::jsonb)
      from app_private.telegram_call_counts c
    ),
    'aiTokensToday', coalesce((select tokens from app_private.ai_tokens_total where day = app_private.utc_today()), 0),
    'aiTokensAllDays', (select coalesce(sum(tokens), 0) from app_private.ai_tokens_total)
  )
$function$;

CREATE OR REPLACE FUNCTION app_public.record_published(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_links jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the send succeeded: keep the chat, its message ids and links; the draft leaves the
   list; a post to pin gets its pin (and its unpin) queued in the same step, so a crash
   cannot publish a post without them */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    channel_chat_id = p_chat_id, published_links = p_links, published_at = now(), sending_worker_id = null,
    last_error = null
  where id = p_post_id and status in ('sending', 'uncertain')
  returning * into v_post;
  if not found then
    return v_post;
  end if;
  -- how late it went out (README "Metrics"); an early send counts as on time
  perform app_private.observe_metric('publish_lateness_seconds',
    greatest(0, extract(epoch from v_post.published_at - v_post.scheduled_for))::float8);
  if v_post.options ->> 'pin' = 'true' then
    perform app_private.queue_pinning(v_post);
  end if;
  return v_post;
end;
$function$;
