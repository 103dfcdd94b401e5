--! Previous: sha1:d91331bdda79d72299cb6789403eeed330268132
--! Hash: sha1:642e42c4e4f6cf26be5f3f55767b1816acdf922b
--! Message: An album sent with its text as the caption cannot get buttons in an edit

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.request_post_edit(p_post app_public.posts, p_content text, p_entities jsonb, p_buttons jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: a published post's text, formatting and buttons change only once the approver
 * approves the edit in Telegram. The edit waits in pending_edit (a newer one replaces it,
 * and the older preview's buttons stop counting) and its preview is queued. The new text
 * must fit the message it edits: a photo's caption stays within Telegram's caption limit,
 * and an album's caption gets no buttons.
 */
declare
  -- the post went out as a photo or an album carrying the text as its caption
  v_caption boolean := cardinality(p_post.image_urls) > 0 and jsonb_array_length(p_post.channel_message_ids) = cardinality(p_post.image_urls);
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
    job_key := app_private.post_job_key(v_post.id, 'edit'), max_attempts := 10);
  return v_post;
end;
$function$;
