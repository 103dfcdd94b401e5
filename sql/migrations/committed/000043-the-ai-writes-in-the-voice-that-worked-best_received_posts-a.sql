--! Previous: sha1:6c8b90d10dd1da01963a49a73766934eb7be69ff
--! Hash: sha1:aea4ab868b9d0918ec882af7ecde2cda349df222
--! Message: The AI writes in the voice that worked: best_received_posts, and autopilot's post to write carries its project

--! split: 45-ai-voice-examples.sql
-- The autopilot post to write answers its project too (the post's prompt carries the
-- project's best-received posts, app_public.best_received_posts): a changed return type.
drop function if exists app_public.autopilot_post_to_write(bigint);

--! split: 46-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.autopilot_post_to_write(p_post_id bigint)
 RETURNS TABLE(user_id bigint, project_id bigint, title text, name text, description text, sources text, writing_style jsonb, language text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the AI needs to write an autopilot post, while the post still waits for it
     (not written, not sent for approval); nothing once it was written, tried, or removed */
  select pr.user_id, pr.id, po.title, pr.name, pr.description, pr.sources, pr.writing_style, pr.language
  from app_public.posts po join app_public.projects pr on pr.id = po.project_id
  where po.id = p_post_id and po.awaiting_text and po.status = 'draft'
$function$;

CREATE OR REPLACE FUNCTION app_public.best_received_posts(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(post_id bigint, content text, reactions integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the examples of the voice that works that a post's prompt carries (README "AI"):
     the project's 3 published posts of the last 90 days with the most reactions (summed over
     all their messages, at least one), ties to the newer; each text cut to 600 characters,
     so the prompt grows by at most ~1,800. Only the user's own project counts, with the reactions
     its connected channel recorded (as the Statistics page reads them); at most its 1,000 newest posts are looked at. */
  with recent as (
    select po.id, po.content, po.published_at, po.channel_chat_id, po.channel_message_ids
    from app_public.posts po
    join app_public.projects pr on pr.id = po.project_id and pr.user_id = p_user_id
    where po.project_id = p_project_id and po.status = 'published'
      and po.published_at >= now() - interval '90 days' and btrim(po.content) <> ''
    order by po.published_at desc, po.id desc
    limit 1000
  ), reacted as (
    select r.id, r.content, r.published_at,
      (select coalesce(sum(m.total), 0)::int
       from app_public.channels c
       join app_private.message_reactions m on m.channel_id = c.id
       where c.project_id = p_project_id and c.status = 'connected' and c.chat_id = r.channel_chat_id
         and m.message_id in (select jsonb_array_elements_text(r.channel_message_ids)::bigint)) as reactions
    from recent r
  )
  select r.id,
    case when length(r.content) > 600 then rtrim(left(r.content, 599)) || '…' else r.content end,
    r.reactions
  from reacted r
  where r.reactions > 0
  order by r.reactions desc, r.published_at desc, r.id desc
  limit 3
$function$;
