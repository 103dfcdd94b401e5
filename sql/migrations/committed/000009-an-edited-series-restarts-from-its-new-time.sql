--! Previous: sha1:d9320124932b872ceb952ddc8ba1b7ed5325e278
--! Hash: sha1:a6e84a09e8f92ed363db1f90524fc0e1413cc539
--! Message: an edited series restarts from its new time

create or replace function app_public.update_post(
  p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamptz,
  p_recurring_type text, p_title text, p_content text
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: editing moves the post's jobs. A published post cannot be edited; one being sent
 * cannot either. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again).
 */
declare
  v_post app_public.posts;
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND';
  end if;
  if v_post.status = 'published' then
    raise exception 'cannot edit published' using errcode = 'EDPUB';
  end if;
  if v_post.status in ('sending', 'uncertain') then
    raise exception 'The post is being published right now and cannot be edited' using errcode = 'EDPUB';
  end if;
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT';
  end if;
  if v_recurring <> v_post.is_recurring then
    raise exception 'A one-time post cannot become recurring or the other way round; delete it and schedule anew'
      using errcode = 'INVAL';
  end if;
  if not v_recurring then
    if p_draft_id is null then
      raise exception 'schedule.selectDraft' using errcode = 'INVAL';
    end if;
    select * into v_draft from app_public.drafts where id = p_draft_id and project_id = p_project_id;
    if not found then
      raise exception 'Draft not found' using errcode = 'NTFND';
    end if;
    if exists (select 1 from app_public.posts where draft_id = p_draft_id and id <> p_post_id
               and status not in ('rejected', 'failed')) then
      raise exception 'schedule.draftAlreadyScheduled' using errcode = 'INVAL';
    end if;
  end if;
  perform app_private.retract_approval(v_post, 'edited');
  perform app_private.unqueue_post_jobs(v_post.id);
  update app_public.posts set
    draft_id = case when v_recurring then null else v_draft.id end,
    title = case when v_recurring then coalesce(p_title, title) else v_draft.title end,
    content = case when v_recurring then coalesce(p_content, content) else v_draft.content end,
    image_url = case when v_recurring then null else v_draft.image_url end,
    scheduled_for = p_scheduled_for,
    recurring_type = coalesce(p_recurring_type, 'none'),
    status = 'draft',
    recurring_last_post = case when v_recurring then null else recurring_last_post end,
    approval_message_ids = '{}',
    last_error = null
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', v_post.id),
      run_at := greatest(now(), app_private.series_next_time(v_post) - app_private.approval_lead()),
      job_key := app_private.post_job_key(v_post.id, 'spawn'));
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
$$;
