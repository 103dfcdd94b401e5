-- The ai jobs functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.ai_queue(p_user_id bigint)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /*
   * why: every AI job of an account (its drafts' generation, its autopilot writing) runs in
   * this one graphile-worker queue, so an account holds at most one of the worker's AI slots
   * however many projects it has, and another account's job takes the next free slot
   */
  select 'ai:user:' || p_user_id
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

CREATE OR REPLACE FUNCTION app_private.utc_today()
 RETURNS date
 LANGUAGE sql
 STABLE
AS $function$ select (now() at time zone 'UTC')::date $function$;

CREATE OR REPLACE FUNCTION app_public.add_chat_message(p_user_id bigint, p_project_id bigint, p_role text, p_content text)
 RETURNS app_public.chat_messages
 LANGUAGE plpgsql
AS $function$
/* why: the assistant's conversation is kept per project, written by the roles that may use AI */
declare
  v_message app_public.chat_messages;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'ai.use');
  insert into app_public.chat_messages (project_id, user_id, role, content)
  values (p_project_id, p_user_id, p_role, p_content)
  returning * into v_message;
  return v_message;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.ai_project(p_user_id bigint, p_project_id bigint)
 RETURNS app_public.projects
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the project whose voice an AI call writes in, for the roles that may use AI: asked
   before the call is counted or its tokens reserved, so a viewer spends no one's budget */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'ai.use');
  return (select p from app_public.projects p where p.id = p_project_id);
end;
$function$;

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

CREATE OR REPLACE FUNCTION app_public.chat_history(p_user_id bigint, p_project_id bigint, p_page integer, p_limit integer)
 RETURNS TABLE(id bigint, role text, content text, created_at timestamp with time zone, has_more boolean)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: history pages backwards from the newest: page 1 is the latest p_limit messages */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  return query
    with page as (
      select m.id, m.role, m.content, m.created_at from app_public.chat_messages m
      where m.project_id = p_project_id
      order by m.created_at desc, m.id desc
      offset (greatest(p_page, 1) - 1) * p_limit limit p_limit + 1
    )
    select page.id, page.role, page.content, page.created_at, (select count(*) from page) > p_limit
    from page order by page.created_at desc, page.id desc limit p_limit;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_generation_job(p_user_id bigint, p_project_id bigint, p_draft_ids bigint[], p_post_length integer)
 RETURNS app_public.generation_jobs
 LANGUAGE plpgsql
AS $function$
/*
 * why: "generate content" for 1 to drafts_per_generation_max selected drafts of the
 * project: a job row the client polls, and the worker job that fills the drafts, queued in
 * the same transaction. While another job of the project is running it is refused (GJRUN,
 * the detail is that job's id); a job silent for 15 minutes (its worker lost it for good)
 * no longer counts.
 */
declare
  v_ids bigint[];
  v_job app_public.generation_jobs;
  v_running bigint;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'ai.use');
  perform pg_advisory_xact_lock(hashtextextended('generation_job:' || p_project_id, 0));
  select id into v_running from app_public.generation_jobs
  where project_id = p_project_id and status in ('pending', 'processing') and updated_at > now() - interval '15 minutes'
  order by id desc limit 1;
  if v_running is not null then
    raise exception 'Content is already being generated for this project; wait for that job to finish'
      using errcode = 'GJRUN', hint = 'drafts.generationRunning', detail = v_running::text;
  end if;
  select coalesce(array_agg(distinct id), '{}') into v_ids from unnest(p_draft_ids) as id;
  if cardinality(v_ids) = 0 then
    raise exception 'drafts.noSelectedDrafts' using errcode = 'INVAL', hint = 'drafts.noSelectedDrafts';
  end if;
  if cardinality(v_ids) > app_private.drafts_per_generation_max() then
    raise exception 'drafts.tooManyDraftsSelected' using errcode = 'INVAL', hint = 'drafts.tooManyDraftsSelected';
  end if;
  if (select count(*) from app_public.drafts where project_id = p_project_id and id = any(v_ids)) <> cardinality(v_ids) then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  -- keep the user's order of the list
  select array_agg(id order by sort_order, created_at, id) into v_ids
  from app_public.drafts where id = any(v_ids);
  insert into app_public.generation_jobs (project_id, type, data, result)
  values (p_project_id, 'generate_content',
          jsonb_build_object('draftIds', to_jsonb(v_ids), 'postLength', p_post_length),
          jsonb_build_object('progress', jsonb_build_object('completed', 0, 'total', cardinality(v_ids)),
                             'drafts', '{}'::jsonb))
  returning * into v_job;
  -- in the account's AI queue: its jobs run one at a time, beside other accounts' jobs
  perform graphile_worker.add_job('drafts__generate_content', json_build_object('jobId', v_job.id),
    queue_name := app_private.ai_queue(p_user_id), max_attempts := 3);
  return v_job;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.fail_generation_job(p_job_id bigint, p_error text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the job cannot go on at all (e.g. AI not configured): it fails with the reason's error code */
  update app_public.generation_jobs set status = 'failed', error = p_error
  where id = p_job_id and status in ('pending', 'processing')
$function$;

CREATE OR REPLACE FUNCTION app_public.finish_generation_job(p_job_id bigint)
 RETURNS app_public.generation_jobs
 LANGUAGE plpgsql
AS $function$
/*
 * why: a job is completed when at least one draft got its content (the drafts that failed
 * are listed in result.failed), and failed only when every draft failed.
 */
declare
  v_job app_public.generation_jobs;
  v_failed jsonb;
  v_done int;
begin
  select * into v_job from app_public.generation_jobs where id = p_job_id and status = 'processing' for update;
  if not found then
    return null;
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('draftId', key::bigint, 'error', value ->> 'error'))
                    filter (where jsonb_typeof(value) = 'object'), '[]'),
         count(*) filter (where value = '"done"')
  into v_failed, v_done
  from jsonb_each(v_job.result -> 'drafts');
  update app_public.generation_jobs set
    status = case when v_done > 0 then 'completed' else 'failed' end,
    result = result || jsonb_build_object('failed', v_failed),
    error = case when v_done > 0 then null else coalesce(v_failed -> 0 ->> 'error', 'ai.failed') end
  where id = p_job_id
  returning * into v_job;
  return v_job;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.get_generation_job(p_user_id bigint, p_project_id bigint, p_job_id bigint)
 RETURNS app_public.generation_jobs
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the client polls its job; a job of another project is "not found" */
declare
  v_job app_public.generation_jobs;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  select j.* into v_job from app_public.generation_jobs j
  where j.id = p_job_id and j.project_id = p_project_id;
  if not found then
    raise exception 'Job not found' using errcode = 'NTFND', hint = 'jobs.notFound';
  end if;
  return v_job;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_ai_tokens(p_user_id bigint, p_tokens bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /*
   * why: the tokens a provider call cost (as the provider reported them) count against the
   * account's day and the service's day (kept apart, so deleting an account gives nothing back)
   */
  insert into app_private.ai_tokens (user_id, day, tokens)
  values (p_user_id, app_private.utc_today(), greatest(p_tokens, 0))
  on conflict (user_id, day) do update set tokens = app_private.ai_tokens.tokens + excluded.tokens;
  insert into app_private.ai_tokens_total (day, tokens)
  values (app_private.utc_today(), greatest(p_tokens, 0))
  on conflict (day) do update set tokens = app_private.ai_tokens_total.tokens + excluded.tokens;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_draft_generation(p_job_id bigint, p_draft_id bigint, p_content text, p_error text, p_entities jsonb DEFAULT '[]'::jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: one draft done (its content written) or failed (p_error: its error code), and the job's progress, in one step */
declare
  v_job app_public.generation_jobs;
begin
  select * into v_job from app_public.generation_jobs where id = p_job_id and status = 'processing' for update;
  if not found or v_job.result -> 'drafts' ? p_draft_id::text then
    return;
  end if;
  if p_error is null then
    update app_public.drafts set content = p_content, entities = coalesce(p_entities, '[]')
    where id = p_draft_id and project_id = v_job.project_id;
  end if;
  update app_public.generation_jobs set result = jsonb_set(
      jsonb_set(result, array['drafts', p_draft_id::text],
        case when p_error is null then '"done"'::jsonb else jsonb_build_object('error', p_error) end),
      '{progress,completed}', to_jsonb(coalesce((result #>> '{progress,completed}')::int, 0) + 1))
  where id = p_job_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.settle_ai_call(p_reservation_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a call that ended (its tokens recorded, or it failed) holds back no more of the day */
  delete from app_private.ai_reservations where id = p_reservation_id
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

CREATE OR REPLACE FUNCTION app_public.start_generation_job(p_job_id bigint)
 RETURNS TABLE(draft_id bigint, title text, post_length integer, project_id bigint)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the worker's start (or restart) of a job: it becomes processing and answers the
 * drafts still to do, so a restarted job never regenerates a finished draft.
 */
declare
  v_job app_public.generation_jobs;
begin
  update app_public.generation_jobs set status = 'processing'
  where id = p_job_id and status in ('pending', 'processing')
  returning * into v_job;
  if not found then
    return;
  end if;
  return query
    select d.id, d.title,
      coalesce((v_job.data ->> 'postLength')::int, app_private.generated_post_length_default()), v_job.project_id
    from jsonb_array_elements_text(v_job.data -> 'draftIds') with ordinality as ids(id, n)
    join app_public.drafts d on d.id = ids.id::bigint
    where not (v_job.result -> 'drafts' ? ids.id)
    order by ids.n;
end;
$function$;
