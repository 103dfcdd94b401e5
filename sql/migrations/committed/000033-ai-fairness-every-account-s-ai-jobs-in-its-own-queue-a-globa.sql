--! Previous: sha1:f426f26308eeaed20f8f32ad6ea6294ff437d858
--! Hash: sha1:24ed9a020db82fed09d78adf4917c050a2d003ab
--! Message: AI fairness: every account's AI jobs in its own queue; a global daily token cap

--! split: 5-ai-fairness.sql
-- AI fairness: the service's AI tokens of a UTC day, every account together, kept apart from
-- the per-account rows (app_private.ai_tokens) so that deleting an account gives nothing back.
create table if not exists app_private.ai_tokens_total (
  day date primary key,
  tokens bigint not null default 0 check (tokens >= 0)
);
-- today's use so far counts from the start
insert into app_private.ai_tokens_total (day, tokens)
select day, sum(tokens) from app_private.ai_tokens group by day
on conflict (day) do nothing;

-- begin_ai_call takes the service's cap too; ai_budget_spent became spent_ai_budget (which budget)
drop function if exists app_public.begin_ai_call(bigint, integer, bigint);
drop function if exists app_public.ai_budget_spent(bigint, bigint);

--! split: 6-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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

CREATE OR REPLACE FUNCTION app_private.seconds_to_next_utc_day()
 RETURNS integer
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a spent day of AI tokens renews at midnight UTC; this is the Retry-After until then */
  select greatest(1, ceil(extract(epoch from (app_private.utc_today() + 1)::timestamp at time zone 'UTC' - now())))::int
$function$;

CREATE OR REPLACE FUNCTION app_public.begin_ai_call(p_user_id bigint, p_calls_per_minute integer, p_daily_tokens bigint, p_total_daily_tokens bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: every AI request of an account (titles, posts, chat, a content-generation job)
 * counts one call here before the provider is asked. Once the account's tokens of the UTC
 * day are spent, or every account's together (spent_ai_budget), or over the account's calls
 * in the last minute, it is refused (AILIM; the hint is the API's code, the detail the
 * seconds to wait). One account's calls never count against another's per-account limits.
 * Calls of one account are counted one at a time, so concurrent requests cannot slip past
 * the limit together.
 */
declare
  v_spent text;
  v_calls int;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('ai_calls:' || p_user_id, 0));
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
  perform app_public.get_project(p_user_id, p_project_id);
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
   * Calls already running may pass a budget by their own tokens; none starts after.
   */
  select case
    when p_daily_tokens is not null and coalesce((
      select tokens from app_private.ai_tokens where user_id = p_user_id and day = app_private.utc_today()), 0) >= p_daily_tokens
      then 'ai.dailyBudgetSpent'
    when p_total_daily_tokens is not null and coalesce((
      select tokens from app_private.ai_tokens_total where day = app_private.utc_today()), 0) >= p_total_daily_tokens
      then 'ai.globalDailyLimit'
  end
$function$;

CREATE OR REPLACE FUNCTION app_public.autopilot_fill(p_project_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS SETOF app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: every active slot time of the project in the next 7 days gets one post, taken in time
 * order from the top unused draft of the queue (the drafts a series would take). A slot time
 * is filled once (plan_fills): the project row is locked so two runs wait for each other, and
 * the key refuses a second fill anyway. A slot time with no draft left stays empty until a
 * later run finds one. A draft with text goes to approval like any post; one without text
 * first gets AI text of the slot's length (posts__autopilot_content), which then asks for
 * approval. A queue left running dry within queue_low_days_max tells the owner (at most a
 * mail a day). p_now is the clock (tests drive days and DST nights through it).
 */
declare
  v_slot record;
  v_draft app_public.drafts;
  v_post app_public.posts;
begin
  perform 1 from app_public.projects where id = p_project_id for update;
  if not found or app_private.project_channel(p_project_id) is null then
    return;
  end if;
  for v_slot in
    select c.id as plan_id, c.post_length, t.at
    from app_public.content_plans c
    cross join lateral app_private.plan_slot_times(c, greatest(p_now, now()), p_now + app_private.autopilot_horizon()) t(at)
    where c.project_id = p_project_id and c.active
      and not exists (select 1 from app_private.plan_fills f where f.plan_id = c.id and f.slot_at = t.at)
    order by t.at, c.id
  loop
    select * into v_draft from app_public.available_series_drafts(p_project_id) limit 1;
    exit when not found;
    insert into app_public.posts (project_id, draft_id, plan_id, title, content, entities, image_url, image_urls, options, scheduled_for, awaiting_text)
    values (p_project_id, v_draft.id, v_slot.plan_id, v_draft.title, v_draft.content, v_draft.entities,
            v_draft.image_url, v_draft.image_urls, v_draft.options, v_slot.at, btrim(v_draft.content) = '')
    returning * into v_post;
    insert into app_private.plan_fills (plan_id, slot_at, post_id) values (v_slot.plan_id, v_slot.at, v_post.id);
    if v_post.awaiting_text then
      -- one account's AI work runs one job at a time (its own named queue, shared with its
      -- drafts' generation), so a plan of 50 empty slots holds one of the worker's AI slots
      perform graphile_worker.add_job('posts__autopilot_content',
        json_build_object('postId', v_post.id, 'postLength', v_slot.post_length),
        queue_name := app_private.ai_queue((select user_id from app_public.projects where id = p_project_id)),
        job_key := app_private.post_job_key(v_post.id, 'content'), max_attempts := 5);
    else
      perform app_private.queue_approval(v_post);
    end if;
    return next v_post;
  end loop;
  if (select f.low from app_private.queue_forecast(p_project_id, p_now) f) then
    perform app_private.notify_owner(p_project_id, 'queueLow', null);
  end if;
end;
$function$;
