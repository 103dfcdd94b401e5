--! Previous: sha1:ccc47ee07373c510fb39579cc6be74d9d225045a
--! Hash: sha1:abdce8666c121413b42b4eaf1477b96320234ea1
--! Message: Every message to an approver's chat waits in that approver's queue (retractions and failure notices too), and an approved edit waits in its project's publishing queue

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.notify_admin(p_post_id bigint, p_kind text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the channel admin hears about failed and uncertain publications in Telegram, in the
 * approver's queue like every message to their chat: 57 failures at once wait there one a
 * second, holding one worker slot, not every slot other accounts need
 */
begin
  perform graphile_worker.add_job('posts__notify_admin', json_build_object('postId', p_post_id, 'kind', p_kind),
    queue_name := app_private.approval_queue_name((select project_id from app_public.posts where id = p_post_id)),
    max_attempts := 10);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.retract_approval(p_post app_public.posts, p_reason text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an approval message that no longer applies is edited to say so (its buttons then do
 * nothing). In the queue of the chat it edits: a channel deleted with 50 previews out edits 50
 * messages in one approver's chat at Telegram's one a second, holding one worker slot (the
 * channel may be gone already, so the queue is named by the preview's chat, not the project's)
 */
begin
  if p_post.approval_preview ? 'chatId' then
    perform graphile_worker.add_job('posts__retract_approval', json_build_object(
      'chatId', p_post.approval_preview -> 'chatId',
      'messageId', p_post.approval_preview -> 'buttonsMessageId',
      'reason', p_reason,
      'language', (select language from app_public.projects where id = p_post.project_id)),
      queue_name := 'approver:' || (p_post.approval_preview ->> 'chatId'));
  end if;
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
