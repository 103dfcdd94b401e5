--! Previous: sha1:86b5d3e19ba95048f783fdda7587db1c780ac0bc
--! Hash: sha1:6a87a15b0ddda322af92cdf1deea5d3932427247
--! Message: The publish act reads one record by name: the view post_deliveries replaces the positional delivery composite

--! split: 2-the-delivery-record-by-name.sql
-- The publish act reads one record by name (docs/publishing.md "Names along the publish act"):
-- a view whose columns keep the names of the columns they come from, read by name in SQL and
-- in tasks/post_delivery.ts, in place of a 22-field composite filled by position (where the
-- channel's approver was `admin_chat_id` and the chat a post went to `sent_chat_id`).
drop function if exists app_public.claim_post_for_approval(bigint, text);
drop function if exists app_public.begin_sending(bigint, text);
drop function if exists app_public.post_delivery_info(bigint);
drop function if exists app_private.delivery(app_public.posts);
drop type if exists app_public.post_delivery;

create or replace view app_public.post_deliveries as
  select p.id as post_id, p.status, p.title, p.content, p.entities, p.options, p.image_url, p.image_urls,
         p.scheduled_for, p.approval_preview,
         -- where the post's messages are: the chat they went to, and their ids there
         p.channel_chat_id, p.channel_message_ids,
         p.last_error_code, p.last_error_params,
         pr.language as project_language, pr.timezone as project_timezone,
         -- the project's connected channel now (null without one), its pinned approver and
         -- when Telegram last confirmed both
         c.id as channel_id, c.chat_id as connected_chat_id, c.link as channel_link,
         c.approver_user_id, c.approver_handle, c.rights_checked_at
  from app_public.posts p
  join app_public.projects pr on pr.id = p.project_id
  left join app_public.channels c on c.project_id = p.project_id and c.status = 'connected';

--! split: 3-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.claim_post_for_approval(p_post_id bigint, p_job_id text)
 RETURNS app_public.post_deliveries
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over Telegram's maximum (post_text_max) fails the post with the reason instead of
 * sending; a project without a channel leaves it a draft saying so. The claim lets one job
 * send the preview when the automatic request and Publish meet; the same job retried after
 * a crash takes its claim back, and any job may take a claim older than two minutes. The
 * claim records which chat the preview asks about, and the preview's round.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_preview ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > app_private.post_text_max() then
    update app_public.posts set status = 'failed',
      last_error_code = 'schedule.captionTooLong',
      last_error_params = jsonb_build_object('current', length(v_post.content), 'max', app_private.post_text_max())
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_preview ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_preview ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    perform app_private.withdraw_approval(p_post_id, 'schedule.noChannelToPublish', '{}');
    return null;
  end if;
  -- the round names this preview in its buttons' callback data, so a press counts even before
  -- the preview's message ids are recorded (decide_post); a new claim is a new round
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_preview = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id,
      'round', floor(extract(epoch from clock_timestamp()) * 1000000)::bigint)
  where id = p_post_id;
  return (select d from app_public.post_deliveries d where d.post_id = p_post_id);
end;
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
  end if;
  return v_post;
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
 * for: if the project's channel is another one now, it goes back to draft, saying why.
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

CREATE OR REPLACE FUNCTION app_public.post_delivery_info(p_post_id bigint)
 RETURNS app_public.post_deliveries
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what a task needs to send a post or tell its approver, by name (docs/publishing.md) */
  select * from app_public.post_deliveries d where d.post_id = p_post_id
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
