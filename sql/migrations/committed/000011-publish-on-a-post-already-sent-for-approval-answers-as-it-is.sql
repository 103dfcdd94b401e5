--! Previous: sha1:8d96e8bd9c90a0361a79418f2e3c839b5c8af00f
--! Hash: sha1:74bdb651174e12d7dee5783fcbeebb9bfe7e4e25
--! Message: Publish on a post already sent for approval answers as it is

create or replace function app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
returns app_public.posts
language plpgsql volatile as $$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's 4096 characters is refused here, naming the length and the maximum. A
 * post already sent for approval (the automatic request 2 hours before came first) answers
 * as it is: what the user asked for is under way.
 */
declare
  v_post app_public.posts;
  v_length int;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND';
  end if;
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL';
  end if;
  if v_post.status = 'scheduled' then
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL';
  end if;
  v_length := length(v_post.content);
  if v_length > 4096 then
    raise exception 'schedule.captionTooLong: %/%', v_length, 4096 using errcode = 'CLONG';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN';
  end if;
  update app_public.posts set status = 'scheduled', last_error = null where id = p_post_id returning * into v_post;
  perform graphile_worker.add_job('posts__send_approval', json_build_object('postId', v_post.id),
    job_key := app_private.post_job_key(v_post.id, 'approval'), max_attempts := 10);
  return v_post;
end;
$$;
