--! Previous: sha1:e2246e3328fc653b6fcd124e82fe56722ea6d311
--! Hash: sha1:d40be38c59f3498d344e59c52f0d1e9dfa1f92a6
--! Message: A preview's ids are recorded only while its round lives: a resend or move between send and record no longer revives the old buttons

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.record_approval_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
/* why: remembers which message carries the buttons, so only that message can decide, and
   queues the round's reminder for when the post is late; a preview sent to someone who is no
   longer the approver records nothing, nor one whose round was ended meanwhile (a resend or a
   move forgets the preview before its ids land: they must not make its buttons count again) */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set approval_preview = jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)],
      'round', p.approval_preview -> 'round')
  where p.id = p_post_id and p.status = 'scheduled' and not (p.approval_preview ? 'chatId')
    and p.approval_preview ? 'round'
    and exists (select 1 from app_public.channels c where c.project_id = p.project_id and c.status = 'connected'
                and c.approver_user_id = p_chat_id and c.chat_id = p.approval_chat_id)
  returning * into v_post;
  if not found then
    return null;
  end if;
  perform app_private.queue_approval_reminder(v_post);
  return true;
end;
$function$;
