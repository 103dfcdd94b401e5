--! Previous: sha1:a6e84a09e8f92ed363db1f90524fc0e1413cc539
--! Hash: sha1:8d96e8bd9c90a0361a79418f2e3c839b5c8af00f
--! Message: one approval preview even when Publish meets the automatic request

drop function if exists app_public.post_for_approval(bigint);
create function app_public.post_for_approval(p_post_id bigint, p_job_id text) returns app_public.post_delivery
language plpgsql volatile as $$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over 4096 characters fails the post with the reason instead of sending. The claim lets
 * one job send the preview when the automatic request and Publish meet; the same job
 * retried after a crash takes its claim back, and any job may take a claim older than two
 * minutes.
 */
declare
  v_post app_public.posts;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_message_ids ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > 4096 then
    update app_public.posts set status = 'failed',
      last_error = format('schedule.captionTooLong: %s/%s', length(v_post.content), 4096)
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_message_ids ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_message_ids ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  update app_public.posts set status = 'scheduled',
    approval_message_ids = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id)
  where id = p_post_id returning * into v_post;
  return app_private.delivery(v_post);
end;
$$;

create or replace function app_public.record_approval_failed(p_post_id bigint, p_reason text) returns void
language sql volatile as $$
  /* why: the admin could not be reached (blocked the bot, no chat): the post returns to draft with the reason */
  update app_public.posts set status = 'draft', last_error = p_reason, approval_message_ids = '{}'
  where id = p_post_id and status = 'scheduled' and not (approval_message_ids ? 'chatId')
$$;
