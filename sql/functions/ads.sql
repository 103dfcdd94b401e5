-- The ads functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

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
     its top window (from its send, or its planned time until then, to its end), when it leaves the feed (null when it is kept), when the bot removed
     it, when the owner was told to remove it by hand; null for a post that is no ad. Its
     columns, not the row: the routes answer it from whatever function made the row */
  select case when p_ad is not null then jsonb_build_object(
    'topFrom', app_private.stats_iso(app_private.ad_sent_at(p_published_at, p_scheduled_for)),
    'topUntil', app_private.stats_iso(app_private.ad_sent_at(p_published_at, p_scheduled_for) + make_interval(mins => (p_ad ->> 'topMinutes')::int)),
    'removeAt', case when (p_ad ->> 'feedMinutes')::int > 0
                  then app_private.stats_iso(app_private.ad_sent_at(p_published_at, p_scheduled_for) + make_interval(mins => (p_ad ->> 'feedMinutes')::int)) end,
    'removedAt', app_private.stats_iso(p_removed_at),
    'removalRemindedAt', app_private.stats_iso(p_reminded_at)) end
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

CREATE OR REPLACE FUNCTION app_private.ad_windows(p_project_id bigint, p_range tstzrange, p_except_post_id bigint)
 RETURNS TABLE(post_id bigint, title text, top_from timestamp with time zone, top_until timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the one rule of the top window (docs/ads-window.md), read by scheduling, the guards
     and the publish act alike: the project's ads whose window meets p_range (an instant t is
     tstzrange(t, t, '[]')), p_except_post_id's own left out. A window runs from the ad's send
     (ad_sent_at: its real send once out, its planned time until then, so an approved ad that is
     late keeps its planned window until it goes out, and from then its window is where it went
     out) for topMinutes; 0 minutes is no window, and a rejected or failed ad holds none. Web:
     web/src/lib/adWindows.ts says the same, and tests/cases/ad_window_cases.ts holds both. */
  select p.id, p.title, w.top_from, w.top_from + make_interval(mins => (p.ad ->> 'topMinutes')::int)
  from app_public.posts p,
       lateral (select app_private.ad_sent_at(p.published_at, p.scheduled_for) as top_from) w
  where p.project_id = p_project_id and p.ad is not null and p.id is distinct from p_except_post_id
    and p.status not in ('rejected', 'failed') and coalesce((p.ad ->> 'topMinutes')::int, 0) > 0
    and tstzrange(w.top_from, w.top_from + make_interval(mins => (p.ad ->> 'topMinutes')::int), '[)') && p_range
  -- the window that ends last first: a post held by two is held until both are over
  order by 4 desc, p.id
$function$;

CREATE OR REPLACE FUNCTION app_private.ad_pin_range(p_options jsonb, p_from timestamp with time zone)
 RETURNS tstzrange
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: how long a pinned post stays pinned from its send: until its unpin, for good
     without one; null for a post that is not pinned */
  select case when p_options ->> 'pin' = 'true' then
    tstzrange(p_from, p_from + make_interval(hours => (p_options ->> 'unpinAfterHours')::int), '[)') end
$function$;

CREATE OR REPLACE FUNCTION app_private.assert_ad_window_free(p_project_id bigint, p_post_id bigint, p_at timestamp with time zone, p_ad jsonb, p_options jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: a one-off post's time is refused where it would break an ad's top window, before it
 * is planned (docs/ads-window.md). Called by every act that sets a one-off post's time
 * (schedule_post, update_post, the move of resend_post_approval). Series occurrences and
 * content-plan posts are not refused but held when they fall due (begin_sending).
 *   - Its format, for an ad: a silent ad is refused (the advertiser pays for the readers'
 *     notification: ads.silentAd), and so is a pin that outlives the post (an unpin after the
 *     bot deleted it: ads.pinOutlivesFeed).
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
  v_feed int := coalesce((v_ad ->> 'feedMinutes')::int, 0);
  v_range tstzrange := tstzrange(p_at, p_at + make_interval(mins => v_top), '[)');
  v_pin tstzrange := app_private.ad_pin_range(p_options, p_at);
  v_title text;
begin
  if v_ad is not null and p_options ->> 'silent' = 'true' then
    raise exception 'An ad goes out with its notification: it cannot be silent' using errcode = 'INVAL', hint = 'ads.silentAd';
  end if;
  if v_ad is not null and v_feed > 0 and (p_options ->> 'unpinAfterHours')::int * 60 > v_feed then
    raise exception 'The ad is unpinned after % hours but leaves the feed after % minutes', (p_options ->> 'unpinAfterHours')::int, v_feed
      using errcode = 'INVAL', hint = 'ads.pinOutlivesFeed';
  end if;
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

CREATE OR REPLACE FUNCTION app_private.hold_for_ad_window(p_post app_public.posts)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
/*
 * why: nothing else goes out while an ad is on top. A post due inside another ad's window (a
 * series occurrence, a content-plan post, or any post an ad that went out late moved its
 * window over) stays approved with the reason ads.heldForTop {title, until: the window's end
 * in the project's time} and its publication comes back at the window's end, when it is
 * weighed again (a window moved meanwhile holds it again). Called by begin_sending under the
 * post's row lock and in the project's one publish queue, so the hold, its reason and its new
 * job commit together or not at all. True when it held the post.
 */
declare
  v_window record;
begin
  select w.title, w.top_until into v_window
  from app_private.ad_windows(p_post.project_id, tstzrange(now(), now(), '[]'), p_post.id) w limit 1;
  if not found then
    return false;
  end if;
  update app_public.posts set last_error_code = 'ads.heldForTop',
    last_error_params = jsonb_build_object('title', v_window.title, 'until',
      to_char(v_window.top_until at time zone (select timezone from app_public.projects where id = p_post.project_id), 'YYYY-MM-DD HH24:MI'))
  where id = p_post.id;
  perform app_private.queue_publication(p_post.id, v_window.top_until);
  return true;
end;
$function$;
