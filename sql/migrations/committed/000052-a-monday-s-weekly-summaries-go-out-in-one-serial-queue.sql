--! Previous: sha1:9f22e097882ed5ca08987784353b34deadfc074e
--! Hash: sha1:25fee2663fa601c2554e6e3df84d6455522a5fa6
--! Message: A Monday's weekly summaries go out in one serial queue

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.queue_weekly_summaries(p_now timestamp with time zone DEFAULT now())
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
/*
 * why: the weekly summary (README "Notifications") goes out on Monday from 09:00 in the
 * project's timezone, once per project and week, to owners who keep it on, for projects with
 * a connected channel, about the week (Monday to Sunday) before. The hourly pass marks the
 * week (weekly_summaries_sent) and queues the mail in one transaction, so a second pass, a retried job or a restarted worker queues
 * nothing more; a pass missed at 09:00 is made up later the same Monday. Answers how many
 * were queued.
 */
declare
  v_due record;
  v_count integer := 0;
begin
  for v_due in
    insert into app_private.weekly_summaries_sent (project_id, week)
    select p.id, (p_now at time zone p.timezone)::date
    from app_public.projects p
    join app_public.users u on u.id = p.user_id and u.weekly_summary
    join app_public.channels c on c.project_id = p.id and c.status = 'connected'
    where extract(isodow from p_now at time zone p.timezone) = 1
      and extract(hour from p_now at time zone p.timezone) >= 9
    on conflict do nothing
    returning project_id, week
  loop
    -- one serial queue for the whole fan-out: a Monday's thousands of summaries go out one
    -- after another in one worker slot, never ahead of publishing and previews in the others
    -- (2,002 summaries once delayed a sign-in mail by 14.3 s)
    perform graphile_worker.add_job('weekly_summaries__send',
      json_build_object('projectId', v_due.project_id, 'week', v_due.week), max_attempts := 5,
      queue_name := 'mail:weekly_summaries',
      job_key := 'weekly_summary:' || v_due.project_id || ':' || v_due.week);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;
