--! Previous: sha1:1f1cc95bc1db3f259391592f283babe52641fb96
--! Hash: sha1:ff0230f7103688c557c0ab48157bc60749ae280f
--! Message: AI: content-generation jobs and the assistant chat

create or replace function app_public.create_generation_job(
  p_user_id bigint, p_project_id bigint, p_draft_ids bigint[], p_post_length int
) returns app_public.generation_jobs
language plpgsql volatile as $$
/*
 * why: "generate content" for 1–30 selected drafts of the project: a job row the client
 * polls, and the worker job that fills the drafts, queued in the same transaction.
 */
declare
  v_ids bigint[];
  v_job app_public.generation_jobs;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select coalesce(array_agg(distinct id), '{}') into v_ids from unnest(p_draft_ids) as id;
  if cardinality(v_ids) = 0 then
    raise exception 'drafts.noSelectedDrafts' using errcode = 'INVAL';
  end if;
  if cardinality(v_ids) > 30 then
    raise exception 'drafts.tooManyDraftsSelected' using errcode = 'INVAL';
  end if;
  if (select count(*) from app_public.drafts where project_id = p_project_id and id = any(v_ids)) <> cardinality(v_ids) then
    raise exception 'Draft not found' using errcode = 'NTFND';
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
  perform graphile_worker.add_job('drafts__generate_content', json_build_object('jobId', v_job.id),
    job_key := 'generation:' || v_job.id, max_attempts := 5);
  return v_job;
end;
$$;

create or replace function app_public.get_generation_job(p_user_id bigint, p_project_id bigint, p_job_id bigint)
returns app_public.generation_jobs
language plpgsql stable as $$
/* why: the client polls its job; another user's job is "not found" */
declare
  v_job app_public.generation_jobs;
begin
  select j.* into v_job from app_public.generation_jobs j
  join app_public.projects p on p.id = j.project_id and p.user_id = p_user_id
  where j.id = p_job_id and j.project_id = p_project_id;
  if not found then
    raise exception 'Job not found' using errcode = 'NTFND';
  end if;
  return v_job;
end;
$$;

create or replace function app_public.start_generation_job(p_job_id bigint)
returns table (draft_id bigint, title text, post_length int, project_id bigint)
language plpgsql volatile as $$
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
    select d.id, d.title, coalesce((v_job.data ->> 'postLength')::int, 1500), v_job.project_id
    from jsonb_array_elements_text(v_job.data -> 'draftIds') with ordinality as ids(id, n)
    join app_public.drafts d on d.id = ids.id::bigint
    where not (v_job.result -> 'drafts' ? ids.id)
    order by ids.n;
end;
$$;

create or replace function app_public.record_draft_generation(
  p_job_id bigint, p_draft_id bigint, p_content text, p_error text
) returns void
language plpgsql volatile as $$
/* why: one draft done (its content written) or failed, and the job's progress, in one step */
declare
  v_job app_public.generation_jobs;
begin
  select * into v_job from app_public.generation_jobs where id = p_job_id and status = 'processing' for update;
  if not found or v_job.result -> 'drafts' ? p_draft_id::text then
    return;
  end if;
  if p_error is null then
    update app_public.drafts set content = p_content where id = p_draft_id and project_id = v_job.project_id;
  end if;
  update app_public.generation_jobs set result = jsonb_set(
      jsonb_set(result, array['drafts', p_draft_id::text],
        case when p_error is null then '"done"'::jsonb else jsonb_build_object('error', p_error) end),
      '{progress,completed}', to_jsonb(coalesce((result #>> '{progress,completed}')::int, 0) + 1))
  where id = p_job_id;
end;
$$;

create or replace function app_public.finish_generation_job(p_job_id bigint) returns app_public.generation_jobs
language plpgsql volatile as $$
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
    error = case when v_done > 0 then null else coalesce(v_failed -> 0 ->> 'error', 'No draft could be generated') end
  where id = p_job_id
  returning * into v_job;
  return v_job;
end;
$$;

create or replace function app_public.fail_generation_job(p_job_id bigint, p_error text) returns void
language sql volatile as $$
  /* why: the job cannot go on at all (e.g. AI not configured): it fails with the reason */
  update app_public.generation_jobs set status = 'failed', error = p_error
  where id = p_job_id and status in ('pending', 'processing')
$$;

------------------------------------------------------------------------------------------
-- Assistant chat
------------------------------------------------------------------------------------------
create or replace function app_public.add_chat_message(p_user_id bigint, p_project_id bigint, p_role text, p_content text)
returns app_public.chat_messages
language plpgsql volatile as $$
/* why: the assistant's conversation is kept per project */
declare
  v_message app_public.chat_messages;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  insert into app_public.chat_messages (project_id, user_id, role, content)
  values (p_project_id, p_user_id, p_role, p_content)
  returning * into v_message;
  return v_message;
end;
$$;

create or replace function app_public.chat_history(p_user_id bigint, p_project_id bigint, p_page int, p_limit int)
returns table (id bigint, role text, content text, created_at timestamptz, has_more boolean)
language plpgsql stable as $$
/* why: history pages backwards from the newest: page 1 is the latest p_limit messages */
begin
  perform app_public.get_project(p_user_id, p_project_id);
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
$$;
