--! Previous: sha1:296635ed589b6d2d9e71150d0c33e1d841386882
--! Hash: sha1:1f1cc95bc1db3f259391592f283babe52641fb96
--! Message: posts: scheduling, approval in Telegram, publishing never twice, recurring series

/*
 * Post lifecycle (issue: scheduling, approval and publishing):
 *   draft ──(Publish, or 2 h before scheduled_for)──▶ scheduled (preview sent to the admin)
 *   scheduled ──Approve──▶ approved ──(scheduled_for)──▶ sending ──▶ published
 *   scheduled ──Reject──▶ rejected
 *   sending ──(definite refusal by Telegram)──▶ failed
 *   sending ──(timeout, lost answer, worker died)──▶ uncertain ──(admin decides)──▶ published | approved
 * Every change is a guarded update (… where status = …), so a stale or duplicated job
 * changes nothing. A recurring series is a post row with is_recurring; each occurrence is
 * its own post (series_id) that goes through the same approval.
 */
alter table app_public.posts drop constraint if exists posts_status_check;
alter table app_public.posts add constraint posts_status_check
  check (status in ('draft', 'scheduled', 'approved', 'sending', 'published', 'rejected', 'failed', 'uncertain'));
alter table app_public.posts add column if not exists series_id bigint references app_public.posts on delete set null;
alter table app_public.posts add column if not exists channel_message_ids jsonb not null default '[]'
  check (jsonb_typeof(channel_message_ids) = 'array');
alter table app_public.posts add column if not exists last_error text;
alter table app_public.posts add column if not exists sending_worker_id text;
alter table app_public.posts add column if not exists sending_started_at timestamptz;
alter table app_public.posts add column if not exists published_at timestamptz;
create index if not exists posts_series_idx on app_public.posts (series_id) where series_id is not null;
create index if not exists posts_sending_idx on app_public.posts (sending_started_at) where status = 'sending';
create index if not exists posts_project_published_idx on app_public.posts (project_id, published_at desc)
  where status = 'published';

/* Liveness of worker processes (graphile-worker ids), so jobs and sends of a dead worker are recovered. */
create table if not exists app_private.worker_heartbeats (
  worker_id text primary key,
  seen_at timestamptz not null default now()
);

create or replace function app_private.post_job_key(p_post_id bigint, p_kind text) returns text
language sql immutable as $$ select 'post:' || p_post_id || ':' || p_kind $$;

create or replace function app_private.approval_lead() returns interval
language sql immutable as $$ select interval '2 hours' $$;

/* The next occurrence after p_from, stepping in the project's wall-clock time (DST-safe). */
create or replace function app_private.next_occurrence(p_from timestamptz, p_type text, p_timezone text)
returns timestamptz
language sql immutable as $$
  select ((p_from at time zone p_timezone)
          + case p_type when 'daily' then interval '1 day' when 'weekly' then interval '7 days' end)
         at time zone p_timezone
$$;

/*
 * Rotation: the drafts a recurring series may use, in order: not published and not
 * planned in another live post (a rejected or failed post gives its draft back).
 */
create or replace function app_public.available_series_drafts(p_project_id bigint) returns setof app_public.drafts
language sql stable as $$
  select d.* from app_public.drafts d
  where d.project_id = p_project_id
    and not exists (
      select 1 from app_public.posts p
      where p.draft_id = d.id and p.status not in ('rejected', 'failed')
    )
  order by d.sort_order, d.created_at, d.id
$$;

create or replace function app_private.project_channel(p_project_id bigint)
returns app_public.channels
language sql stable as $$
  select * from app_public.channels where project_id = p_project_id and status = 'connected' limit 1
$$;

create or replace function app_private.queue_approval(p_post app_public.posts) returns void
language plpgsql volatile as $$
/* why: the approval request goes out 2 hours before the post's time, or at once if that is sooner */
begin
  perform graphile_worker.add_job(
    'posts__send_approval', json_build_object('postId', p_post.id),
    run_at := greatest(now(), p_post.scheduled_for - app_private.approval_lead()),
    job_key := app_private.post_job_key(p_post.id, 'approval'),
    max_attempts := 10
  );
end;
$$;

create or replace function app_private.unqueue_post_jobs(p_post_id bigint) returns void
language plpgsql volatile as $$
/* why: moving or deleting a post must not leave a job behind to act on it */
begin
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'approval'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'publish'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'spawn'));
end;
$$;

create or replace function app_private.retract_approval(p_post app_public.posts, p_reason text) returns void
language plpgsql volatile as $$
/* why: an approval message that no longer applies is edited to say so (its buttons then do nothing) */
begin
  if p_post.approval_message_ids ? 'chatId' then
    perform graphile_worker.add_job('posts__retract_approval', json_build_object(
      'chatId', p_post.approval_message_ids -> 'chatId',
      'messageId', p_post.approval_message_ids -> 'buttonsMessageId',
      'reason', p_reason,
      'language', (select language from app_public.projects where id = p_post.project_id)));
  end if;
end;
$$;

create or replace function app_private.notify_admin(p_post_id bigint, p_kind text) returns void
language plpgsql volatile as $$
/* why: the channel admin hears about failed and uncertain publications in Telegram */
begin
  perform graphile_worker.add_job('posts__notify_admin', json_build_object('postId', p_post_id, 'kind', p_kind),
    max_attempts := 10);
end;
$$;

------------------------------------------------------------------------------------------
-- Calls of the API
------------------------------------------------------------------------------------------
create or replace function app_public.project_posts(p_user_id bigint, p_project_id bigint)
returns setof app_public.posts
language sql stable as $$
  /* why: the calendar's posts (series and occurrences included); ownership in the join */
  select po.* from app_public.posts po
  join app_public.projects p on p.id = po.project_id and p.user_id = p_user_id
  where po.project_id = p_project_id
  order by po.scheduled_for, po.id
$$;

create or replace function app_public.published_posts(p_user_id bigint, p_project_id bigint)
returns setof app_public.posts
language sql stable as $$
  /* why: the Published page, newest first */
  select po.* from app_public.posts po
  join app_public.projects p on p.id = po.project_id and p.user_id = p_user_id
  where po.project_id = p_project_id and po.status = 'published'
  order by po.published_at desc nulls last, po.id desc
$$;

create or replace function app_public.schedule_post(
  p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamptz,
  p_recurring_type text, p_title text, p_content text
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content and image it copies. Recurring: a series with placeholder text whose occurrences
 * take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute).
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before scheduling posts' using errcode = 'NOCHN';
  end if;
  if v_recurring then
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL';
    end if;
    insert into app_public.posts (project_id, title, content, scheduled_for, is_recurring, recurring_type)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), p_scheduled_for, true, p_recurring_type)
    returning * into v_post;
    perform graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', v_post.id),
      run_at := greatest(now(), p_scheduled_for - app_private.approval_lead()),
      job_key := app_private.post_job_key(v_post.id, 'spawn'));
    return v_post;
  end if;
  if p_draft_id is null then
    raise exception 'schedule.selectDraft' using errcode = 'INVAL';
  end if;
  select * into v_draft from app_public.drafts where id = p_draft_id and project_id = p_project_id;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND';
  end if;
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and status not in ('rejected', 'failed')) then
    raise exception 'schedule.draftAlreadyScheduled' using errcode = 'INVAL';
  end if;
  insert into app_public.posts (project_id, draft_id, title, content, image_url, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.image_url, p_scheduled_for)
  returning * into v_post;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$$;

create or replace function app_public.update_post(
  p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamptz,
  p_recurring_type text, p_title text, p_content text
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: editing moves the post's jobs. A published post cannot be edited; one being sent
 * cannot either. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again.
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
    status = case when v_recurring then status else 'draft' end,
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

create or replace function app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
returns app_public.posts
language plpgsql volatile as $$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's 4096 characters is refused here, naming the length and the maximum.
 */
declare
  v_post app_public.posts;
  v_length int;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND';
  end if;
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL';
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL';
  end if;
  v_length := length(v_post.content);
  if v_length > 4096 then
    raise exception 'schedule.captionTooLong: %/%', v_length, 4096 using errcode = 'CLONG';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN';
  end if;
  update app_public.posts set status = 'scheduled', last_error = null where id = p_post_id returning * into v_post;
  perform graphile_worker.add_job('posts__send_approval', json_build_object('postId', v_post.id),
    job_key := app_private.post_job_key(v_post.id, 'approval'), max_attempts := 10);
  return v_post;
end;
$$;

create or replace function app_public.delete_post(
  p_user_id bigint, p_project_id bigint, p_post_id bigint, p_delete_series boolean
) returns setof app_public.posts
language plpgsql volatile as $$
/*
 * why: deletes a post (or, for a series or one of its occurrences with p_delete_series,
 * the series and its unpublished occurrences) and every job that would act on it. Answers
 * the deleted rows so the caller can remove their channel messages. A post being sent
 * right now cannot be deleted.
 */
declare
  v_post app_public.posts;
  v_series_id bigint;
  v_row app_public.posts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND';
  end if;
  v_series_id := case when v_post.is_recurring then v_post.id else v_post.series_id end;
  for v_row in
    select * from app_public.posts
    where project_id = p_project_id
      and (id = p_post_id
           or (p_delete_series and v_series_id is not null
               and (id = v_series_id or (series_id = v_series_id and status <> 'published'))))
    for update
  loop
    if v_row.status = 'sending' then
      raise exception 'The post is being published right now; try again in a moment' using errcode = 'EDPUB';
    end if;
    perform app_private.retract_approval(v_row, 'deleted');
    perform app_private.unqueue_post_jobs(v_row.id);
    delete from app_public.posts where id = v_row.id;
    return next v_row;
  end loop;
end;
$$;

------------------------------------------------------------------------------------------
-- Calls of the worker and the bot
------------------------------------------------------------------------------------------
create or replace function app_private.series_next_time(p_series app_public.posts) returns timestamptz
language sql stable as $$
  select case when p_series.recurring_last_post is null then p_series.scheduled_for
    else app_private.next_occurrence(p_series.recurring_last_post, p_series.recurring_type,
      (select timezone from app_public.projects where id = p_series.project_id)) end
$$;

create or replace function app_public.spawn_series_occurrence(p_series_id bigint, p_now timestamptz default now())
returns app_public.posts
language plpgsql volatile as $$
/*
 * why: the rotation. The series' next occurrence becomes its own post taking the next
 * available draft by order; the series advances (recurring_last_post) and the next spawn
 * is queued. With no draft left the series stops and says why (last_error). p_now is
 * the clock (tests drive days through it).
 */
declare
  v_series app_public.posts;
  v_draft app_public.drafts;
  v_at timestamptz;
  v_occurrence app_public.posts;
begin
  select * into v_series from app_public.posts where id = p_series_id and is_recurring and status = 'draft' for update;
  if not found then
    return null;
  end if;
  v_at := app_private.series_next_time(v_series);
  if v_at - app_private.approval_lead() > p_now + interval '1 minute' then
    -- too early (a stale job): wait for the right time
    perform graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', v_series.id),
      run_at := v_at - app_private.approval_lead(), job_key := app_private.post_job_key(v_series.id, 'spawn'));
    return null;
  end if;
  select * into v_draft from app_public.available_series_drafts(v_series.project_id) limit 1;
  if not found then
    update app_public.posts set status = 'failed', last_error = 'schedule.seriesOutOfDrafts' where id = v_series.id;
    return null;
  end if;
  insert into app_public.posts (project_id, draft_id, series_id, title, content, image_url, scheduled_for)
  values (v_series.project_id, v_draft.id, v_series.id, v_draft.title, v_draft.content, v_draft.image_url, v_at)
  returning * into v_occurrence;
  update app_public.posts set recurring_last_post = v_at where id = v_series.id returning * into v_series;
  perform app_private.queue_approval(v_occurrence);
  perform graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', v_series.id),
    run_at := greatest(p_now, app_private.series_next_time(v_series) - app_private.approval_lead()),
    job_key := app_private.post_job_key(v_series.id, 'spawn'));
  return v_occurrence;
end;
$$;

/* What the worker needs to send a post: the post, its channel and the admin's chat. */
drop type if exists app_public.post_delivery cascade;
create type app_public.post_delivery as (
  post_id bigint, status text, title text, content text, image_url text, scheduled_for timestamptz,
  channel_chat_id bigint, channel_link text, admin_chat_id bigint, approval_message_ids jsonb,
  channel_message_ids jsonb, last_error text, project_language text, project_timezone text
);

create or replace function app_private.delivery(p_post app_public.posts) returns app_public.post_delivery
language sql stable as $$
  select p_post.id, p_post.status, p_post.title, p_post.content, p_post.image_url, p_post.scheduled_for,
         (c.config ->> 'chatId')::bigint, c.link,
         coalesce((select a.chat_id from app_public.admin_chat_ids a join app_public.projects pr
                   on a.admin_handle = lower(pr.admin_handle) where pr.id = p_post.project_id),
                  (c.config ->> 'adminChatId')::bigint),
         p_post.approval_message_ids, p_post.channel_message_ids, p_post.last_error, pr.language, pr.timezone
  from app_public.projects pr
  left join app_public.channels c on c.project_id = pr.id and c.status = 'connected'
  where pr.id = p_post.project_id
$$;

create or replace function app_public.post_for_approval(p_post_id bigint) returns app_public.post_delivery
language plpgsql volatile as $$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, or the post moved on). Content over 4096 characters fails the
 * post with the reason instead of sending.
 */
declare
  v_post app_public.posts;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_message_ids ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > 4096 then
    update app_public.posts set status = 'failed',
      last_error = format('schedule.captionTooLong: %s/%s', length(v_post.content), 4096)
    where id = p_post_id;
    return null;
  end if;
  update app_public.posts set status = 'scheduled' where id = p_post_id returning * into v_post;
  return app_private.delivery(v_post);
end;
$$;

create or replace function app_public.record_approval_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
returns boolean
language sql volatile as $$
  /* why: remembers which message carries the buttons, so only that message can decide */
  update app_public.posts set approval_message_ids = jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)])
  where id = p_post_id and status = 'scheduled' and not (approval_message_ids ? 'chatId')
  returning true
$$;

create or replace function app_public.record_approval_failed(p_post_id bigint, p_reason text) returns void
language sql volatile as $$
  /* why: the admin could not be reached (blocked the bot, no chat): the post returns to draft with the reason */
  update app_public.posts set status = 'draft', last_error = p_reason
  where id = p_post_id and status = 'scheduled' and not (approval_message_ids ? 'chatId')
$$;

create or replace function app_public.decide_post(
  p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: an admin's press on Approve or Reject. Only the current approval message of a post
 * still waiting counts, once; anything else answers null and changes nothing. Approval
 * queues the publication at the post's time (at once if it has passed).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = case when p_approve then 'approved' else 'rejected' end
  where id = p_post_id and status = 'scheduled'
    and (approval_message_ids ->> 'chatId')::bigint = p_chat_id
    and (approval_message_ids ->> 'buttonsMessageId')::bigint = p_message_id
  returning * into v_post;
  if not found then
    return null;
  end if;
  if p_approve then
    perform graphile_worker.add_job('posts__publish', json_build_object('postId', v_post.id),
      run_at := greatest(now(), v_post.scheduled_for),
      job_key := app_private.post_job_key(v_post.id, 'publish'), max_attempts := 10);
  end if;
  return v_post;
end;
$$;

create or replace function app_public.begin_sending(p_post_id bigint, p_worker_id text) returns app_public.post_delivery
language plpgsql volatile as $$
/*
 * why: the publication's guard, committed before Telegram is called. From here on a crash
 * cannot lead to a second send: the post is `sending` with the worker's id, and only a
 * person (the admin) can send it again.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = 'sending', sending_worker_id = p_worker_id, sending_started_at = now()
  where id = p_post_id and status = 'approved' and scheduled_for <= now() + interval '2 seconds'
  returning * into v_post;
  if not found then
    return null;
  end if;
  return app_private.delivery(v_post);
end;
$$;

create or replace function app_public.record_published(p_post_id bigint, p_message_ids bigint[], p_links jsonb)
returns app_public.posts
language sql volatile as $$
  /* why: the send succeeded: keep the channel's message ids and links; the draft leaves the list */
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    published_links = p_links, published_at = now(), sending_worker_id = null, last_error = null
  where id = p_post_id and status in ('sending', 'uncertain')
  returning *
$$;

create or replace function app_public.record_send_failed(p_post_id bigint, p_reason text, p_definite boolean)
returns app_public.posts
language plpgsql volatile as $$
/*
 * why: a definite refusal by Telegram fails the post with the reason; a lost answer or a
 * timeout leaves it uncertain (it may be in the channel). Either way the admin is told.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = case when p_definite then 'failed' else 'uncertain' end,
    last_error = p_reason, sending_worker_id = null
  where id = p_post_id and status = 'sending'
  returning * into v_post;
  if found then
    perform app_private.notify_admin(p_post_id, case when p_definite then 'failed' else 'uncertain' end);
  end if;
  return v_post;
end;
$$;

create or replace function app_public.postpone_sending(p_post_id bigint, p_seconds int) returns void
language plpgsql volatile as $$
/* why: Telegram said "retry after N" (nothing was sent): back to approved, publish again after the wait */
begin
  update app_public.posts set status = 'approved', sending_worker_id = null where id = p_post_id and status = 'sending';
  if found then
    perform graphile_worker.add_job('posts__publish', json_build_object('postId', p_post_id),
      run_at := now() + make_interval(secs => p_seconds),
      job_key := app_private.post_job_key(p_post_id, 'publish'), max_attempts := 10);
  end if;
end;
$$;

create or replace function app_public.resolve_uncertain_post(
  p_post_id bigint, p_chat_id bigint, p_in_channel boolean
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: only a person can tell whether an uncertain post reached the channel. "It is
 * there" records it published (without a message link); "Send again" queues a new send.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set
    status = case when p_in_channel then 'published' else 'approved' end,
    published_at = case when p_in_channel then now() else null end,
    last_error = null
  where p.id = p_post_id and p.status = 'uncertain'
    and exists (select 1 from app_private.delivery(p) d where d.admin_chat_id = p_chat_id)
  returning * into v_post;
  if found and not p_in_channel then
    perform graphile_worker.add_job('posts__publish', json_build_object('postId', p_post_id),
      job_key := app_private.post_job_key(p_post_id, 'publish'), max_attempts := 10);
  end if;
  return v_post;
end;
$$;

create or replace function app_public.post_delivery_info(p_post_id bigint) returns app_public.post_delivery
language sql stable as $$
  select app_private.delivery(p) from app_public.posts p where p.id = p_post_id
$$;

------------------------------------------------------------------------------------------
-- Worker liveness and recovery
------------------------------------------------------------------------------------------
create or replace function app_public.worker_heartbeat(p_worker_ids text[]) returns void
language sql volatile as $$
  /* why: a live worker says so every few seconds */
  insert into app_private.worker_heartbeats (worker_id, seen_at)
  select unnest(p_worker_ids), now()
  on conflict (worker_id) do update set seen_at = excluded.seen_at
$$;

create or replace function app_public.recover_from_dead_workers(p_dead_after interval) returns int
language plpgsql volatile security definer set search_path = pg_catalog, public as $$
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
    perform app_public.record_send_failed(v_post.id,
      'The worker stopped while sending; the post may or may not be in the channel', false);
    v_count := v_count + 1;
  end loop;
  delete from app_private.worker_heartbeats where seen_at < now() - interval '1 day';
  return v_count;
end;
$$;
