-- The posts publish functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.post_job_key(p_post_id bigint, p_kind text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$ select 'post:' || p_post_id || ':' || p_kind $function$;

CREATE OR REPLACE FUNCTION app_private.queue_pinning(p_post app_public.posts)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: a pinned post is pinned once it is out, and unpinned unpinAfterHours later; each a
   job of its own with a job key, so a repeated publish record queues nothing twice */
begin
  perform graphile_worker.add_job('posts__pin', json_build_object('postId', p_post.id, 'pin', true),
    job_key := app_private.post_job_key(p_post.id, 'pin'), max_attempts := 5);
  if p_post.options ? 'unpinAfterHours' then
    perform graphile_worker.add_job('posts__pin', json_build_object('postId', p_post.id, 'pin', false),
      run_at := now() + make_interval(hours => (p_post.options ->> 'unpinAfterHours')::int),
      job_key := app_private.post_job_key(p_post.id, 'unpin'), max_attempts := 5);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_publication(p_post_id bigint, p_run_at timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  select graphile_worker.add_job('posts__publish', json_build_object('postId', p.id),
    queue_name := 'publish:project:' || p.project_id,
    run_at := p_run_at,
    job_key := app_private.post_job_key(p.id, 'publish'), max_attempts := 10)
  from app_public.posts p where p.id = p_post_id
$function$;

CREATE OR REPLACE FUNCTION app_private.resolve_uncertain(p_post_id bigint, p_in_channel boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: only a person can tell whether an uncertain post reached the channel. "It is
 * there" records it published, linked to its first message when that is known (a photo
 * recorded before the text) and the channel is still the chat it went to; "Send again"
 * queues a new send, which first removes what of the post is known to be in the channel.
 * Answers null when the post is not uncertain (someone answered first). "It is there" is
 * refused once the chat it went to is no longer the project's channel (posts.channelChanged).
 */
declare
  v_post app_public.posts;
begin
  if p_in_channel then
    select * into v_post from app_public.posts where id = p_post_id and status = 'uncertain';
    if found then
      perform app_private.assert_post_in_channel(v_post);
    end if;
  end if;
  update app_public.posts p set
    status = case when p_in_channel then 'published' else 'approved' end,
    -- a message whose send answer was lost is in the chat it was approved for
    channel_chat_id = case when p_in_channel then coalesce(p.channel_chat_id, p.approved_chat_id) else p.channel_chat_id end,
    published_at = case when p_in_channel then now() else null end,
    published_links = case
      when p_in_channel and jsonb_array_length(p.channel_message_ids) > 0 then coalesce((
        select jsonb_build_object(regexp_replace(d.channel_link, '^@', ''),
          'https://t.me/' || regexp_replace(d.channel_link, '^@', '') || '/' || (p.channel_message_ids ->> 0))
        from app_public.post_deliveries d
        where d.post_id = p.id and d.channel_link is not null and d.connected_chat_id = p.channel_chat_id), '{}')
      else p.published_links end,
    last_error_code = null, last_error_params = '{}'
  where p.id = p_post_id and p.status = 'uncertain'
  returning * into v_post;
  if found and not p_in_channel then
    perform app_private.queue_publication(p_post_id, now());
  elsif found then
    perform app_private.queue_ad_term(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.unqueue_post_jobs(p_post_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: moving or deleting a post must not leave a job behind to act on it */
begin
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'approval'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'publish'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'spawn'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'content'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'reminder'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'removal'));
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.begin_sending(p_post_id bigint, p_worker_id text)
 RETURNS app_public.post_deliveries
 LANGUAGE plpgsql
AS $function$
/*
 * why: the publication's guard, committed before Telegram is called. From here on a crash
 * cannot lead to a second send: the post is `sending` with the worker's id, and only a
 * person (the admin) can send it again. A post is only sent to the chat it was approved
 * for: if the project's channel is another one now, it goes back to draft, saying why. A
 * post due while another ad is on top is held until the ad's window ends (hold_for_ad_window).
 */
declare
  v_post app_public.posts;
begin
  select * into v_post from app_public.posts
  where id = p_post_id and status = 'approved' and scheduled_for <= now() + interval '2 seconds'
  for update;
  if not found then
    return null;
  end if;
  if app_private.hold_for_ad_window(v_post) then
    return null;
  end if;
  if v_post.approved_chat_id is null
     or v_post.approved_chat_id is distinct from (app_private.project_channel(v_post.project_id)).chat_id then
    perform app_private.withdraw_approval(p_post_id, 'posts.error.channelChanged', '{}');
    return null;
  end if;
  update app_public.posts set status = 'sending', sending_worker_id = p_worker_id, sending_started_at = now()
  where id = p_post_id;
  return (select d from app_public.post_deliveries d where d.post_id = p_post_id);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.defer_publication(p_post_id bigint, p_wait_ms double precision)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: the channel has no room in Telegram's budget for this post yet; its job comes back
   when it has (one job per post: the key moves to the new one), holding no worker slot
   meanwhile. Only an approved post, not yet being sent, is deferred. */
begin
  perform 1 from app_public.posts where id = p_post_id and status = 'approved';
  if found then
    perform app_private.queue_publication(p_post_id, now() + make_interval(secs => p_wait_ms / 1000));
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.pinning_target(p_post_id bigint)
 RETURNS TABLE(chat_id bigint, message_id bigint, refusal text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what a pin or unpin job acts on, read when it runs: the first message of a
     published post, only while its chat is the project's channel. A job queued before the
     channel changed gets a refusal to log instead, and touches nothing (the old chat has
     other administrators now, and maybe other messages under that id). */
  select case when not changed then p.channel_chat_id end,
         case when not changed then (p.channel_message_ids ->> 0)::bigint end,
         case when changed then format('the post went out in chat %s, which is no longer the project''s channel', p.channel_chat_id) end
  from app_public.posts p,
       lateral (select app_private.post_channel_changed(p.project_id, p.status, p.channel_chat_id, p.approved_chat_id) as changed) c
  where p.id = p_post_id and p.status = 'published'
$function$;

CREATE OR REPLACE FUNCTION app_public.post_delivery_info(p_post_id bigint)
 RETURNS app_public.post_deliveries
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what a task needs to send a post or tell its approver, by name (docs/publishing.md) */
  select * from app_public.post_deliveries d where d.post_id = p_post_id
$function$;

CREATE OR REPLACE FUNCTION app_public.postpone_sending(p_post_id bigint, p_seconds integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: Telegram said "retry after N" (nothing was sent): back to approved, publish again after the wait */
begin
  update app_public.posts set status = 'approved', sending_worker_id = null where id = p_post_id and status = 'sending';
  if found then
    perform app_private.queue_publication(p_post_id, now() + make_interval(secs => p_seconds));
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_published(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_links jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the send succeeded: keep the chat, its message ids and links; the draft leaves the
   list; a post to pin gets its pin (and its unpin) queued in the same step, and an ad its
   term (queue_ad_term), so a crash cannot publish a post without them */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    channel_chat_id = p_chat_id, published_links = p_links, published_at = now(), sending_worker_id = null,
    last_error_code = null, last_error_params = '{}'
  where id = p_post_id and status in ('sending', 'uncertain')
  returning * into v_post;
  if not found then
    return v_post;
  end if;
  perform app_private.log_activity(v_post.project_id, 'post.published', 'post', v_post.id,
    jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'url',
      (select l.value from jsonb_each_text(v_post.published_links) l order by l.key limit 1)), null);
  -- how late it went out (docs/operating.md "Metrics"); an early send counts as on time
  perform app_private.observe_metric('publish_lateness_seconds',
    greatest(0, extract(epoch from v_post.published_at - v_post.scheduled_for))::float8);
  if v_post.options ->> 'pin' = 'true' then
    perform app_private.queue_pinning(v_post);
  end if;
  perform app_private.queue_ad_term(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_send_failed(p_post_id bigint, p_reason_code text, p_reason_params jsonb, p_definite boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: a definite refusal by Telegram fails the post with the reason; a lost answer or a
 * timeout leaves it uncertain (it may be in the channel). Either way the admin is told in
 * Telegram, and the owner by mail.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = case when p_definite then 'failed' else 'uncertain' end,
    last_error_code = p_reason_code, last_error_params = p_reason_params, sending_worker_id = null
  where id = p_post_id and status = 'sending'
  returning * into v_post;
  if found then
    perform app_private.log_activity(v_post.project_id, 'post.failed', 'post', v_post.id,
      jsonb_build_object('title', v_post.title, 'reason', p_reason_code, 'params', p_reason_params, 'uncertain', not p_definite), null);
    perform app_private.notify_admin(p_post_id, case when p_definite then 'failed' else 'uncertain' end);
    perform app_private.notify_owner(v_post.project_id, 'postFailed', p_post_id);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_sent_part(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: what of a post being sent is in the channel, and in which chat (an empty list once leftovers are removed) */
  update app_public.posts set channel_message_ids = to_jsonb(p_message_ids), channel_chat_id = p_chat_id
  where id = p_post_id and status = 'sending'
$function$;

CREATE OR REPLACE FUNCTION app_public.resolve_uncertain_post(p_post_id bigint, p_chat_id bigint, p_in_channel boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the admin's answer in Telegram; only from the chat of the project's admin. A press
   the rules refuse (the channel changed since) is answered as outdated: null */
begin
  if not exists (select 1 from app_public.posts p where p.id = p_post_id
                 and exists (select 1 from app_public.post_deliveries d where d.post_id = p.id and d.approver_user_id = p_chat_id)) then
    return null;
  end if;
  return app_private.resolve_uncertain(p_post_id, p_in_channel);
exception when sqlstate 'EDPUB' then
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.resolve_uncertain_post_as_owner(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_in_channel boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the project's publishing members may answer the same question from the post's details
 * (they can look at the channel too). A post no longer uncertain (the admin answered first) is
 * answered as it is, unchanged.
 */
declare
  v_post app_public.posts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
  perform 1 from app_public.posts po where po.id = p_post_id and po.project_id = p_project_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  v_post := app_private.resolve_uncertain(p_post_id, p_in_channel);
  if v_post.id is null then
    select * into v_post from app_public.posts where id = p_post_id;
  end if;
  return v_post;
end;
$function$;
