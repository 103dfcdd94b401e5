--! Previous: sha1:8c243823935fedad77a42df675ecdd33c84083b4
--! Hash: sha1:ead481246b6dd4fea512de3275f6dd5cd91f219b
--! Message: An approved edit Telegram refuses for good is dropped with the reason

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.record_edit_failed(p_post_id bigint, p_reason text)
 RETURNS app_public.posts
 LANGUAGE sql
AS $function$
  /* why: Telegram refused the approved edit for good (the message was deleted in the
     channel, the bot may no longer edit it): the edit is dropped, the post keeps reading as
     it does in the channel, and the reason says why */
  update app_public.posts set pending_edit = null, last_error = p_reason
  where id = p_post_id and status = 'published' and pending_edit ? 'approved'
  returning *
$function$;

CREATE OR REPLACE FUNCTION app_public.record_edit_applied(p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE sql
AS $function$
  /* why: Telegram edited the channel's message: the post now reads as approved, and says when */
  update app_public.posts set content = pending_edit ->> 'content', entities = pending_edit -> 'entities',
    options = options || jsonb_build_object('buttons', pending_edit -> 'buttons'), edited_at = now(), pending_edit = null,
    last_error = null
  where id = p_post_id and status = 'published' and pending_edit ? 'approved'
  returning *
$function$;
