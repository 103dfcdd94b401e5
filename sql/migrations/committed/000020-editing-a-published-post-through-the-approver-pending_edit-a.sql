--! Previous: sha1:435c8d6d1644cf670cf65bacd0998a9685451876
--! Hash: sha1:d96e7eeaa2ed36ca50e728ca9d156baac68bbadd
--! Message: Editing a published post through the approver: pending_edit and edited_at, the edit's preview, decision and application in place

--! split: 4-post-edits.sql
-- Editing a published post (README "Post format"): the owner's edit waits in pending_edit
-- until the approver approves it in Telegram; then the channel's message is edited in place
-- and edited_at says when.
alter table app_public.posts add column if not exists edited_at timestamptz;
alter table app_public.posts add column if not exists pending_edit jsonb
  constraint posts_pending_edit_check check (pending_edit is null or jsonb_typeof(pending_edit) = 'object');

--! split: 5-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.photo_caption_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: Telegram's longest photo caption (PHOTO_CAPTION_MAX in TypeScript) */
  select 1024
$function$;

CREATE OR REPLACE FUNCTION app_private.request_post_edit(p_post app_public.posts, p_content text, p_entities jsonb, p_buttons jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: a published post's text, formatting and buttons change only once the approver
 * approves the edit in Telegram. The edit waits in pending_edit (a newer one replaces it,
 * and the older preview's buttons stop counting) and its preview is queued. The new text
 * must fit the message it edits: a photo's caption stays within Telegram's caption limit.
 */
declare
  v_caption boolean := p_post.image_url is not null and jsonb_array_length(p_post.channel_message_ids) = 1;
  v_max int := case when v_caption then app_private.photo_caption_max() else app_private.post_text_max() end;
  v_post app_public.posts;
begin
  if btrim(coalesce(p_content, '')) = '' then
    raise exception 'The edited post needs its text' using errcode = 'INVAL', hint = 'posts.editEmpty';
  end if;
  if length(p_content) > v_max then
    raise exception 'The edited text is longer than the message it edits allows: %/%', length(p_content), v_max
      using errcode = 'INVAL', hint = 'posts.editTooLong';
  end if;
  update app_public.posts set pending_edit = jsonb_build_object(
      'content', p_content, 'entities', coalesce(p_entities, '[]'),
      'buttons', coalesce(p_buttons, p_post.options -> 'buttons', '[]'), 'requestedAt', now())
  where id = p_post.id
  returning * into v_post;
  perform graphile_worker.add_job('posts__send_edit_approval', json_build_object('postId', v_post.id),
    job_key := app_private.post_job_key(v_post.id, 'edit'), max_attempts := 10);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_edit_preview_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_requested_at text)
 RETURNS boolean
 LANGUAGE sql
AS $function$
  /* why: remembers which message carries the edit's buttons, for the edit it previews only
     (a newer edit requested meanwhile keeps its own preview to come) */
  update app_public.posts set pending_edit = pending_edit || jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)])
  where id = p_post_id and status = 'published' and pending_edit ->> 'requestedAt' = p_requested_at
  returning true
$function$;

CREATE OR REPLACE FUNCTION app_public.decide_post_edit(p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approver's press on an edit's Approve or Reject. Only the current edit's preview
 * counts, once, and only from the channel's approver; anything else answers null. Approve
 * queues the edit in the channel; Reject drops it and the channel keeps the post as it is.
 */
declare
  v_post app_public.posts;
begin
  select p.* into v_post from app_public.posts p
  join app_public.channels c on c.project_id = p.project_id and c.status = 'connected' and c.approver_user_id = p_chat_id
  where p.id = p_post_id and p.status = 'published'
    and (p.pending_edit ->> 'chatId')::bigint = p_chat_id
    and (p.pending_edit ->> 'buttonsMessageId')::bigint = p_message_id
    and not (p.pending_edit ? 'approved')
  for update of p;
  if not found then
    return null;
  end if;
  if p_approve then
    update app_public.posts set pending_edit = pending_edit || '{"approved": true}' where id = p_post_id returning * into v_post;
    perform graphile_worker.add_job('posts__apply_edit', json_build_object('postId', p_post_id),
      job_key := app_private.post_job_key(p_post_id, 'apply-edit'), max_attempts := 10);
  else
    update app_public.posts set pending_edit = null where id = p_post_id returning * into v_post;
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_edit_applied(p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE sql
AS $function$
  /* why: Telegram edited the channel's message: the post now reads as approved, and says when */
  update app_public.posts set content = pending_edit ->> 'content', entities = pending_edit -> 'entities',
    options = options || jsonb_build_object('buttons', pending_edit -> 'buttons'), edited_at = now(), pending_edit = null
  where id = p_post_id and status = 'published' and pending_edit ? 'approved'
  returning *
$function$;

CREATE OR REPLACE FUNCTION app_public.post_edit_info(p_post_id bigint)
 RETURNS TABLE(pending_edit jsonb, published_at timestamp with time zone, image_url text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the edit jobs need beside the post's delivery: the edit and where the post is */
  select p.pending_edit, p.published_at, p.image_url from app_public.posts p where p.id = p_post_id and p.status = 'published'
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb)
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
    -- its time and recurrence are history; its text, formatting and buttons may change
    -- through the approver (request_post_edit)
    if date_trunc('milliseconds', p_scheduled_for) <> date_trunc('milliseconds', v_post.scheduled_for) or v_recurring
       or v_post.is_recurring then
      raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
    end if;
    return app_private.request_post_edit(v_post, p_content, p_entities, p_options -> 'buttons');
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
    entities = case when v_recurring then coalesce(p_entities, case when p_content is null then entities else '[]' end)
                    else v_draft.entities end,
    image_url = case when v_recurring then null else v_draft.image_url end,
    options = coalesce(p_options, case when v_recurring then options else v_draft.options end),
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
