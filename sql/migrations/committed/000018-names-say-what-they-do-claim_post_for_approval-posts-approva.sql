--! Previous: sha1:57af2919c7dd8b986b236ec6e13eb9aaeaf1bf1c
--! Hash: sha1:4f473c57b5b3cf6e6a9823321aa138346bb5e4e4
--! Message: Names say what they do: claim_post_for_approval, posts.approval_preview, record_heartbeat; one helper per repeated rule (withdraw_approval, lock_post, draft_for_post, queue_series_spawn)

--! split: 2-renames.sql
-- Names that say what the code does (issue 15). The functions under their new names, and
-- every function that reads the renamed column, are in sql/functions/.

-- post_for_approval claims a post for its approval job, and may change or fail it: now
-- claim_post_for_approval
drop function if exists app_public.post_for_approval(bigint, text);
-- the worker and the bot both write their heartbeat through it: now record_heartbeat
drop function if exists app_public.worker_heartbeat(text[]);

-- approval_message_ids holds the preview's chat and message ids once it is sent, and before
-- that the claim of the job sending it: the approval preview, in every state (the API still
-- answers it as the spec's approvalMessageIds)
do $$
begin
  if exists (select 1 from information_schema.columns
             where table_schema = 'app_public' and table_name = 'posts' and column_name = 'approval_message_ids') then
    alter table app_public.posts rename column approval_message_ids to approval_preview;
  end if;
  if exists (select 1 from pg_constraint
             where conrelid = 'app_public.posts'::regclass and conname = 'posts_approval_message_ids_check') then
    alter table app_public.posts rename constraint posts_approval_message_ids_check to posts_approval_preview_check;
  end if;
  if exists (select 1 from pg_constraint
             where conrelid = 'app_public.posts'::regclass and conname = 'posts_approval_message_ids_not_null') then
    alter table app_public.posts rename constraint posts_approval_message_ids_not_null to posts_approval_preview_not_null;
  end if;
  if exists (select 1 from information_schema.attributes
             where udt_schema = 'app_public' and udt_name = 'post_delivery' and attribute_name = 'approval_message_ids') then
    alter type app_public.post_delivery rename attribute approval_message_ids to approval_preview;
  end if;
end
$$;

--! split: 3-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.withdraw_approvals(p_project_id bigint, p_reason text, p_retract text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an approval belongs to the chat it was given for. When the project's channel goes
 * away, posts waiting for approval or approved and not yet sent return to draft with the
 * reason; their previews lose their buttons and their jobs are removed, so they need a new
 * Publish and approval and are never sent to a chat nobody approved. Posts already being
 * sent finish in the chat they were approved for.
 */
declare
  v_post app_public.posts;
begin
  for v_post in
    select * from app_public.posts
    where project_id = p_project_id and status in ('scheduled', 'approved') and not is_recurring
    for update
  loop
    perform app_private.retract_approval(v_post, p_retract);
    perform app_private.unqueue_post_jobs(v_post.id);
    perform app_private.withdraw_approval(v_post.id, p_reason);
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.fail_post_for_channel_rights(p_post_id bigint, p_reason text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the approver no longer administers the channel, or the bot may no longer post:
     the post fails with a reason its owner reads, before anything is sent, and nobody is
     sent anything (the former approver may no longer be entitled to see the post) */
  update app_public.posts set status = 'failed', last_error = p_reason, sending_worker_id = null
  where id = p_post_id
    and (status = 'approved' or (status = 'scheduled' and not (approval_preview ? 'chatId')))
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

CREATE OR REPLACE FUNCTION app_private.retract_approval(p_post app_public.posts, p_reason text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: an approval message that no longer applies is edited to say so (its buttons then do nothing) */
begin
  if p_post.approval_preview ? 'chatId' then
    perform graphile_worker.add_job('posts__retract_approval', json_build_object(
      'chatId', p_post.approval_preview -> 'chatId',
      'messageId', p_post.approval_preview -> 'buttonsMessageId',
      'reason', p_reason,
      'language', (select language from app_public.projects where id = p_post.project_id)));
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.withdraw_approval(p_post_id bigint, p_reason text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a post whose approval no longer holds (no channel to ask, the channel disconnected
     or replaced) goes back to draft with the reason. It forgets its preview (sent or
     claimed), the chat that preview asked about and the chat it was approved for, so it
     needs a new Publish and approval and is never sent to a chat nobody approved. */
  update app_public.posts set status = 'draft', approval_preview = '{}', approval_chat_id = null,
    approved_chat_id = null, last_error = p_reason
  where id = p_post_id
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_post_for_approval(p_post_id bigint, p_job_id text)
 RETURNS app_public.post_delivery
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over Telegram's maximum (post_text_max) fails the post with the reason instead of
 * sending; a project without a channel leaves it a draft saying so. The claim lets one job
 * send the preview when the automatic request and Publish meet; the same job retried after
 * a crash takes its claim back, and any job may take a claim older than two minutes. The
 * claim records which chat the preview asks about.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_preview ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > app_private.post_text_max() then
    update app_public.posts set status = 'failed',
      last_error = format('schedule.captionTooLong: %s/%s', length(v_post.content), app_private.post_text_max())
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_preview ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_preview ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    perform app_private.withdraw_approval(p_post_id, 'Connect a channel before publishing');
    return null;
  end if;
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_preview = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id)
  where id = p_post_id returning * into v_post;
  return app_private.delivery(v_post);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.decide_post(p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: an admin's press on Approve or Reject. Only the current approval message of a post
 * still waiting counts, once, and only while the project's channel is the chat the preview
 * asked about; anything else answers null and changes nothing. Approval records the chat
 * it was given for and queues the publication at the post's time (at once if it has passed).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set status = case when p_approve then 'approved' else 'rejected' end,
    approved_chat_id = case when p_approve then p.approval_chat_id end
  where p.id = p_post_id and p.status = 'scheduled'
    and (p.approval_preview ->> 'chatId')::bigint = p_chat_id
    and (p.approval_preview ->> 'buttonsMessageId')::bigint = p_message_id
    and p.approval_chat_id = (select c.chat_id from app_public.channels c
                              where c.project_id = p.project_id and c.status = 'connected')
  returning * into v_post;
  if not found then
    return null;
  end if;
  if p_approve then
    perform app_private.queue_publication(v_post.id, greatest(now(), v_post.scheduled_for));
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_approval_failed(p_post_id bigint, p_reason text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the admin could not be reached (blocked the bot, no chat): the post returns to draft with the reason */
  update app_public.posts set status = 'draft', last_error = p_reason, approval_preview = '{}'
  where id = p_post_id and status = 'scheduled' and not (approval_preview ? 'chatId')
$function$;

CREATE OR REPLACE FUNCTION app_public.record_approval_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
 RETURNS boolean
 LANGUAGE sql
AS $function$
  /* why: remembers which message carries the buttons, so only that message can decide;
     a preview sent to someone who is no longer the approver records nothing */
  update app_public.posts p set approval_preview = jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)])
  where p.id = p_post_id and p.status = 'scheduled' and not (p.approval_preview ? 'chatId')
    and exists (select 1 from app_public.channels c where c.project_id = p.project_id and c.status = 'connected'
                and c.approver_user_id = p_chat_id and c.chat_id = p.approval_chat_id)
  returning true
$function$;

CREATE OR REPLACE FUNCTION app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's maximum (post_text_max) is refused here, naming the length and the maximum. A
 * post already sent for approval (the automatic request 2 hours before came first) answers
 * as it is: what the user asked for is under way.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_length int;
begin
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL', hint = 'schedule.seriesNotPublishable';
  end if;
  if v_post.status = 'scheduled' then
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL', hint = 'schedule.notPlanned';
  end if;
  v_length := length(v_post.content);
  if v_length > app_private.post_text_max() then
    raise exception 'schedule.captionTooLong: %/%', v_length, app_private.post_text_max() using errcode = 'CLONG', hint = 'schedule.captionTooLong';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN', hint = 'schedule.noChannelToPublish';
  end if;
  update app_public.posts set status = 'scheduled', last_error = null where id = p_post_id returning * into v_post;
  perform graphile_worker.add_job('posts__send_approval', json_build_object('postId', v_post.id),
    job_key := app_private.post_job_key(v_post.id, 'approval'), max_attempts := 10);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.delivery(p_post app_public.posts)
 RETURNS app_public.post_delivery
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a post with its project's connected channel and that channel's pinned approver */
  select p_post.id, p_post.status, p_post.title, p_post.content, p_post.image_url, p_post.scheduled_for,
         c.chat_id, c.link, c.approver_user_id,
         p_post.approval_preview, p_post.channel_message_ids, p_post.last_error, pr.language, pr.timezone,
         c.id, c.approver_handle, c.rights_checked_at, p_post.channel_chat_id
  from app_public.projects pr
  left join app_public.channels c on c.project_id = pr.id and c.status = 'connected'
  where pr.id = p_post.project_id
$function$;

CREATE OR REPLACE FUNCTION app_public.begin_sending(p_post_id bigint, p_worker_id text)
 RETURNS app_public.post_delivery
 LANGUAGE plpgsql
AS $function$
/*
 * why: the publication's guard, committed before Telegram is called. From here on a crash
 * cannot lead to a second send: the post is `sending` with the worker's id, and only a
 * person (the admin) can send it again. A post is only sent to the chat it was approved
 * for: if the project's channel is another one now, it goes back to draft, saying why.
 */
declare
  v_post app_public.posts;
begin
  select * into v_post from app_public.posts
  where id = p_post_id and status = 'approved' and scheduled_for <= now() + interval '2 seconds'
  for update;
  if not found then
    return null;
  end if;
  if v_post.approved_chat_id is null
     or v_post.approved_chat_id is distinct from (app_private.project_channel(v_post.project_id)).chat_id then
    perform app_private.withdraw_approval(p_post_id,
      'The channel changed after this post was approved; publish it again to send it for approval');
    return null;
  end if;
  update app_public.posts set status = 'sending', sending_worker_id = p_worker_id, sending_started_at = now()
  where id = p_post_id
  returning * into v_post;
  return app_private.delivery(v_post);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.draft_for_post(p_project_id bigint, p_draft_id bigint, p_post_id bigint)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the draft a one-time post takes (scheduling it, or p_post_id when editing it): one
 * must be chosen, of the post's project, and held by no other post still in play (a
 * rejected or failed post lets its draft go; posts_one_live_per_draft says the same).
 */
declare
  v_draft app_public.drafts;
begin
  if p_draft_id is null then
    raise exception 'schedule.selectDraft' using errcode = 'INVAL', hint = 'schedule.selectDraft';
  end if;
  select * into v_draft from app_public.drafts where id = p_draft_id and project_id = p_project_id;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and id is distinct from p_post_id
             and status not in ('rejected', 'failed')) then
    raise exception 'schedule.draftAlreadyScheduled' using errcode = 'INVAL', hint = 'schedule.draftAlreadyScheduled';
  end if;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.lock_post(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the post an owner's request changes (edit, delete, Publish), locked until the change
 * commits: another user's project is "not found" (projects.notFound), then a post not in
 * the project (posts.notFound).
 */
declare
  v_post app_public.posts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_delete_series boolean)
 RETURNS SETOF app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: deletes a post (or, for a series or one of its occurrences with p_delete_series,
 * the series and its unpublished occurrences) and every job that would act on it. Answers
 * the deleted rows so the caller can remove their channel messages. A post being sent
 * right now cannot be deleted.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_series_id bigint;
  v_row app_public.posts;
begin
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
      raise exception 'The post is being published right now; try again in a moment' using errcode = 'EDPUB', hint = 'schedule.cannotDeleteSending';
    end if;
    perform app_private.retract_approval(v_row, 'deleted');
    perform app_private.unqueue_post_jobs(v_row.id);
    delete from app_public.posts where id = v_row.id;
    return next v_row;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
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
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before scheduling posts' using errcode = 'NOCHN', hint = 'schedule.noChannel';
  end if;
  if v_recurring then
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL', hint = 'schedule.noDraftsForRecurring';
    end if;
    insert into app_public.posts (project_id, title, content, scheduled_for, is_recurring, recurring_type)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), p_scheduled_for, true, p_recurring_type)
    returning * into v_post;
    perform app_private.queue_series_spawn(v_post, now());
    return v_post;
  end if;
  v_draft := app_private.draft_for_post(p_project_id, p_draft_id, null);
  insert into app_public.posts (project_id, draft_id, title, content, image_url, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.image_url, p_scheduled_for)
  returning * into v_post;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post cannot be edited; one being sent
 * cannot either. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again).
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
    raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
  end if;
  if v_post.status in ('sending', 'uncertain') then
    raise exception 'The post is being published right now and cannot be edited' using errcode = 'EDPUB', hint = 'schedule.cannotEditSending';
  end if;
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring <> v_post.is_recurring then
    raise exception 'A one-time post cannot become recurring or the other way round; delete it and schedule anew'
      using errcode = 'INVAL', hint = 'schedule.cannotChangeRecurrence';
  end if;
  if not v_recurring then
    v_draft := app_private.draft_for_post(p_project_id, p_draft_id, p_post_id);
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
    approval_preview = '{}',
    last_error = null
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform app_private.queue_series_spawn(v_post, now());
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb, p_approver jsonb)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
/*
 * why: PATCH semantics: only the keys present in p_changes change. A new admin handle on a
 * project with a connected channel must come with the approver Telegram confirmed for that
 * very chat (p_approver: userId, handle, name, chatId; see approver_change_prerequisites),
 * else nothing changes (APRNV). The approver then moves, and posts waiting for approval are
 * asked again of the new approver (the old previews lose their buttons).
 */
declare
  v_project app_public.projects;
  v_channel app_public.channels;
  v_handle text := ltrim(btrim(p_changes ->> 'adminHandle'), '@');
  v_moved boolean := false;
  v_post app_public.posts;
begin
  select * into v_project from app_public.projects where id = p_project_id and user_id = p_user_id for update;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  select * into v_channel from app_public.channels
  where project_id = p_project_id and status = 'connected' for update;
  if v_handle is not null and lower(v_handle) <> lower(v_project.admin_handle) and v_channel.id is not null then
    if p_approver is null or lower(ltrim(p_approver ->> 'handle', '@')) <> lower(v_handle)
       or (p_approver ->> 'chatId')::bigint is distinct from v_channel.chat_id then
      raise exception 'The new admin @% is not confirmed as an administrator of %', v_handle, v_channel.link
        using errcode = 'APRNV', hint = 'projects.approverNotConfirmed';
    end if;
    v_moved := (p_approver ->> 'userId')::bigint is distinct from v_channel.approver_user_id;
    update app_public.channels set approver_user_id = (p_approver ->> 'userId')::bigint, approver_handle = v_handle,
      approver_name = p_approver ->> 'name', rights_checked_at = now(),
      config = config || jsonb_build_object('adminChatId', (p_approver ->> 'userId')::bigint)
    where id = v_channel.id;
  end if;
  update app_public.projects p set
    name = coalesce(btrim(p_changes ->> 'name'), p.name),
    description = coalesce(p_changes ->> 'description', p.description),
    writing_style = coalesce(p_changes -> 'writingStyle', p.writing_style),
    admin_handle = coalesce(v_handle, p.admin_handle),
    timezone = coalesce(p_changes ->> 'timezone', p.timezone),
    language = coalesce(p_changes ->> 'language', p.language),
    sources = coalesce(p_changes ->> 'sources', p.sources)
  where p.id = p_project_id
  returning * into v_project;
  if v_moved then
    for v_post in
      select * from app_public.posts where project_id = p_project_id and status = 'scheduled' for update
    loop
      perform app_private.retract_approval(v_post, 'approverChanged');
      update app_public.posts set approval_preview = '{}', approval_chat_id = null where id = v_post.id;
      perform graphile_worker.add_job('posts__send_approval', json_build_object('postId', v_post.id),
        job_key := app_private.post_job_key(v_post.id, 'approval'), max_attempts := 10);
    end loop;
  end if;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_series_spawn(p_series app_public.posts, p_now timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: a series' next occurrence is made approval_lead before its time, when its approval
     request is due; at once if that moment has passed (p_now is the clock) */
  select graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', p_series.id),
    run_at := greatest(p_now, app_private.series_next_time(p_series) - app_private.approval_lead()),
    job_key := app_private.post_job_key(p_series.id, 'spawn'))
$function$;

CREATE OR REPLACE FUNCTION app_public.spawn_series_occurrence(p_series_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
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
    perform app_private.queue_series_spawn(v_series, p_now);
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
  perform app_private.queue_series_spawn(v_series, p_now);
  return v_occurrence;
end;
$function$;
