-- The metrics functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

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

CREATE OR REPLACE FUNCTION app_public.record_sign_in_mail_metric(p_requested_at timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the sign-in mail was handed to SMTP; its delay since the code was requested (the
     job was queued in the request's transaction, so its creation is the request) */
  select app_private.observe_metric('sign_in_mail_delay_seconds',
    greatest(0, extract(epoch from clock_timestamp() - p_requested_at))::float8)
$function$;
