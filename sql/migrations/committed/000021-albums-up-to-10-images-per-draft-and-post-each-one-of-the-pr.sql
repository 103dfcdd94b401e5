--! Previous: sha1:d96e7eeaa2ed36ca50e728ca9d156baac68bbadd
--! Hash: sha1:87a2e06f72396b20a631726e47f7c6d42e085faf
--! Message: Albums: up to 10 images per draft and post, each one of the project's uploads, image_url kept as the first

--! split: 5-albums.sql
-- Albums (README "Post format"): up to 10 images per draft and post, first image first.
-- image_url stays the first image (older clients read it), and the table keeps the two in step.
alter table app_public.drafts add column if not exists image_urls text[] not null default '{}';
alter table app_public.posts add column if not exists image_urls text[] not null default '{}';
update app_public.drafts set image_urls = array[image_url] where image_url is not null and image_urls = '{}';
update app_public.posts set image_urls = array[image_url] where image_url is not null and image_urls = '{}';
do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'drafts_image_urls_check') then
    alter table app_public.drafts add constraint drafts_image_urls_check
      check (cardinality(image_urls) <= 10 and image_url is not distinct from image_urls[1]);
    alter table app_public.posts add constraint posts_image_urls_check
      check (cardinality(image_urls) <= 10 and image_url is not distinct from image_urls[1]);
  end if;
  if not exists (select 1 from pg_attribute where attrelid = 'app_public.post_delivery'::regclass and attname = 'image_urls') then
    alter type app_public.post_delivery add attribute image_urls text[];
  end if;
end $$;
-- the hourly orphan sweep asks "does any album hold this file?"
create index if not exists drafts_image_urls_idx on app_public.drafts using gin (image_urls);
create index if not exists posts_image_urls_idx on app_public.posts using gin (image_urls);

-- create_draft takes the album (its new body is in sql/functions/drafts.sql)
drop function if exists app_public.create_draft(bigint, bigint, text, text, text, integer, integer, jsonb, jsonb);

--! split: 6-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.create_draft(p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order integer, p_max_drafts integer DEFAULT NULL::integer, p_entities jsonb DEFAULT '[]'::jsonb, p_options jsonb DEFAULT '{}'::jsonb, p_image_urls text[] DEFAULT NULL::text[])
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0 as in the spec's data */
declare
  v_draft app_public.drafts;
  v_images text[];
begin
  perform app_public.get_project(p_user_id, p_project_id);
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  -- an album when one is given, else the one image
  v_images := app_private.assert_project_uploads(p_project_id, coalesce(p_image_urls, array_remove(array[nullif(p_image_url, '')], null)));
  insert into app_public.drafts (project_id, title, content, entities, image_url, image_urls, options, sort_order)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), coalesce(p_entities, '[]'), v_images[1], v_images,
          coalesce(p_options, '{}'), coalesce(p_order, 0))
  returning * into v_draft;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_changes jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics; imageUrls replaces the album; imageUrl replaces its first image (an
   explicit null or "" removes it, as with one image); new content without its entities is
   plain (the old formatting would not fit it) */
declare
  v_draft app_public.drafts;
  v_images text[];
begin
  select d.* into v_draft from app_public.drafts d
  join app_public.projects p on p.id = d.project_id and p.user_id = p_user_id
  where d.id = p_draft_id and d.project_id = p_project_id
  for update of d;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  v_images := v_draft.image_urls;
  if p_changes ? 'imageUrls' then
    v_images := app_private.assert_project_uploads(p_project_id, array(select jsonb_array_elements_text(p_changes -> 'imageUrls')));
  elsif p_changes ? 'imageUrl' then
    v_images := app_private.assert_project_uploads(p_project_id,
      array_remove(array[nullif(p_changes ->> 'imageUrl', '')], null) || v_draft.image_urls[2:]);
  end if;
  update app_public.drafts d set
    title = coalesce(btrim(p_changes ->> 'title'), d.title),
    content = coalesce(p_changes ->> 'content', d.content),
    entities = case when p_changes ? 'entities' then p_changes -> 'entities'
                    when p_changes ? 'content' then '[]' else d.entities end,
    options = coalesce(p_changes -> 'options', d.options),
    image_url = v_images[1],
    image_urls = v_images,
    sort_order = coalesce((p_changes ->> 'order')::int, d.sort_order)
  where d.id = p_draft_id
  returning d.* into v_draft;
  return v_draft;
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
 * must fit the message it edits: a photo's caption stays within Telegram's caption limit.
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
  update app_public.posts set pending_edit = jsonb_build_object(
      'content', p_content, 'entities', coalesce(p_entities, '[]'),
      'buttons', coalesce(p_buttons, p_post.options -> 'buttons', '[]'), 'requestedAt', now())
  where id = p_post.id
  returning * into v_post;
  perform graphile_worker.add_job('posts__send_edit_approval', json_build_object('postId', v_post.id),
    job_key := app_private.post_job_key(v_post.id, 'edit'), max_attempts := 10);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.delivery(p_post app_public.posts)
 RETURNS app_public.post_delivery
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a post with its project's connected channel and that channel's pinned approver */
  select p_post.id, p_post.status, p_post.title, p_post.content, p_post.image_url, p_post.scheduled_for,
         c.chat_id, c.link, c.approver_user_id,
         p_post.approval_preview, p_post.channel_message_ids, p_post.last_error, pr.language, pr.timezone,
         c.id, c.approver_handle, c.rights_checked_at, p_post.channel_chat_id, p_post.entities, p_post.options,
         p_post.image_urls
  from app_public.projects pr
  left join app_public.channels c on c.project_id = pr.id and c.status = 'connected'
  where pr.id = p_post.project_id
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content, formatting and image it copies, and its options unless the request gives its
 * own. Recurring: a series with placeholder text whose occurrences take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute).
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before scheduling posts' using errcode = 'NOCHN', hint = 'schedule.noChannel';
  end if;
  if v_recurring then
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL', hint = 'schedule.noDraftsForRecurring';
    end if;
    insert into app_public.posts (project_id, title, content, entities, options, scheduled_for, is_recurring, recurring_type)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), coalesce(p_entities, '[]'), coalesce(p_options, '{}'),
            p_scheduled_for, true, p_recurring_type)
    returning * into v_post;
    perform app_private.queue_series_spawn(v_post, now());
    return v_post;
  end if;
  v_draft := app_private.draft_for_post(p_project_id, p_draft_id, null);
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, image_urls, options, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          coalesce(p_options, v_draft.options), p_scheduled_for)
  returning * into v_post;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post cannot be edited; one being sent
 * cannot either. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again).
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
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

CREATE OR REPLACE FUNCTION app_public.spawn_series_occurrence(p_series_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the rotation. The series' next occurrence becomes its own post taking the next
 * available draft by order; the series advances (recurring_last_post) and the next spawn
 * is queued. With no draft left the series stops and says why (last_error). p_now is
 * the clock (tests drive days through it).
 */
declare
  v_series app_public.posts;
  v_draft app_public.drafts;
  v_at timestamptz;
  v_occurrence app_public.posts;
begin
  select * into v_series from app_public.posts where id = p_series_id and is_recurring and status = 'draft' for update;
  if not found then
    return null;
  end if;
  v_at := app_private.series_next_time(v_series);
  if v_at - app_private.approval_lead() > p_now + interval '1 minute' then
    -- too early (a stale job): wait for the right time
    perform app_private.queue_series_spawn(v_series, p_now);
    return null;
  end if;
  select * into v_draft from app_public.available_series_drafts(v_series.project_id) limit 1;
  if not found then
    update app_public.posts set status = 'failed', last_error = 'schedule.seriesOutOfDrafts' where id = v_series.id;
    return null;
  end if;
  -- the series' options, when it has any, else the draft's
  insert into app_public.posts (project_id, draft_id, series_id, title, content, entities, image_url, image_urls, options, scheduled_for)
  values (v_series.project_id, v_draft.id, v_series.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          case when v_series.options = '{}' then v_draft.options else v_series.options end, v_at)
  returning * into v_occurrence;
  update app_public.posts set recurring_last_post = v_at where id = v_series.id returning * into v_series;
  perform app_private.queue_approval(v_occurrence);
  perform app_private.queue_series_spawn(v_series, p_now);
  return v_occurrence;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.assert_project_uploads(p_project_id bigint, p_urls text[])
 RETURNS text[]
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: an album holds only this project's own uploads (the first image is also checked by
   its foreign key; the others only here); answers the album as given */
begin
  if exists (select 1 from unnest(coalesce(p_urls, '{}')) url
             where not exists (select 1 from app_private.uploads u
                               where u.key = app_private.upload_key(url) and u.project_id = p_project_id)) then
    raise exception 'The image is not an upload of this project' using errcode = 'INVAL', hint = 'uploads.notInProject';
  end if;
  return coalesce(p_urls, '{}');
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.take_orphan_uploads(p_older_than interval)
 RETURNS SETOF text
 LANGUAGE sql
AS $function$
  /* why: files no draft, post or bug report refers to (by their key columns), older than a
     grace period (a draft being edited may hold a fresh upload not yet saved), are
     forgotten here and their keys answered so the worker deletes the files */
  delete from app_private.uploads u
  where u.created_at < now() - p_older_than
    and not exists (select 1 from app_public.drafts d where d.image_urls @> array['/api/uploads/' || u.key])
    and not exists (select 1 from app_public.posts p where p.image_urls @> array['/api/uploads/' || u.key])
    and not exists (select 1 from app_public.bug_reports b where b.screenshot_key = u.key)
  returning u.key
$function$;
