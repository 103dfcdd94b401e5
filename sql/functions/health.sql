-- The health functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_public.health()
 RETURNS TABLE(worker_alive boolean, bot_alive boolean, bot_seen boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: GET /api/health reports the worker and the bot from their heartbeats (the bot's
     are named bot:<pid>); bot_seen tells "never started" from "stopped" */
  select
    exists (select 1 from app_private.worker_heartbeats where worker_id not like 'bot:%' and seen_at > now() - interval '10 seconds'),
    exists (select 1 from app_private.worker_heartbeats where worker_id like 'bot:%' and seen_at > now() - interval '30 seconds'),
    exists (select 1 from app_private.worker_heartbeats where worker_id like 'bot:%')
$function$;

CREATE OR REPLACE FUNCTION app_public.record_heartbeat(p_worker_ids text[])
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a live worker process says so every few seconds, and so does the bot (as bot:<pid>) */
  insert into app_private.worker_heartbeats (worker_id, seen_at)
  select unnest(p_worker_ids), now()
  on conflict (worker_id) do update set seen_at = excluded.seen_at
$function$;

CREATE OR REPLACE FUNCTION app_public.recover_from_dead_workers(p_dead_after interval)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: a worker that died (killed, machine lost) leaves its jobs locked for hours and its
 * posts in `sending`. Jobs locked by a worker without a recent heartbeat are unlocked (to
 * be run again; every task is guarded), and its sends become `uncertain` for the admin to
 * decide, never retried blindly. Answers how many posts became uncertain.
 */
declare
  v_dead text[];
  v_post record;
  v_count int := 0;
begin
  select coalesce(array_agg(distinct j.locked_by), '{}') into v_dead
  from graphile_worker._private_jobs j
  where j.locked_by is not null and j.locked_at < now() - p_dead_after
    and not exists (select 1 from app_private.worker_heartbeats h
                    where h.worker_id = j.locked_by and h.seen_at > now() - p_dead_after);
  if cardinality(v_dead) > 0 then
    perform graphile_worker.force_unlock_workers(v_dead);
  end if;
  for v_post in
    select p.id from app_public.posts p
    where p.status = 'sending' and p.sending_started_at < now() - p_dead_after
      and (p.sending_started_at < now() - interval '10 minutes' -- a live worker that lost track of it
           or not exists (select 1 from app_private.worker_heartbeats h
                          where h.worker_id = p.sending_worker_id and h.seen_at > now() - p_dead_after))
    for update skip locked
  loop
    perform app_public.record_send_failed(v_post.id, 'posts.error.workerStopped', '{}', false);
    v_count := v_count + 1;
  end loop;
  delete from app_private.worker_heartbeats where seen_at < now() - interval '1 day';
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.recover_from_live_workers(p_worker_ids text[], p_running_job_ids bigint[], p_sending_post_ids bigint[], p_after interval)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: a live worker process loses track of some of its work when the database goes away
 * under it (a restart, a failover): graphile-worker cannot record a job's end, and leaves it
 * locked by a worker whose heartbeat goes on (for hours, to graphile-worker); a lock or a
 * begin_sending may commit while its answer is lost. recover_from_dead_workers never sees
 * these, their worker being alive. So the process names its graphile-worker ids, the jobs
 * it is running and the posts it is sending: what else has been locked or sent under those
 * ids for longer than p_after is released as a dead worker's is (jobs unlocked to run
 * again, every task being guarded; sends uncertain for the admin, never retried blindly).
 * Answers how many posts became uncertain.
 */
declare
  v_post record;
  v_count int := 0;
begin
  update graphile_worker._private_jobs j set locked_by = null, locked_at = null
  where j.locked_by = any(p_worker_ids) and j.locked_at < now() - p_after
    and j.id <> all(p_running_job_ids);
  update graphile_worker._private_job_queues q set locked_by = null, locked_at = null
  where q.locked_by = any(p_worker_ids) and q.locked_at < now() - p_after
    and not exists (select 1 from graphile_worker._private_jobs j
                    where j.job_queue_id = q.id and j.id = any(p_running_job_ids));
  for v_post in
    select p.id from app_public.posts p
    where p.status = 'sending' and p.sending_worker_id = any(p_worker_ids)
      and p.sending_started_at < now() - p_after and p.id <> all(p_sending_post_ids)
    for update skip locked
  loop
    perform app_public.record_send_failed(v_post.id, 'posts.error.databaseLost', '{}', false);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;
