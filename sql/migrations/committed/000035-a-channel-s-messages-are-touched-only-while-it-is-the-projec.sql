--! Previous: sha1:0bc76c4a4541dd1e17c086c2dfc991d08831551b
--! Hash: sha1:3334c34958c24e5fcee1238269077318fe031089
--! Message: A channel's messages are touched only while it is the project's channel; safe tg:// links

--! split: 3-channel-history.sql
-- A channel's messages are touched only while it is the project's channel (issue 23, item 2):
-- the edit jobs learn whether the post's chat is still the project's channel, so
-- post_edit_info answers one more column (a changed signature is dropped first; the
-- function's body is in sql/functions/posts_edit.sql).
drop function if exists app_public.post_edit_info(bigint);

--! split: 4-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.assert_post_in_channel(p_post app_public.posts)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a change to a post that went out (an edit, deleting it from the channel, "it is in
   the channel") is refused once its chat is no longer the project's channel: that chat's
   administrators never approved this project's new approver or channel */
begin
  if app_private.post_channel_changed(p_post.project_id, p_post.status, p_post.channel_chat_id, p_post.approved_chat_id) then
    raise exception 'This post went out in a channel that is no longer the project''s channel: it is read-only history'
      using errcode = 'EDPUB', hint = 'posts.channelChanged';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.post_channel_changed(p_project_id bigint, p_status text, p_channel_chat_id bigint, p_approved_chat_id bigint)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a channel's messages are touched only while it is the project's channel. A post
     that went out (published, or uncertain: perhaps out) belongs to the chat it went to
     (the chat it was approved for when no message of it is known); once that is not the
     project's connected channel (another one, or none), the post is history. Connecting
     the same chat again makes it the project's channel again. */
  select p_status in ('published', 'uncertain')
     and coalesce(p_channel_chat_id, p_approved_chat_id) is distinct from (app_private.project_channel(p_project_id)).chat_id
$function$;

CREATE OR REPLACE FUNCTION app_public.post_channel_messages(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS TABLE(status text, channel_chat_id bigint, channel_message_ids jsonb, published_links jsonb)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the messages "delete from channel" removes, asked before Telegram is called: only
   the owner's post (projects.notFound, posts.notFound), and only while the chat they are
   in is the project's channel (posts.channelChanged) */
declare
  v_post app_public.posts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts p where p.id = p_post_id and p.project_id = p_project_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  if v_post.status = 'published' and jsonb_array_length(v_post.channel_message_ids) > 0 then
    perform app_private.assert_post_in_channel(v_post);
  end if;
  return query select v_post.status, v_post.channel_chat_id, v_post.channel_message_ids, v_post.published_links;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.decide_post_edit(p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approver's press on an edit's Approve or Reject. Only the current edit's preview
 * counts, once, only from the channel's approver and while the post is in that channel;
 * anything else answers null. Approve
 * queues the edit in the channel; Reject drops it and the channel keeps the post as it is.
 */
declare
  v_post app_public.posts;
begin
  select p.* into v_post from app_public.posts p
  join app_public.channels c on c.project_id = p.project_id and c.status = 'connected' and c.approver_user_id = p_chat_id
  where p.id = p_post_id and p.status = 'published'
    -- the post is still in the project's channel: an edit of an older channel's post is history
    and not app_private.post_channel_changed(p.project_id, p.status, p.channel_chat_id, p.approved_chat_id)
    and (p.pending_edit ->> 'chatId')::bigint = p_chat_id
    and (p.pending_edit ->> 'buttonsMessageId')::bigint = p_message_id
    and not (p.pending_edit ? 'approved')
  for update of p;
  if not found then
    return null;
  end if;
  if p_approve then
    update app_public.posts set pending_edit = pending_edit || '{"approved": true}' where id = p_post_id returning * into v_post;
    perform graphile_worker.add_job('posts__apply_edit', json_build_object('postId', p_post_id),
      job_key := app_private.post_job_key(p_post_id, 'apply-edit'), max_attempts := 10);
  else
    update app_public.posts set pending_edit = null where id = p_post_id returning * into v_post;
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.post_edit_info(p_post_id bigint)
 RETURNS TABLE(pending_edit jsonb, published_at timestamp with time zone, image_url text, channel_changed boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the edit jobs need beside the post's delivery: the edit, where the post is,
     and whether its chat is still the project's channel, read when the job runs (an edit
     queued before the channel changed must not reach the old chat) */
  select p.pending_edit, p.published_at, p.image_url,
         app_private.post_channel_changed(p.project_id, p.status, p.channel_chat_id, p.approved_chat_id)
  from app_public.posts p where p.id = p_post_id and p.status = 'published'
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
        from app_private.delivery(p) d where d.channel_link is not null and d.channel_chat_id = p.channel_chat_id), '{}')
      else p.published_links end,
    last_error = null
  where p.id = p_post_id and p.status = 'uncertain'
  returning * into v_post;
  if found and not p_in_channel then
    perform app_private.queue_publication(p_post_id, now());
  end if;
  return v_post;
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

CREATE OR REPLACE FUNCTION app_public.resolve_uncertain_post(p_post_id bigint, p_chat_id bigint, p_in_channel boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the admin's answer in Telegram; only from the chat of the project's admin. A press
   the rules refuse (the channel changed since) is answered as outdated: null */
begin
  if not exists (select 1 from app_public.posts p where p.id = p_post_id
                 and exists (select 1 from app_private.delivery(p) d where d.admin_chat_id = p_chat_id)) then
    return null;
  end if;
  return app_private.resolve_uncertain(p_post_id, p_in_channel);
exception when sqlstate 'EDPUB' then
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post's time cannot be edited (its text
 * goes to the approver, and only while its chat is the project's channel); one being sent
 * cannot be edited at all. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again), with
 * the end the request gives (the occurrences made so far count towards "after N posts";
 * skipped dates stay skipped).
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
    -- only while it is in the project's channel: the chat's own administrators never
    -- approved a later approver or channel
    perform app_private.assert_post_in_channel(v_post);
    -- its time and recurrence are history; its text, formatting and buttons may change
    -- through the approver (request_post_edit)
    if date_trunc('milliseconds', p_scheduled_for) <> date_trunc('milliseconds', v_post.scheduled_for) or v_recurring
       or v_post.is_recurring then
      raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
    end if;
    return app_private.request_post_edit(v_post, p_content, p_entities, p_options -> 'buttons');
  end if;
  if v_post.status in ('sending', 'uncertain') then
    raise exception 'The post is being published right now and cannot be edited' using errcode = 'EDPUB', hint = 'schedule.cannotEditSending';
  end if;
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring <> v_post.is_recurring then
    raise exception 'A one-time post cannot become recurring or the other way round; delete it and schedule anew'
      using errcode = 'INVAL', hint = 'schedule.cannotChangeRecurrence';
  end if;
  if not v_recurring then
    v_draft := app_private.draft_for_post(p_project_id, p_draft_id, p_post_id);
  else
    perform app_private.assert_series_end(app_public.get_project(p_user_id, p_project_id), p_scheduled_for, p_ends_after, p_ends_on);
  end if;
  perform app_private.retract_approval(v_post, 'edited');
  perform app_private.unqueue_post_jobs(v_post.id);
  update app_public.posts set
    draft_id = case when v_recurring then null else v_draft.id end,
    title = case when v_recurring then coalesce(p_title, title) else v_draft.title end,
    content = case when v_recurring then coalesce(p_content, content) else v_draft.content end,
    entities = case when v_recurring then coalesce(p_entities, case when p_content is null then entities else '[]' end)
                    else v_draft.entities end,
    image_url = case when v_recurring then null else v_draft.image_url end,
    image_urls = case when v_recurring then '{}' else v_draft.image_urls end,
    options = coalesce(p_options, case when v_recurring then options else v_draft.options end),
    scheduled_for = p_scheduled_for,
    recurring_type = coalesce(p_recurring_type, 'none'),
    status = 'draft',
    recurring_last_post = case when v_recurring then null else recurring_last_post end,
    series_ends_after = case when v_recurring then p_ends_after end,
    series_ends_on = case when v_recurring then p_ends_on end,
    approval_preview = '{}',
    last_error = null
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform app_private.queue_series_spawn(v_post, now());
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
$function$;
