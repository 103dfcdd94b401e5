--! Previous: sha1:74bdb651174e12d7dee5783fcbeebb9bfe7e4e25
--! Hash: sha1:e39aa44a46cd844201463db90088a4d4f519908d
--! Message: Publishing: one post at a time per channel; a two-message post records its photo; the owner can answer an uncertain post

/*
 * One channel's publications go out one at a time. A post can be several messages (an
 * image whose text is over the caption limit goes as the photo, then the text); two posts
 * due together must not interleave in the channel. graphile-worker runs the jobs of one
 * named queue one after another, across every worker process, so each project's (and
 * thus its one channel's) publish jobs share a queue.
 */
create or replace function app_private.queue_publication(p_post_id bigint, p_run_at timestamptz)
returns void
language sql volatile as $$
  select graphile_worker.add_job('posts__publish', json_build_object('postId', p.id),
    queue_name := 'publish:project:' || p.project_id,
    run_at := p_run_at,
    job_key := app_private.post_job_key(p.id, 'publish'), max_attempts := 10)
  from app_public.posts p where p.id = p_post_id
$$;

create or replace function app_public.decide_post(
  p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: an admin's press on Approve or Reject. Only the current approval message of a post
 * still waiting counts, once; anything else answers null and changes nothing. Approval
 * queues the publication at the post's time (at once if it has passed).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = case when p_approve then 'approved' else 'rejected' end
  where id = p_post_id and status = 'scheduled'
    and (approval_message_ids ->> 'chatId')::bigint = p_chat_id
    and (approval_message_ids ->> 'buttonsMessageId')::bigint = p_message_id
  returning * into v_post;
  if not found then
    return null;
  end if;
  if p_approve then
    perform app_private.queue_publication(v_post.id, greatest(now(), v_post.scheduled_for));
  end if;
  return v_post;
end;
$$;

create or replace function app_public.postpone_sending(p_post_id bigint, p_seconds int) returns void
language plpgsql volatile as $$
/* why: Telegram said "retry after N" (nothing was sent): back to approved, publish again after the wait */
begin
  update app_public.posts set status = 'approved', sending_worker_id = null where id = p_post_id and status = 'sending';
  if found then
    perform app_private.queue_publication(p_post_id, now() + make_interval(secs => p_seconds));
  end if;
end;
$$;

/*
 * A post of two messages (an image whose text is over the caption limit: the photo, then
 * the text) records the photo as soon as it is in the channel, so a failure or a crash
 * before the text knows what is already there: the worker removes such leftovers before
 * the post is sent again, and "It is in the channel" can link the post.
 */
create or replace function app_public.record_sent_part(p_post_id bigint, p_message_ids bigint[]) returns void
language sql volatile as $$
  /* why: what of a post being sent is in the channel (an empty list once leftovers are removed) */
  update app_public.posts set channel_message_ids = to_jsonb(p_message_ids)
  where id = p_post_id and status = 'sending'
$$;

create or replace function app_private.resolve_uncertain(p_post_id bigint, p_in_channel boolean)
returns app_public.posts
language plpgsql volatile as $$
/*
 * why: only a person can tell whether an uncertain post reached the channel. "It is
 * there" records it published, linked to its first message when that is known (a photo
 * recorded before the text); "Send again" queues a new send, which first removes what of
 * the post is known to be in the channel. Answers null when the post is not uncertain
 * (someone answered first).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set
    status = case when p_in_channel then 'published' else 'approved' end,
    published_at = case when p_in_channel then now() else null end,
    published_links = case
      when p_in_channel and jsonb_array_length(p.channel_message_ids) > 0 then coalesce((
        select jsonb_build_object(regexp_replace(d.channel_link, '^@', ''),
          'https://t.me/' || regexp_replace(d.channel_link, '^@', '') || '/' || (p.channel_message_ids ->> 0))
        from app_private.delivery(p) d where d.channel_link is not null), '{}')
      else p.published_links end,
    last_error = null
  where p.id = p_post_id and p.status = 'uncertain'
  returning * into v_post;
  if found and not p_in_channel then
    perform app_private.queue_publication(p_post_id, now());
  end if;
  return v_post;
end;
$$;

create or replace function app_public.resolve_uncertain_post(
  p_post_id bigint, p_chat_id bigint, p_in_channel boolean
) returns app_public.posts
language plpgsql volatile as $$
/* why: the admin's answer in Telegram; only from the chat of the project's admin */
begin
  if not exists (select 1 from app_public.posts p where p.id = p_post_id
                 and exists (select 1 from app_private.delivery(p) d where d.admin_chat_id = p_chat_id)) then
    return null;
  end if;
  return app_private.resolve_uncertain(p_post_id, p_in_channel);
end;
$$;

create or replace function app_public.resolve_uncertain_post_as_owner(
  p_user_id bigint, p_project_id bigint, p_post_id bigint, p_in_channel boolean
) returns app_public.posts
language plpgsql volatile as $$
/*
 * why: the project's owner may answer the same question from the post's details (they can
 * look at the channel too). A post no longer uncertain (the admin answered first) is
 * answered as it is, unchanged.
 */
declare
  v_post app_public.posts;
begin
  perform 1 from app_public.posts po join app_public.projects pr on pr.id = po.project_id
  where po.id = p_post_id and po.project_id = p_project_id and pr.user_id = p_user_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND';
  end if;
  v_post := app_private.resolve_uncertain(p_post_id, p_in_channel);
  if v_post.id is null then
    select * into v_post from app_public.posts where id = p_post_id;
  end if;
  return v_post;
end;
$$;

/* Publications already waiting (not running) move to their project's queue. */
select app_private.queue_publication(split_part(j.key, ':', 2)::bigint, j.run_at)
from graphile_worker.jobs j
where j.task_identifier = 'posts__publish' and j.key like 'post:%:publish' and j.locked_at is null;

/*
 * Network errors used to be stored as the client printed them, quoting the Bot API URL,
 * which carries the bot's token; such reasons are kept without it (as the worker now
 * writes them: api/telegram/errors.ts withoutSecrets).
 */
update app_public.posts
set last_error = regexp_replace(regexp_replace(last_error, 'https?://\S+', 'Telegram', 'g'), '\d{5,}:[A-Za-z0-9_-]{20,}', '<token>', 'g')
where last_error ~ 'https?://|\d{5,}:[A-Za-z0-9_-]{20,}';
