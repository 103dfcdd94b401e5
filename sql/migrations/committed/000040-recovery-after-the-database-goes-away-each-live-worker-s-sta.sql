--! Previous: sha1:2703c7ee5f960126dcff3f74dff7d043f57bb442
--! Hash: sha1:6e391e3796c3e90b4f42b49c381d9bd905a4139c
--! Message: Recovery after the database goes away: each live worker's stale locks are released and its other sending posts become uncertain

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
    perform app_public.record_send_failed(v_post.id,
      'The database went away while the post was being sent; it may or may not be in the channel', false);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;
