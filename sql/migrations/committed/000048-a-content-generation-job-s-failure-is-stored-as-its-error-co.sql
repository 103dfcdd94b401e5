--! Previous: sha1:755f54b6d3ec34f45442b669402352eab76536a2
--! Hash: sha1:929135e3ae2afeaade7743c0d12d8fb7ee3bc2c2
--! Message: A content-generation job's failure is stored as its error code; the SPA words it, the API answers its English

--! split: 4-generation-job-errors-as-codes.sql
-- A content-generation job's failure is stored as its error code (the API words it in English
-- for its clients, the SPA in its own language); it was stored as the English message, which
-- the SPA had to match back against every template. Jobs stored so are mapped to their code
-- where the message is one of the AI's; anything else reads as a failed AI call.
drop table if exists pg_temp.generation_error_codes;
create temporary table generation_error_codes (message text primary key, code text not null);
insert into generation_error_codes values
  ('AI is not configured on this server: set OPENAI_API_KEY (and OPENAI_BASE_URL / OPENAI_MODEL for another OpenAI-compatible server such as Ollama or vLLM), then restart.', 'ai.notConfigured'),
  ('Too many AI requests from this account. Please wait a minute and try again.', 'ai.rateLimited'),
  ('The daily AI budget of this account is spent. It renews at midnight UTC.', 'ai.dailyBudgetSpent'),
  ('The AI has reached this service''s daily limit for all accounts. It renews at midnight UTC.', 'ai.globalDailyLimit'),
  ('The request was cancelled.', 'ai.aborted'),
  ('The AI took too long to answer. Please try again.', 'ai.timeout'),
  ('The AI server cannot be reached right now. Please try again later.', 'ai.unreachable'),
  ('The AI server refused our API key: check OPENAI_API_KEY.', 'ai.unauthorized'),
  ('The AI server does not know the model set in OPENAI_MODEL.', 'ai.modelNotFound'),
  ('The AI provider is busy (rate limit reached). Please try again in a minute.', 'ai.providerBusy'),
  ('The AI provider had an error. Please try again.', 'ai.unavailable'),
  ('The AI provider refused the request. Please try again.', 'ai.badRequest'),
  ('The AI request failed. Please try again.', 'ai.failed'),
  ('The AI returned an empty answer. Please try again.', 'ai.emptyAnswer'),
  ('The AI returned no title. Please try again.', 'ai.noTitle'),
  ('The AI suggested too few titles. Please try again.', 'ai.tooFewTitles'),
  ('postLength must be a number', 'ai.postLengthInvalid'),
  ('count must be a number', 'ai.titleCountInvalid'),
  ('No draft could be generated', 'ai.failed');
update app_public.generation_jobs j set error = coalesce(
    (select m.code from generation_error_codes m where m.message = j.error),
    case when j.error ~ '^ai\.[A-Za-z]+$' then j.error else 'ai.failed' end)
where j.error is not null;
update app_public.generation_jobs j set result = jsonb_set(j.result, '{failed}', (
    select coalesce(jsonb_agg(jsonb_set(f, '{error}', to_jsonb(coalesce(
      (select m.code from generation_error_codes m where m.message = f ->> 'error'),
      case when f ->> 'error' ~ '^ai\.[A-Za-z]+$' then f ->> 'error' else 'ai.failed' end)))), '[]'::jsonb)
    from jsonb_array_elements(j.result -> 'failed') f))
where jsonb_typeof(j.result -> 'failed') = 'array';
drop table pg_temp.generation_error_codes;

--! split: 5-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
