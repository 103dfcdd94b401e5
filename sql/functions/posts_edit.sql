-- The posts edit functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.edit_round(p_pending_edit jsonb)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: names an edit in its preview's buttons: when it was requested, in microseconds */
  select floor(extract(epoch from (p_pending_edit ->> 'requestedAt')::timestamptz) * 1000000)::bigint
$function$;

CREATE OR REPLACE FUNCTION app_private.request_post_edit(p_post app_public.posts, p_content text, p_entities jsonb, p_buttons jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: a published post's text, formatting and buttons change only once the approver
 * approves the edit in Telegram. The edit waits in pending_edit (a newer one replaces it,
 * and the older preview's buttons stop counting) and its preview is queued. The new text
 * must fit the message it edits: a photo's caption stays within Telegram's caption limit,
 * and an album's caption gets no buttons. An ad keeps its label as the last line, so the
 * label counts towards the limit.
 */
declare
  -- the post went out as a photo or an album carrying the text as its caption
  v_caption boolean := cardinality(p_post.image_urls) > 0 and jsonb_array_length(p_post.channel_message_ids) = cardinality(p_post.image_urls);
  v_max int := case when v_caption then app_private.photo_caption_max() else app_private.post_text_max() end;
  v_post app_public.posts;
  v_length int := app_private.ad_labelled_length(p_content, p_post.ad, (select language from app_public.projects where id = p_post.project_id));
begin
  if btrim(coalesce(p_content, '')) = '' then
    raise exception 'The edited post needs its text' using errcode = 'INVAL', hint = 'posts.editEmpty';
  end if;
  if v_length > v_max then
    raise exception 'The edited text is longer than the message it edits allows: %/%', v_length, v_max
      using errcode = 'INVAL', hint = 'posts.editTooLong';
  end if;
  -- an album's messages cannot carry buttons (Telegram refuses them), so an album that went
  -- out with its text as the caption has no message to put new buttons on
  if v_caption and cardinality(p_post.image_urls) > 1 and jsonb_array_length(coalesce(p_buttons, '[]')) > 0 then
    raise exception 'An album sent with its text as the caption cannot get buttons'
      using errcode = 'INVAL', hint = 'posts.editAlbumButtons';
  end if;
  update app_public.posts set pending_edit = jsonb_build_object(
      'content', p_content, 'entities', coalesce(p_entities, '[]'),
      'buttons', coalesce(p_buttons, p_post.options -> 'buttons', '[]'), 'requestedAt', now())
  where id = p_post.id
  returning * into v_post;
  perform graphile_worker.add_job('posts__send_edit_approval', json_build_object('postId', v_post.id),
    queue_name := app_private.approval_queue_name(v_post.project_id),
    job_key := app_private.post_job_key(v_post.id, 'edit'), max_attempts := 10);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.decide_post_edit(p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean, p_round bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approver's press on an edit's Approve or Reject. Only the current edit's preview
 * counts, once, only from the channel's approver and while the post is in that channel:
 * its recorded buttons message, or, before the preview's ids are recorded, the edit its
 * buttons name (p_round: the edit's requestedAt in microseconds); anything else answers null. Approve
 * queues the edit in the channel; Reject drops it and the channel keeps the post as it is.
 */
declare
  v_post app_public.posts;
begin
  select p.* into v_post from app_public.posts p
  join app_public.channels c on c.project_id = p.project_id and c.status = 'connected' and c.approver_user_id = p_chat_id
  where p.id = p_post_id and p.status = 'published'
    -- the post is still in the project's channel: an edit of an older channel's post is history
    and not app_private.post_channel_changed(p.project_id, p.status, p.channel_chat_id, p.approved_chat_id)
    and (((p.pending_edit ->> 'chatId')::bigint = p_chat_id
          and (p.pending_edit ->> 'buttonsMessageId')::bigint = p_message_id)
         or (not (p.pending_edit ? 'buttonsMessageId')
             and app_private.edit_round(p.pending_edit) = p_round))
    and not (p.pending_edit ? 'approved')
  for update of p;
  if not found then
    return null;
  end if;
  if p_approve then
    update app_public.posts set pending_edit = pending_edit || '{"approved": true}' where id = p_post_id returning * into v_post;
    -- in the project's publishing queue: the edit waits for the channel's turn of Telegram's
    -- pace there, holding that queue's slot rather than one every account shares
    perform graphile_worker.add_job('posts__apply_edit', json_build_object('postId', p_post_id),
      queue_name := 'publish:project:' || v_post.project_id,
      job_key := app_private.post_job_key(p_post_id, 'apply-edit'), max_attempts := 10);
  else
    update app_public.posts set pending_edit = null where id = p_post_id returning * into v_post;
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.post_edit_info(p_post_id bigint)
 RETURNS TABLE(pending_edit jsonb, published_at timestamp with time zone, image_url text, channel_changed boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the edit jobs need beside the post's delivery: the edit, where the post is,
     and whether its chat is still the project's channel, read when the job runs (an edit
     queued before the channel changed must not reach the old chat) */
  select p.pending_edit, p.published_at, p.image_url,
         app_private.post_channel_changed(p.project_id, p.status, p.channel_chat_id, p.approved_chat_id)
  from app_public.posts p where p.id = p_post_id and p.status = 'published'
$function$;

CREATE OR REPLACE FUNCTION app_public.record_edit_applied(p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE sql
AS $function$
  /* why: Telegram edited the channel's message: the post now reads as approved, and says when */
  update app_public.posts set content = pending_edit ->> 'content', entities = pending_edit -> 'entities',
    options = options || jsonb_build_object('buttons', pending_edit -> 'buttons'), edited_at = now(), pending_edit = null,
    last_error_code = null, last_error_params = '{}'
  where id = p_post_id and status = 'published' and pending_edit ? 'approved'
  returning *
$function$;

CREATE OR REPLACE FUNCTION app_public.record_edit_failed(p_post_id bigint, p_reason_code text, p_reason_params jsonb)
 RETURNS app_public.posts
 LANGUAGE sql
AS $function$
  /* why: Telegram refused the approved edit for good (the message was deleted in the
     channel, the bot may no longer edit it): the edit is dropped, the post keeps reading as
     it does in the channel, and the reason says why */
  update app_public.posts set pending_edit = null, last_error_code = p_reason_code, last_error_params = p_reason_params
  where id = p_post_id and status = 'published' and pending_edit ? 'approved'
  returning *
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
