--! Previous: sha1:0352e6f582bac202bcfb9bcdc1b191fab1c89ec1
--! Hash: sha1:b7997698becf944b79d10768e25f45ed937e1033
--! Message: A sale's format (never silent, no pin past its feed time) is weighed when its draft is saved too

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.assert_ad_format(p_ad jsonb, p_options jsonb)
 RETURNS void
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
/*
 * why: what an ad's sale rules out in how it goes out, said when its draft is saved and again
 * when it is planned (a post may bring options of its own): a silent ad (the advertiser pays
 * for the readers' notification: ads.silentAd), and a pin that outlives the post (an unpin
 * after the bot deleted it: ads.pinOutlivesFeed). A post that is no ad passes.
 */
declare
  v_feed int := coalesce((p_ad ->> 'feedMinutes')::int, 0);
begin
  if jsonb_typeof(p_ad) is distinct from 'object' then
    return;
  end if;
  if p_options ->> 'silent' = 'true' then
    raise exception 'An ad goes out with its notification: it cannot be silent' using errcode = 'INVAL', hint = 'ads.silentAd';
  end if;
  if v_feed > 0 and (p_options ->> 'unpinAfterHours')::int * 60 > v_feed then
    raise exception 'The ad is unpinned after % hours but leaves the feed after % minutes', (p_options ->> 'unpinAfterHours')::int, v_feed
      using errcode = 'INVAL', hint = 'ads.pinOutlivesFeed';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.assert_ad_window_free(p_project_id bigint, p_post_id bigint, p_at timestamp with time zone, p_ad jsonb, p_options jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: a one-off post's time is refused where it would break an ad's top window, before it
 * is planned (docs/ads.md "The top window"). Called by every act that sets a one-off post's time
 * (schedule_post, update_post, the move of resend_post_approval). Series occurrences and
 * content-plan posts are not refused but held when they fall due (begin_sending).
 *   - Its format, for an ad (assert_ad_format, also weighed when its draft is saved).
 *   - Any post inside another ad's window, silent or not (a silent post is still the newest
 *     in the channel), and an ad whose window would meet another ad's window or hold a planned
 *     one-off post (draft and in_review included) → ads.topConflict naming the other post.
 *   - A pinned post whose pin (from its send to its unpin, for good without one) would stay
 *     over another ad's window, and an ad whose window a planned pin would stay over →
 *     ads.pinOverWindow naming the other post. A pin already in the channel counts until its
 *     unpin; one there for good is the channel's standing pin, never unpinned by the bot,
 *     and counting it would forbid every ad after it.
 * Checked and planned one request at a time per project (an advisory lock held to the
 * commit), so two requests cannot both take the same hour.
 */
declare
  v_ad jsonb := case when jsonb_typeof(p_ad) = 'object' then p_ad end;
  v_top int := coalesce((v_ad ->> 'topMinutes')::int, 0);
  v_range tstzrange := tstzrange(p_at, p_at + make_interval(mins => v_top), '[)');
  v_pin tstzrange := app_private.ad_pin_range(p_options, p_at);
  v_title text;
begin
  perform app_private.assert_ad_format(v_ad, p_options);
  perform pg_advisory_xact_lock(hashtextextended('ad_windows:' || p_project_id, 0));
  select w.title into v_title from app_private.ad_windows(p_project_id, tstzrange(p_at, p_at, '[]'), p_post_id) w limit 1;
  if not found and v_top > 0 then
    select w.title into v_title from app_private.ad_windows(p_project_id, v_range, p_post_id) w limit 1;
    if not found then
      select po.title into v_title from app_public.posts po
      where po.project_id = p_project_id and po.id is distinct from p_post_id
        and not po.is_recurring and po.series_id is null and po.plan_id is null
        and po.status in ('draft', 'in_review', 'scheduled', 'approved')
        and po.scheduled_for <@ v_range
      order by po.scheduled_for, po.id limit 1;
    end if;
  end if;
  if v_title is not null then
    raise exception 'Nothing else goes out while an ad is on top: the time meets "%"', v_title
      using errcode = 'ADTOP', hint = 'ads.topConflict';
  end if;
  if v_pin is not null then
    select w.title into v_title from app_private.ad_windows(p_project_id, v_pin, p_post_id) w limit 1;
  end if;
  if v_title is null and v_top > 0 then
    select po.title into v_title from app_public.posts po
    where po.project_id = p_project_id and po.id is distinct from p_post_id and po.options ->> 'pin' = 'true'
      and not po.is_recurring and po.status not in ('rejected', 'failed')
      and not (po.status = 'published' and not po.options ? 'unpinAfterHours')
      and app_private.ad_pin_range(po.options, app_private.ad_sent_at(po.published_at, po.scheduled_for)) && v_range
    order by po.scheduled_for, po.id limit 1;
  end if;
  if v_title is not null then
    raise exception 'A pinned post would stay over an ad on top: "%"', v_title
      using errcode = 'ADTOP', hint = 'ads.pinOverWindow';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_draft(p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order integer, p_max_drafts integer DEFAULT NULL::integer, p_entities jsonb DEFAULT '[]'::jsonb, p_options jsonb DEFAULT '{}'::jsonb, p_image_urls text[] DEFAULT NULL::text[], p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0
   as in the spec's data; an ad's text must leave room for its label (assert_ad_fits) and its
   options must suit a sale (assert_ad_format) */
declare
  v_draft app_public.drafts;
  v_images text[];
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  -- an album when one is given, else the one image
  v_images := app_private.assert_project_uploads(p_project_id, coalesce(p_image_urls, array_remove(array[nullif(p_image_url, '')], null)));
  perform app_private.assert_ad_fits(p_project_id, btrim(p_title), p_content, nullif(p_ad, 'null'));
  perform app_private.assert_ad_format(nullif(p_ad, 'null'), p_options);
  insert into app_public.drafts (project_id, title, content, entities, image_url, image_urls, options, sort_order, ad)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), coalesce(p_entities, '[]'), v_images[1], v_images,
          coalesce(p_options, '{}'), coalesce(p_order, 0), nullif(p_ad, 'null'))
  returning * into v_draft;
  perform app_private.log_activity(p_project_id, 'draft.created', 'draft', v_draft.id, jsonb_build_object('title', v_draft.title), p_user_id);
  return v_draft;
end;
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
  perform app_private.assert_ad_format(v_draft.ad, v_draft.options);
  return v_draft;
end;
$function$;
