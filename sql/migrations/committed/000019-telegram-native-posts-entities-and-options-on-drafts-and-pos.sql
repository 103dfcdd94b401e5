--! Previous: sha1:4f473c57b5b3cf6e6a9823321aa138346bb5e4e4
--! Hash: sha1:435c8d6d1644cf670cf65bacd0998a9685451876
--! Message: Telegram-native posts: entities and options on drafts and posts, carried from draft to post and series occurrence, sent to the worker; a pinned post's pin and unpin queued when it is published

--! split: 3-post-format.sql
-- Telegram-native posts (README "Post format"): a post's formatting as Telegram entities
-- beside its plain text, and how it goes out (silent, pinned, link preview, URL buttons).
-- The API checks both (api/contract/entities.ts, post_options.ts); the table keeps their shape.
alter table app_public.drafts add column if not exists entities jsonb not null default '[]'
  constraint drafts_entities_check check (jsonb_typeof(entities) = 'array' and jsonb_array_length(entities) <= 100);
alter table app_public.drafts add column if not exists options jsonb not null default '{}'
  constraint drafts_options_check check (jsonb_typeof(options) = 'object');
alter table app_public.posts add column if not exists entities jsonb not null default '[]'
  constraint posts_entities_check check (jsonb_typeof(entities) = 'array' and jsonb_array_length(entities) <= 100);
alter table app_public.posts add column if not exists options jsonb not null default '{}'
  constraint posts_options_check check (jsonb_typeof(options) = 'object');

-- the worker reads them with the rest of the post
do $$
begin
  if not exists (select 1 from pg_attribute where attrelid = 'app_public.post_delivery'::regclass and attname = 'entities') then
    alter type app_public.post_delivery add attribute entities jsonb, add attribute options jsonb;
  end if;
end $$;

-- signatures that gained the formatting and the options (their new bodies are in sql/functions/)
drop function if exists app_public.create_draft(bigint, bigint, text, text, text, integer, integer);
drop function if exists app_public.schedule_post(bigint, bigint, bigint, timestamptz, text, text, text);
drop function if exists app_public.update_post(bigint, bigint, bigint, bigint, timestamptz, text, text, text);
drop function if exists app_public.record_draft_generation(bigint, bigint, text, text);

--! split: 4-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.record_draft_generation(p_job_id bigint, p_draft_id bigint, p_content text, p_error text, p_entities jsonb DEFAULT '[]'::jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: one draft done (its content written) or failed, and the job's progress, in one step */
declare
  v_job app_public.generation_jobs;
begin
  select * into v_job from app_public.generation_jobs where id = p_job_id and status = 'processing' for update;
  if not found or v_job.result -> 'drafts' ? p_draft_id::text then
    return;
  end if;
  if p_error is null then
    update app_public.drafts set content = p_content, entities = coalesce(p_entities, '[]')
    where id = p_draft_id and project_id = v_job.project_id;
  end if;
  update app_public.generation_jobs set result = jsonb_set(
      jsonb_set(result, array['drafts', p_draft_id::text],
        case when p_error is null then '"done"'::jsonb else jsonb_build_object('error', p_error) end),
      '{progress,completed}', to_jsonb(coalesce((result #>> '{progress,completed}')::int, 0) + 1))
  where id = p_job_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_draft(p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order integer, p_max_drafts integer DEFAULT NULL::integer, p_entities jsonb DEFAULT '[]'::jsonb, p_options jsonb DEFAULT '{}'::jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0 as in the spec's data */
declare
  v_draft app_public.drafts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  insert into app_public.drafts (project_id, title, content, entities, image_url, options, sort_order)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), coalesce(p_entities, '[]'), nullif(p_image_url, ''),
          coalesce(p_options, '{}'), coalesce(p_order, 0))
  returning * into v_draft;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_changes jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics; an explicit null or "" imageUrl removes the image; new content
   without its entities is plain (the old formatting would not fit it) */
declare
  v_draft app_public.drafts;
begin
  update app_public.drafts d set
    title = coalesce(btrim(p_changes ->> 'title'), d.title),
    content = coalesce(p_changes ->> 'content', d.content),
    entities = case when p_changes ? 'entities' then p_changes -> 'entities'
                    when p_changes ? 'content' then '[]' else d.entities end,
    options = coalesce(p_changes -> 'options', d.options),
    image_url = case when p_changes ? 'imageUrl' then nullif(p_changes ->> 'imageUrl', '') else d.image_url end,
    sort_order = coalesce((p_changes ->> 'order')::int, d.sort_order)
  from app_public.projects p
  where d.id = p_draft_id and d.project_id = p_project_id and p.id = d.project_id and p.user_id = p_user_id
  returning d.* into v_draft;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  return v_draft;
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
         c.id, c.approver_handle, c.rights_checked_at, p_post.channel_chat_id, p_post.entities, p_post.options
  from app_public.projects pr
  left join app_public.channels c on c.project_id = pr.id and c.status = 'connected'
  where pr.id = p_post.project_id
$function$;

CREATE OR REPLACE FUNCTION app_public.record_published(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_links jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the send succeeded: keep the chat, its message ids and links; the draft leaves the
   list; a post to pin gets its pin (and its unpin) queued in the same step, so a crash
   cannot publish a post without them */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    channel_chat_id = p_chat_id, published_links = p_links, published_at = now(), sending_worker_id = null,
    last_error = null
  where id = p_post_id and status in ('sending', 'uncertain')
  returning * into v_post;
  if found and v_post.options ->> 'pin' = 'true' then
    perform app_private.queue_pinning(v_post);
  end if;
  return v_post;
end;
$function$;

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
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, options, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url,
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
    raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
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
  insert into app_public.posts (project_id, draft_id, series_id, title, content, entities, image_url, options, scheduled_for)
  values (v_series.project_id, v_draft.id, v_series.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url,
          case when v_series.options = '{}' then v_draft.options else v_series.options end, v_at)
  returning * into v_occurrence;
  update app_public.posts set recurring_last_post = v_at where id = v_series.id returning * into v_series;
  perform app_private.queue_approval(v_occurrence);
  perform app_private.queue_series_spawn(v_series, p_now);
  return v_occurrence;
end;
$function$;
