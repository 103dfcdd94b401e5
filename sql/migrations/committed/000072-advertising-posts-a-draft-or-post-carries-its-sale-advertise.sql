--! Previous: sha1:9b57893d0aaca979d265dfbe13981f4438d4eab1
--! Hash: sha1:c30b593a190d1e8c77a0af51388496e65a4683e3
--! Message: Advertising posts: a draft or post carries its sale (advertiser, INN, erid, minutes on top and in the feed, price); its label is the last line the approver and the channel read and must fit when saved; a series is never an ad

--! split: 72-ads.sql
-- Advertising posts (docs/ads.md): a draft or post may carry its sale (the advertiser, the
-- label's INN and erid, minutes on top and in the feed, the price); a post records its removal.
alter table app_public.drafts add column if not exists ad jsonb;
alter table app_public.posts add column if not exists ad jsonb;
-- when the bot deleted the ad's messages at the end of its feed time
alter table app_public.posts add column if not exists ad_removed_at timestamptz;
-- when the owner and the approver were told to delete it by hand (a term Telegram lets no bot keep)
alter table app_public.posts add column if not exists ad_removal_reminded_at timestamptz;

alter table app_public.drafts drop constraint if exists drafts_ad_check;
alter table app_public.drafts add constraint drafts_ad_check check (ad is null or jsonb_typeof(ad) = 'object');
alter table app_public.posts drop constraint if exists posts_ad_check;
alter table app_public.posts add constraint posts_ad_check check (ad is null or jsonb_typeof(ad) = 'object');
-- a sale is one post: a series takes rotating drafts and is never itself an ad
alter table app_public.posts drop constraint if exists posts_ad_not_recurring;
alter table app_public.posts add constraint posts_ad_not_recurring check (ad is null or not is_recurring);

-- a project's ads, for the top-window rule and the report (few rows per project)
create index if not exists posts_project_ads_idx on app_public.posts (project_id, scheduled_for) where ad is not null;

-- the publish act's record carries the ad, so the sender adds its label
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
         c.approver_user_id, c.approver_handle, c.rights_checked_at,
         -- a sold post's label goes out as its last line (contract/ads.ts)
         p.ad
  from app_public.posts p
  join app_public.projects pr on pr.id = p.project_id
  left join app_public.channels c on c.project_id = p.project_id and c.status = 'connected';

-- signatures that gain the ad (sql/functions/ holds the new ones)
drop function if exists app_public.create_draft(bigint, bigint, text, text, text, integer, integer, jsonb, jsonb, text[]);
drop function if exists app_public.project_drafts(bigint, bigint);
drop function if exists app_public.schedule_post(bigint, bigint, bigint, timestamptz, text, text, text, jsonb, jsonb, integer, date);
drop function if exists app_public.update_post(bigint, bigint, bigint, bigint, timestamptz, text, text, text, jsonb, jsonb, integer, date);
drop function if exists app_public.write_and_schedule_post(bigint, bigint, timestamptz, text, text, jsonb, jsonb, integer);

--! split: 73-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.ad_label(p_ad jsonb, p_language text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the label the law asks of a sold post, in the project's language, as the channel
     reads it (adLabel in contract/ads.ts says the same; tests/sql/ads.test.ts holds them
     equal); null for a post that is no ad */
  select case when p_ad is null or jsonb_typeof(p_ad) <> 'object' then null
    else case when p_language = 'en' then 'Ad' else 'Реклама' end || '. ' || (p_ad ->> 'advertiser')
      || coalesce(case when p_language = 'en' then ', TIN ' else ', ИНН ' end || nullif(p_ad ->> 'advertiserInn', ''), '')
      || '. erid: ' || (p_ad ->> 'erid')
  end
$function$;

CREATE OR REPLACE FUNCTION app_private.assert_ad_fits(p_project_id bigint, p_title text, p_content text, p_ad jsonb)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: an ad's label is its last line, so the text that goes out is the post's own and the
 * label: refused when saved if together they pass Telegram's limit (ads.labelDoesNotFit,
 * with the length and the maximum), not at the send, when nobody can shorten it in time
 */
declare
  v_label text := app_private.ad_label(p_ad, (select language from app_public.projects where id = p_project_id));
  v_length int;
begin
  if v_label is null then
    return;
  end if;
  v_length := length(case when btrim(coalesce(p_content, '')) = '' then coalesce(p_title, '') else p_content end) + 2 + length(v_label);
  if v_length > app_private.post_text_max() then
    raise exception 'The post with its ad label is % characters; Telegram allows %', v_length, app_private.post_text_max()
      using errcode = 'INVAL', hint = 'ads.labelDoesNotFit';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.ad_sent_at(p_published_at timestamp with time zone, p_scheduled_for timestamp with time zone)
 RETURNS timestamp with time zone
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: an ad's format runs from its real send (an ad that went out late moves its window
     and its term with it); until then from its planned time */
  select coalesce(p_published_at, p_scheduled_for)
$function$;

CREATE OR REPLACE FUNCTION app_private.ad_state(p_ad jsonb, p_published_at timestamp with time zone, p_scheduled_for timestamp with time zone, p_removed_at timestamp with time zone, p_reminded_at timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: where an ad stands in its format, as the API answers it (AdState in contract/ads.ts):
     its top window's end, when it leaves the feed (null when it is kept), when the bot removed
     it, when the owner was told to remove it by hand; null for a post that is no ad. Its
     columns, not the row: the routes answer it from whatever function made the row */
  select case when p_ad is not null then jsonb_build_object(
    'topUntil', app_private.stats_iso(app_private.ad_sent_at(p_published_at, p_scheduled_for) + make_interval(mins => (p_ad ->> 'topMinutes')::int)),
    'removeAt', case when (p_ad ->> 'feedMinutes')::int > 0
                  then app_private.stats_iso(app_private.ad_sent_at(p_published_at, p_scheduled_for) + make_interval(mins => (p_ad ->> 'feedMinutes')::int)) end,
    'removedAt', app_private.stats_iso(p_removed_at),
    'removalRemindedAt', app_private.stats_iso(p_reminded_at)) end
$function$;

CREATE OR REPLACE FUNCTION app_public.create_draft(p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order integer, p_max_drafts integer DEFAULT NULL::integer, p_entities jsonb DEFAULT '[]'::jsonb, p_options jsonb DEFAULT '{}'::jsonb, p_image_urls text[] DEFAULT NULL::text[], p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0
   as in the spec's data; an ad's text must leave room for its label (assert_ad_fits) */
declare
  v_draft app_public.drafts;
  v_images text[];
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  -- an album when one is given, else the one image
  v_images := app_private.assert_project_uploads(p_project_id, coalesce(p_image_urls, array_remove(array[nullif(p_image_url, '')], null)));
  perform app_private.assert_ad_fits(p_project_id, btrim(p_title), p_content, nullif(p_ad, 'null'));
  insert into app_public.drafts (project_id, title, content, entities, image_url, image_urls, options, sort_order, ad)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), coalesce(p_entities, '[]'), v_images[1], v_images,
          coalesce(p_options, '{}'), coalesce(p_order, 0), nullif(p_ad, 'null'))
  returning * into v_draft;
  perform app_private.log_activity(p_project_id, 'draft.created', 'draft', v_draft.id, jsonb_build_object('title', v_draft.title), p_user_id);
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_drafts(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, project_id bigint, title text, content text, entities jsonb, image_url text, image_urls text[], options jsonb, ad jsonb, sort_order integer, status text, created_at timestamp with time zone, updated_at timestamp with time zone, scheduled_post_id bigint, held_by_series_id bigint, held_by_plan_id bigint, next_for_series_id bigint)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the drafts page lists unpublished drafts in the user's order (then oldest first),
     each with what holds it, so the owner sees which drafts are free and the count of free
     ones agrees with queue_health (both read available_series_drafts' rule: no live post
     holds it). The live post holding it (posts_one_live_per_draft: at most one), the series
     that post is an occurrence of, or the content-plan slot autopilot filled with it (plan_id); and
     the first free draft names the running series whose next occurrence takes it (the
     rotation in spawn_series_occurrence), so no draft is taken without the owner seeing it */
  with next_series as (
    select s.id from app_public.posts s
    cross join lateral (select x.at from app_private.series_upcoming(s, now() + make_interval(days => app_private.series_horizon_days_max())) x(at)
                        where x.at > now() limit 1) o
    where s.project_id = p_project_id and s.is_recurring and s.status = 'draft'
    order by o.at, s.id limit 1
  ), first_free as (
    select f.id from app_public.available_series_drafts(p_project_id) f limit 1
  )
  select d.id, d.project_id, d.title, d.content, d.entities, d.image_url, d.image_urls, d.options, d.ad, d.sort_order, d.status,
    d.created_at, d.updated_at, po.id, po.series_id, po.plan_id,
    case when d.id = (select id from first_free) then (select id from next_series) end
  from app_public.drafts d
  left join app_public.posts po on po.draft_id = d.id and po.status not in ('rejected', 'failed')
  where d.project_id = p_project_id and po.status is distinct from 'published'
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by d.sort_order, d.created_at, d.id
$function$;

CREATE OR REPLACE FUNCTION app_public.update_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_changes jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics; imageUrls replaces the album; imageUrl replaces its first image (an
   explicit null or "" removes it, as with one image); new content without its entities is
   plain (the old formatting would not fit it); an ad's text must leave room for its label
   (checked on the row as changed: a shorter label or a longer text both count) */
declare
  v_draft app_public.drafts := app_private.lock_draft(p_user_id, p_project_id, p_draft_id);
  v_images text[];
begin
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
    ad = case when p_changes ? 'ad' then nullif(p_changes -> 'ad', 'null') else d.ad end,
    image_url = v_images[1],
    image_urls = v_images,
    sort_order = coalesce((p_changes ->> 'order')::int, d.sort_order)
  where d.id = p_draft_id
  returning d.* into v_draft;
  perform app_private.assert_ad_fits(p_project_id, v_draft.title, v_draft.content, v_draft.ad);
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
 * must fit the message it edits: a photo's caption stays within Telegram's caption limit,
 * and an album's caption gets no buttons. An ad keeps its label as the last line, so the
 * label counts towards the limit.
 */
declare
  -- the post went out as a photo or an album carrying the text as its caption
  v_caption boolean := cardinality(p_post.image_urls) > 0 and jsonb_array_length(p_post.channel_message_ids) = cardinality(p_post.image_urls);
  v_max int := case when v_caption then app_private.photo_caption_max() else app_private.post_text_max() end;
  v_post app_public.posts;
  v_label text := app_private.ad_label(p_post.ad, (select language from app_public.projects where id = p_post.project_id));
  v_length int := length(p_content) + coalesce(2 + length(v_label), 0);
begin
  if btrim(coalesce(p_content, '')) = '' then
    raise exception 'The edited post needs its text' using errcode = 'INVAL', hint = 'posts.editEmpty';
  end if;
  if v_length > v_max then
    raise exception 'The edited text is longer than the message it edits allows: %/%', v_length, v_max
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

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date, p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content, formatting and image it copies, and its options unless the request gives its
 * own. Recurring: a series with placeholder text whose occurrences take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute). A project without a channel plans too:
 * its posts wait for one (claim_post_for_approval, queue_waiting_approvals). An author's post
 * waits for review (in_review, no approval job), and an author's series makes occurrences
 * that each wait for review; an editor's or owner's skip it. An ad (p_ad: SQL null takes
 * the draft's, JSON null none) is one sold post, never a series, and its text must leave room
 * for its label.
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'posts.write');
  v_review boolean := app_private.needs_review(v_role);
  v_project app_public.projects := (select p from app_public.projects p where p.id = p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring then
    if jsonb_typeof(p_ad) = 'object' then
      raise exception 'An advertising post is one post: it cannot repeat' using errcode = 'INVAL', hint = 'ads.notInSeries';
    end if;
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL', hint = 'schedule.noDraftsForRecurring';
    end if;
    perform app_private.assert_series_end(v_project, p_scheduled_for, p_ends_after, p_ends_on);
    perform 1 from app_public.projects where id = p_project_id for update; -- counted one add at a time
    if (select count(*) from app_public.posts where project_id = p_project_id and is_recurring) >= app_private.series_per_project_max() then
      raise exception 'A project can have at most % recurring series', app_private.series_per_project_max()
        using errcode = 'QUOTA', hint = 'schedule.tooManySeries';
    end if;
    insert into app_public.posts (project_id, title, content, entities, options, scheduled_for, is_recurring, recurring_type,
                                  series_ends_after, series_ends_on, created_by, review_author_id)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), coalesce(p_entities, '[]'), coalesce(p_options, '{}'),
            p_scheduled_for, true, p_recurring_type, p_ends_after, p_ends_on, p_user_id, case when v_review then p_user_id end)
    returning * into v_post;
    perform app_private.queue_series_spawn(v_post, now());
    perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'recurring', v_post.recurring_type), p_user_id);
    return v_post;
  end if;
  v_draft := app_private.draft_for_post(p_project_id, p_draft_id, null);
  perform app_private.assert_ad_fits(p_project_id, v_draft.title, v_draft.content, nullif(coalesce(p_ad, v_draft.ad), 'null'));
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, image_urls, options, scheduled_for, created_by, ad)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          coalesce(p_options, v_draft.options), p_scheduled_for, p_user_id, nullif(coalesce(p_ad, v_draft.ad), 'null'))
  returning * into v_post;
  -- planned, whoever planned it; an author's then waits for review
  perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
  if v_review then
    return app_private.hold_for_review(v_post, p_user_id, false);
  end if;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date, p_ad jsonb DEFAULT NULL::jsonb)
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
 * skipped dates stay skipped). An author's change waits for review (a series': each
 * occurrence it makes); a post waiting for review keeps waiting whoever edits it (the review
 * decides), and an editor's or owner's change of a series lets its occurrences skip review.
 * A one-time post takes its draft's ad unless p_ad gives one (JSON null: none); a published
 * ad keeps its sale and label whatever the request says (the channel's edit keeps the label).
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_before app_public.posts := v_post;
  v_review boolean := app_private.needs_review(app_private.authorize(p_user_id, p_project_id, 'posts.write'));
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
    -- the channel's text is the publishing roles' to change
    perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
    -- only while it is in the project's channel: the chat's own administrators never
    -- approved a later approver or channel
    perform app_private.assert_post_in_channel(v_post);
    -- its time and recurrence are history; its text, formatting and buttons may change
    -- through the approver (request_post_edit)
    if date_trunc('milliseconds', p_scheduled_for) <> date_trunc('milliseconds', v_post.scheduled_for) or v_recurring
       or v_post.is_recurring then
      raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
    end if;
    perform app_private.log_activity(p_project_id, 'post.edited', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'published', true), p_user_id);
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
    perform app_private.assert_ad_fits(p_project_id, v_draft.title, v_draft.content, nullif(coalesce(p_ad, v_draft.ad), 'null'));
  elsif jsonb_typeof(p_ad) = 'object' then
    raise exception 'An advertising post is one post: it cannot repeat' using errcode = 'INVAL', hint = 'ads.notInSeries';
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
    ad = case when v_recurring then null else nullif(coalesce(p_ad, v_draft.ad), 'null') end,
    scheduled_for = p_scheduled_for,
    recurring_type = coalesce(p_recurring_type, 'none'),
    status = 'draft',
    recurring_last_post = case when v_recurring then null else recurring_last_post end,
    series_ends_after = case when v_recurring then p_ends_after end,
    series_ends_on = case when v_recurring then p_ends_on end,
    approval_preview = '{}',
    last_error_code = null, last_error_params = '{}',
    review_author_id = case when not v_recurring then review_author_id when v_review then p_user_id end
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform app_private.queue_series_spawn(v_post, now());
  elsif v_review then
    return app_private.hold_for_review(v_before, p_user_id, false);
  elsif v_before.status = 'in_review' then
    -- an editor's fix keeps the author's request (their Publish) for the review to answer
    return app_private.hold_for_review(v_before, v_before.review_author_id, v_before.review_publish);
  else
    perform app_private.queue_approval(v_post);
  end if;
  perform app_private.log_activity(p_project_id, 'post.edited', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.write_and_schedule_post(p_user_id bigint, p_project_id bigint, p_scheduled_for timestamp with time zone, p_title text, p_content text, p_entities jsonb, p_options jsonb, p_max_drafts integer, p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: write, then schedule, as Telegram's own scheduling does: the schedule form's new
 * post becomes its draft and its one-time post in one transaction, so a refused time leaves
 * no stray draft and no series can take the draft between the two (create_draft checks the
 * member's role and the project's room; schedule_post the time and the draft).
 */
declare
  v_draft app_public.drafts;
begin
  select * into v_draft from app_public.create_draft(p_user_id, p_project_id, p_title, p_content, '', -1, p_max_drafts,
    coalesce(p_entities, '[]'), coalesce(p_options, '{}'), null, p_ad);
  return app_public.schedule_post(p_user_id, p_project_id, v_draft.id, p_scheduled_for, 'none', null, null, null, p_options, null, null, p_ad);
end;
$function$;
