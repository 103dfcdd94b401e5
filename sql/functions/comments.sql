-- The comments functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_public.add_post_comment(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_text text)
 RETURNS TABLE(id bigint, user_id bigint, email text, text text, created_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/*
 * why: a member who may write (not a viewer) comments on a post of the project. A comment on a
 * post an editor returned reaches its author by e-mail (unless the author wrote it), so the
 * conversation about a returned post is not missed.
 */
declare
  v_post app_public.posts;
  v_comment app_public.post_comments;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'comments.write');
  select * into v_post from app_public.posts po where po.id = p_post_id and po.project_id = p_project_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  insert into app_public.post_comments (project_id, post_id, user_id, text)
  values (p_project_id, p_post_id, p_user_id, p_text) returning * into v_comment;
  if v_post.status = 'draft' and v_post.returned_at is not null then
    perform app_private.notify_member(v_post.review_author_id, p_project_id, 'postCommented', p_post_id, p_user_id, v_comment.id);
  end if;
  return query select v_comment.id, v_comment.user_id, u.email, v_comment.text, v_comment.created_at
  from (select 1) one left join app_public.users u on u.id = v_comment.user_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_post_comment(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_comment_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: a writer takes back their own comment; an owner may remove anyone's (moderation of the project) */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'comments.write');
begin
  delete from app_public.post_comments c
  where c.id = p_comment_id and c.post_id = p_post_id and c.project_id = p_project_id
    and (c.user_id = p_user_id or v_role = 'owner');
  if not found then
    raise exception 'Comment not found' using errcode = 'NTFND', hint = 'comments.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.edit_post_comment(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_comment_id bigint, p_text text)
 RETURNS TABLE(id bigint, user_id bigint, email text, text text, created_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: a comment is its writer's to correct (while they may still comment); another's is "not found" */
#variable_conflict use_column
begin
  perform app_private.authorize(p_user_id, p_project_id, 'comments.write');
  update app_public.post_comments c set text = p_text
  where c.id = p_comment_id and c.post_id = p_post_id and c.project_id = p_project_id and c.user_id = p_user_id;
  if not found then
    raise exception 'Comment not found' using errcode = 'NTFND', hint = 'comments.notFound';
  end if;
  return query select c.id, c.user_id, u.email, c.text, c.created_at
  from app_public.post_comments c left join app_public.users u on u.id = c.user_id where c.id = p_comment_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.post_comment_list(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS TABLE(id bigint, user_id bigint, email text, text text, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a post's comments, oldest first, with who wrote them; any member reads them, a post of
   another project is "not found" */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  if not exists (select 1 from app_public.posts po where po.id = p_post_id and po.project_id = p_project_id) then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  return query select c.id, c.user_id, u.email, c.text, c.created_at
  from app_public.post_comments c left join app_public.users u on u.id = c.user_id
  where c.post_id = p_post_id order by c.created_at, c.id;
end;
$function$;
