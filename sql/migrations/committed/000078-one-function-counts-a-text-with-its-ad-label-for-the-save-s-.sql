--! Previous: sha1:2a3acc9f1c73e881084a12bf03cb5408b2e27507
--! Hash: sha1:c0a2507b9be4329335da556df0a371da98e8aab5
--! Message: One function counts a text with its ad label, for the save's check and a published ad's edit; the owners' notices of an ad's term take their kind as given

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.ad_labelled_length(p_text text, p_ad jsonb, p_language text)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: the length Telegram counts of a text that goes out with its ad's label as the last
     line (after a blank line, as withAdLabel in contract/ads.ts adds it); the text alone for
     a post that is no ad */
  select length(p_text) + coalesce(2 + length(app_private.ad_label(p_ad, p_language)), 0)
$function$;

CREATE OR REPLACE FUNCTION app_private.assert_ad_fits(p_project_id bigint, p_title text, p_content text, p_ad jsonb)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: an ad's label is its last line, so the text that goes out is the post's own and the
 * label: refused when saved if together they pass Telegram's limit (ads.labelDoesNotFit,
 * with the length and the maximum), not at the send, when nobody can shorten it in time
 */
declare
  v_length int;
begin
  -- a post that is no ad keeps the drafts' own limit
  if jsonb_typeof(p_ad) is distinct from 'object' then
    return;
  end if;
  v_length := app_private.ad_labelled_length(case when btrim(coalesce(p_content, '')) = '' then coalesce(p_title, '') else p_content end,
    p_ad, (select language from app_public.projects where id = p_project_id));
  if v_length > app_private.post_text_max() then
    raise exception 'The post with its ad label is % characters; Telegram allows %', v_length, app_private.post_text_max()
      using errcode = 'INVAL', hint = 'ads.labelDoesNotFit';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.tell_ad_owners(p_post app_public.posts, p_kind text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: what an ad's term asks of people goes to the project's owners by e-mail (each with
   their own switches and language) and to the channel's approver in Telegram, in their queue */
begin
  -- p_kind: adRemovalDue or adCannotDelete, the same kind for the mail and the approver's message
  perform app_private.notify_member(m.user_id, p_post.project_id, p_kind, p_post.id, null, null)
  from app_public.project_members m where m.project_id = p_post.project_id and m.role = 'owner';
  perform app_private.notify_admin(p_post.id, p_kind);
end;
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
