--! Previous: sha1:a6aa16b8820d1c9b5a8ae7f2794ed964e0afd7e0
--! Hash: sha1:29f265a940d5347f70b9f5644e8a624755c59a71
--! Message: The top window's functions cite docs/ads.md

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.ad_windows(p_project_id bigint, p_range tstzrange, p_except_post_id bigint)
 RETURNS TABLE(post_id bigint, title text, top_from timestamp with time zone, top_until timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the one rule of the top window (docs/ads.md "The top window"), read by scheduling, the guards
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

CREATE OR REPLACE FUNCTION app_private.assert_ad_window_free(p_project_id bigint, p_post_id bigint, p_at timestamp with time zone, p_ad jsonb, p_options jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: a one-off post's time is refused where it would break an ad's top window, before it
 * is planned (docs/ads.md "The top window"). Called by every act that sets a one-off post's time
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
