--! Previous: sha1:642e42c4e4f6cf26be5f3f55767b1816acdf922b
--! Hash: sha1:2523f90e8cc8e7b9b61bc238a0c37d6b6f7feaa9
--! Message: Approval and edit previews run in one named queue per approver (one worker slot per approver chat however large the burst)

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.approval_queue_name(p_project_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: Telegram lets the bot send about one message a second into one private chat, so
     every message for one approver waits its turn. Jobs writing to the approver run in one
     named queue per approver (one at a time), so a burst of previews for one approver holds
     one worker slot while it waits, never all of them: other accounts' sign-in mail, previews
     and posts keep theirs. Keyed by the Telegram user, not the project, so an account's many
     projects with one approver still share one slot. */
  select 'approver:' || coalesce(
    (select c.approver_user_id::text from app_public.channels c
      where c.project_id = p_project_id and c.status = 'connected' and c.approver_user_id is not null limit 1),
    'project:' || p_project_id)
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_approval_at(p_post app_public.posts, p_run_at timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: one post has one approval request job (keyed), in its approver's queue */
begin
  perform graphile_worker.add_job(
    'posts__send_approval', json_build_object('postId', p_post.id),
    queue_name := app_private.approval_queue_name(p_post.project_id),
    run_at := p_run_at,
    job_key := app_private.post_job_key(p_post.id, 'approval'),
    max_attempts := 10
  );
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's maximum (post_text_max) is refused here, naming the length and the maximum. A
 * post already sent for approval (the automatic request 2 hours before came first) answers
 * as it is: what the user asked for is under way.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_length int;
begin
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL', hint = 'schedule.seriesNotPublishable';
  end if;
  if v_post.status = 'scheduled' then
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL', hint = 'schedule.notPlanned';
  end if;
  v_length := length(v_post.content);
  if v_length > app_private.post_text_max() then
    raise exception 'schedule.captionTooLong: %/%', v_length, app_private.post_text_max() using errcode = 'CLONG', hint = 'schedule.captionTooLong';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN', hint = 'schedule.noChannelToPublish';
  end if;
  update app_public.posts set status = 'scheduled', last_error = null where id = p_post_id returning * into v_post;
  perform app_private.queue_approval_at(v_post, now());
  return v_post;
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
 * and an album's caption gets no buttons.
 */
declare
  -- the post went out as a photo or an album carrying the text as its caption
  v_caption boolean := cardinality(p_post.image_urls) > 0 and jsonb_array_length(p_post.channel_message_ids) = cardinality(p_post.image_urls);
  v_max int := case when v_caption then app_private.photo_caption_max() else app_private.post_text_max() end;
  v_post app_public.posts;
begin
  if btrim(coalesce(p_content, '')) = '' then
    raise exception 'The edited post needs its text' using errcode = 'INVAL', hint = 'posts.editEmpty';
  end if;
  if length(p_content) > v_max then
    raise exception 'The edited text is longer than the message it edits allows: %/%', length(p_content), v_max
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

CREATE OR REPLACE FUNCTION app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb, p_approver jsonb)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
/*
 * why: PATCH semantics: only the keys present in p_changes change. A new admin handle on a
 * project with a connected channel must come with the approver Telegram confirmed for that
 * very chat (p_approver: userId, handle, name, chatId; see approver_change_prerequisites),
 * else nothing changes (APRNV). The approver then moves, and posts waiting for approval are
 * asked again of the new approver (the old previews lose their buttons).
 */
declare
  v_project app_public.projects;
  v_channel app_public.channels;
  v_handle text := ltrim(btrim(p_changes ->> 'adminHandle'), '@');
  v_moved boolean := false;
  v_post app_public.posts;
begin
  select * into v_project from app_public.projects where id = p_project_id and user_id = p_user_id for update;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  select * into v_channel from app_public.channels
  where project_id = p_project_id and status = 'connected' for update;
  if v_handle is not null and lower(v_handle) <> lower(v_project.admin_handle) and v_channel.id is not null then
    if p_approver is null or lower(ltrim(p_approver ->> 'handle', '@')) <> lower(v_handle)
       or (p_approver ->> 'chatId')::bigint is distinct from v_channel.chat_id then
      raise exception 'The new admin @% is not confirmed as an administrator of %', v_handle, v_channel.link
        using errcode = 'APRNV', hint = 'projects.approverNotConfirmed';
    end if;
    v_moved := (p_approver ->> 'userId')::bigint is distinct from v_channel.approver_user_id;
    update app_public.channels set approver_user_id = (p_approver ->> 'userId')::bigint, approver_handle = v_handle,
      approver_name = p_approver ->> 'name', rights_checked_at = now(),
      config = config || jsonb_build_object('adminChatId', (p_approver ->> 'userId')::bigint)
    where id = v_channel.id;
  end if;
  update app_public.projects p set
    name = coalesce(btrim(p_changes ->> 'name'), p.name),
    description = coalesce(p_changes ->> 'description', p.description),
    writing_style = coalesce(p_changes -> 'writingStyle', p.writing_style),
    admin_handle = coalesce(v_handle, p.admin_handle),
    timezone = coalesce(p_changes ->> 'timezone', p.timezone),
    language = coalesce(p_changes ->> 'language', p.language),
    sources = coalesce(p_changes ->> 'sources', p.sources)
  where p.id = p_project_id
  returning * into v_project;
  if v_moved then
    for v_post in
      select * from app_public.posts where project_id = p_project_id and status = 'scheduled' for update
    loop
      perform app_private.retract_approval(v_post, 'approverChanged');
      update app_public.posts set approval_preview = '{}', approval_chat_id = null where id = v_post.id;
      perform app_private.queue_approval_at(v_post, now());
    end loop;
  end if;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_approval(p_post app_public.posts)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the approval request goes out 2 hours before the post's time, or at once if that is sooner */
  select app_private.queue_approval_at(p_post, greatest(now(), p_post.scheduled_for - app_private.approval_lead()))
$function$;
