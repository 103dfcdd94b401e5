-- The ads functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.ad_bot_delete_limit_minutes()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: Telegram lets a bot delete a message only while it is younger than 48 hours
     (AD_BOT_DELETE_LIMIT_MINUTES in contract/ads.ts) */
  select 2880
$function$;

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

CREATE OR REPLACE FUNCTION app_private.ad_labelled_length(p_text text, p_ad jsonb, p_language text)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: the length Telegram counts of a text that goes out with its ad's label as the last
     line (after a blank line, as withAdLabel in contract/ads.ts adds it); the text alone for
     a post that is no ad */
  select length(p_text) + coalesce(2 + length(app_private.ad_label(p_ad, p_language)), 0)
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

CREATE OR REPLACE FUNCTION app_private.ad_removal_lead()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: the bot's right to delete is checked this long before an ad's term as well as at
     it, so an owner told it is missing has time to grant it before the ad overstays */
  select interval '30 minutes'
$function$;

CREATE OR REPLACE FUNCTION app_private.ad_removal_retry()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: at its term, an ad the bot may not delete yet is tried again this often (the owner
     told once) until Telegram's 48 hours run out; then the owner is reminded to delete it by
     hand. Short enough that a granted right ends an overstay within minutes. */
  select interval '10 minutes'
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

CREATE OR REPLACE FUNCTION app_private.ad_totals(p_prices jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: what ads earned, one sum per currency (never added across currencies), from a list of
     their prices ({amount, currency}; nulls, ads sold for nothing named, are skipped), summed
     exactly (numeric) and given with two decimals; by currency code, so the order is stable.
     The ad report's totals and the home card's income of the month say it alike */
  select coalesce(jsonb_agg(jsonb_build_object('currency', t.currency, 'amount', t.amount) order by t.currency), '[]'::jsonb)
  from (
    select p ->> 'currency' as currency, round(sum((p ->> 'amount')::numeric), 2) as amount
    from jsonb_array_elements(coalesce(p_prices, '[]'::jsonb)) p
    where jsonb_typeof(p) = 'object'
    group by 1
  ) t
$function$;

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
  v_length int;
begin
  -- a post that is no ad keeps the drafts' own limit
  if jsonb_typeof(p_ad) is distinct from 'object' then
    return;
  end if;
  v_length := app_private.ad_labelled_length(case when btrim(coalesce(p_content, '')) = '' then coalesce(p_title, '') else p_content end,
    p_ad, (select language from app_public.projects where id = p_project_id));
  if v_length > app_private.post_text_max() then
    raise exception 'The post with its ad label is % characters; Telegram allows %', v_length, app_private.post_text_max()
      using errcode = 'INVAL', hint = 'ads.labelDoesNotFit';
  end if;
end;
$function$;

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

CREATE OR REPLACE FUNCTION app_private.hold_for_ad_window(p_post app_public.posts)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
/*
 * why: nothing else goes out while an ad is on top. A post due inside another ad's window (a
 * series occurrence, a content-plan post, or any post an ad that went out late moved its
 * window over) stays approved with the reason ads.heldForTop {title, until: the window's end
 * in the project's time} and its publication comes back at the window's end, or in 5 minutes
 * when the end is further: it is weighed again then, so a window that goes meanwhile (the ad
 * deleted, moved or taken back) lets it go within minutes, not at the old end, and a window
 * moved later holds it again. Called by begin_sending under the post's row lock and in the
 * project's one publish queue, so the hold, its reason and its new job commit together or not
 * at all. The reason is written only when it changes: a post held for an hour is not touched
 * every 5 minutes (its version, and every open calendar with it, would move each time). True
 * when it held the post.
 */
declare
  v_window record;
  v_params jsonb;
begin
  select w.title, w.top_until into v_window
  from app_private.ad_windows(p_post.project_id, tstzrange(now(), now(), '[]'), p_post.id) w limit 1;
  if not found then
    return false;
  end if;
  v_params := jsonb_build_object('title', v_window.title, 'until',
    to_char(v_window.top_until at time zone (select timezone from app_public.projects where id = p_post.project_id), 'YYYY-MM-DD HH24:MI'));
  update app_public.posts set last_error_code = 'ads.heldForTop', last_error_params = v_params
  where id = p_post.id and (last_error_code, last_error_params) is distinct from ('ads.heldForTop', v_params);
  perform app_private.queue_publication(p_post.id, least(v_window.top_until, now() + interval '5 minutes'));
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.post_ad(p_ad jsonb, p_removed_at timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: a post's ad as the API answers it (PostAd in contract/ads.ts): the sale as given, and
     removedAt, when the bot deleted it at its term (null until then, and for good when it is
     kept or removed by hand), read where a client looks for it (post.ad.removedAt); a post
     that is no ad answers null */
  select case when jsonb_typeof(p_ad) = 'object'
    then p_ad || jsonb_build_object('removedAt', app_private.stats_iso(p_removed_at)) end
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_ad_removal(p_post_id bigint, p_run_at timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: one removal job per ad (its key), in its project's publishing queue like a send: the
     channel's messages are added and taken away one job at a time, and a burst of terms
     holds one worker slot of the account, never every slot */
  select graphile_worker.add_job('posts__remove_ad', json_build_object('postId', p.id),
    queue_name := 'publish:project:' || p.project_id,
    run_at := p_run_at,
    job_key := app_private.post_job_key(p.id, 'removal'), max_attempts := 10)
  from app_public.posts p where p.id = p_post_id
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_ad_term(p_post app_public.posts)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an ad that went out with a feed time gets its term queued in the step that records it
 * published, so no crash can publish an ad without it. A term the bot can keep (under 48
 * hours) is first looked at ad_removal_lead before it, to check the bot's right while there is
 * time to grant it; a longer one comes due at the term itself, for the reminder.
 */
declare
  v_feed int := (p_post.ad ->> 'feedMinutes')::int;
  v_term timestamptz;
begin
  if p_post.status <> 'published' or p_post.ad is null or coalesce(v_feed, 0) <= 0 then
    return;
  end if;
  v_term := app_private.ad_sent_at(p_post.published_at, p_post.scheduled_for) + make_interval(mins => v_feed);
  perform app_private.queue_ad_removal(p_post.id, case when v_feed < app_private.ad_bot_delete_limit_minutes()
    then greatest(now(), v_term - app_private.ad_removal_lead()) else v_term end);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.tell_ad_owners(p_post app_public.posts, p_kind text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: what an ad's term asks of people goes to the project's owners by e-mail (each with
   their own switches and language) and to the channel's approver in Telegram, in their queue */
begin
  -- each kind is named where it is sent (tests/texts.test.ts reads the kinds SQL sends from the calls)
  if p_kind = 'adRemovalDue' then
    perform app_private.notify_member(m.user_id, p_post.project_id, 'adRemovalDue', p_post.id, null, null)
    from app_public.project_members m where m.project_id = p_post.project_id and m.role = 'owner';
  else
    perform app_private.notify_member(m.user_id, p_post.project_id, 'adCannotDelete', p_post.id, null, null)
    from app_public.project_members m where m.project_id = p_post.project_id and m.role = 'owner';
  end if;
  perform app_private.notify_admin(p_post.id, p_kind);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.ad_removal_channel(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_post_id bigint, p_ad jsonb)
 RETURNS TABLE(chat_id bigint, channel_link text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the channel where the bot must be allowed to delete before an ad is planned: the
     project's connected channel, when the post being scheduled or rescheduled (p_ad, else its
     draft's ad; JSON null: none) is an ad the bot deletes at its term (feedMinutes 1-2879).
     Nothing otherwise: no ad, a term kept or reminded of, a published post (its sale is
     kept), no channel yet (checked again before the term). A non-member is refused. */
  select c.chat_id, c.link
  from (select nullif(coalesce(p_ad, (select d.ad from app_public.drafts d where d.id = p_draft_id and d.project_id = p_project_id)), 'null') as ad) a,
       app_private.project_channel(p_project_id) c
  where app_private.authorize(p_user_id, p_project_id, 'posts.write') is not null
    and jsonb_typeof(a.ad) = 'object'
    and (a.ad ->> 'feedMinutes')::int between 1 and app_private.ad_bot_delete_limit_minutes() - 1
    and c.chat_id is not null
    and not exists (select 1 from app_public.posts po where po.id = p_post_id and po.project_id = p_project_id and po.status = 'published')
$function$;

CREATE OR REPLACE FUNCTION app_public.ad_removal_target(p_post_id bigint)
 RETURNS TABLE(action text, chat_id bigint, message_ids bigint[], channel_link text, remove_at timestamp with time zone, refusal text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what an ad's removal job does, read when it runs: 'check' before the term (the
     bot's right), 'remove' at it (the messages, in the chat they went to), 'remind' when the
     bot cannot delete them (a term of 48 hours or more, Telegram's 48 hours ran out while
     the right was missing, or no message id is known: an uncertain send someone said is in
     the channel), or 'none' with the reason to log: the ad was removed or
     reminded of already, it is no published ad with a term, or its chat is no longer the
     project's channel (the messages are history: another chat's administrators never asked
     us to touch them). Nothing for a post deleted since. */
  select case
      when p.status <> 'published' or p.ad is null or t.feed <= 0 or p.ad_removed_at is not null
        or p.ad_removal_reminded_at is not null or changed then 'none'
      when t.feed >= app_private.ad_bot_delete_limit_minutes() or jsonb_array_length(p.channel_message_ids) = 0
        or now() >= t.sent_at + make_interval(mins => app_private.ad_bot_delete_limit_minutes()) - interval '1 minute' then 'remind'
      when now() < t.term then 'check'
      else 'remove' end,
    p.channel_chat_id,
    array(select jsonb_array_elements_text(p.channel_message_ids)::bigint),
    coalesce((select c.link from app_public.channels c where c.project_id = p.project_id and c.chat_id = p.channel_chat_id limit 1), ''),
    t.term,
    case
      when p.status <> 'published' then format('the post is %s, not published', p.status)
      when p.ad is null or t.feed <= 0 then 'the post is no ad with a feed time'
      when p.ad_removed_at is not null then 'the ad was removed already'
      when p.ad_removal_reminded_at is not null then 'the owner was reminded to remove the ad already'
      when changed then format('the ad went out in chat %s, which is no longer the project''s channel', p.channel_chat_id)
    end
  from app_public.posts p,
    lateral (select coalesce((p.ad ->> 'feedMinutes')::int, 0) as feed,
                    app_private.ad_sent_at(p.published_at, p.scheduled_for) as sent_at) f,
    lateral (select f.feed, f.sent_at, f.sent_at + make_interval(mins => f.feed) as term) t,
    lateral (select app_private.post_channel_changed(p.project_id, p.status, p.channel_chat_id, p.approved_chat_id) as changed) c
  where p.id = p_post_id
$function$;

CREATE OR REPLACE FUNCTION app_public.defer_ad_removal(p_post_id bigint, p_run_at timestamp with time zone, p_cannot_delete boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the ad's removal job comes back at p_run_at (its term after the early check, or the
 * retry while the bot may not delete). When the bot lacks the right the owners and the
 * approver are told how to grant it, once per loss of the right (ad_removal_blocked_at); a
 * right found again clears it, so a second loss is told again.
 */
declare
  v_post app_public.posts;
begin
  if p_cannot_delete then
    update app_public.posts set ad_removal_blocked_at = now()
    where id = p_post_id and status = 'published' and ad_removed_at is null and ad_removal_blocked_at is null
    returning * into v_post;
    if found then
      perform app_private.tell_ad_owners(v_post, 'adCannotDelete');
    end if;
  else
    update app_public.posts set ad_removal_blocked_at = null where id = p_post_id and ad_removal_blocked_at is not null;
  end if;
  perform 1 from app_public.posts where id = p_post_id and status = 'published' and ad_removed_at is null and ad_removal_reminded_at is null;
  if found then
    perform app_private.queue_ad_removal(p_post_id, p_run_at);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_ads(p_user_id bigint, p_project_id bigint, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the ad report in one read (AdReport in contract/ads.ts, docs/ads.md, "Ad report"): the ads
   whose format runs from inside [p_from, p_to), by their real send or, not sent yet, their
   planned time (app_private.ad_sent_at), newest first; where each stands in its format
   (app_private.ad_state); its reactions as the Statistics page counts them (the latest count
   of each of its messages in the connected channel, summed); and the totals per currency of
   the listed prices. A rejected or failed ad never ran, so it sold nothing: it is left out
   (the calendar still shows it). At most 1,000 ads, the newest, as on the Statistics page;
   any member may read it, a non-member is told the project does not exist */
declare
  v_channel_id bigint;
  v_chat_id bigint;
  v_result jsonb;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  select c.id, c.chat_id into v_channel_id, v_chat_id
  from app_public.channels c where c.project_id = p_project_id and c.status = 'connected';

  with ads as (
    select p.id, p.title, p.ad, p.scheduled_for, p.published_at, p.channel_chat_id, p.channel_message_ids,
           app_private.ad_sent_at(p.published_at, p.scheduled_for) as sent_at,
           app_private.ad_state(p.ad, p.published_at, p.scheduled_for, p.ad_removed_at, p.ad_removal_reminded_at) as state
    from app_public.posts p
    where p.project_id = p_project_id and p.ad is not null and p.status not in ('rejected', 'failed')
      and app_private.ad_sent_at(p.published_at, p.scheduled_for) >= p_from
      and app_private.ad_sent_at(p.published_at, p.scheduled_for) < p_to
    order by sent_at desc, p.id desc
    limit 1000
  ), reacted as (
    select a.*,
      (select coalesce(sum(m.total), 0)::int from app_private.message_reactions m
       where m.channel_id = v_channel_id and a.channel_chat_id = v_chat_id
         and m.message_id in (select jsonb_array_elements_text(a.channel_message_ids)::bigint)) as reactions
    from ads a
  )
  select jsonb_build_object(
    'items', coalesce(jsonb_agg(jsonb_build_object(
      'postId', r.id, 'title', r.title, 'advertiser', r.ad ->> 'advertiser', 'erid', r.ad ->> 'erid',
      'scheduledFor', app_private.stats_iso(r.scheduled_for), 'publishedAt', app_private.stats_iso(r.published_at),
      'topUntil', r.state -> 'topUntil', 'removeAt', r.state -> 'removeAt', 'removedAt', r.state -> 'removedAt',
      'price', coalesce(r.ad -> 'price', 'null'::jsonb), 'reactions', r.reactions) order by r.sent_at desc, r.id desc), '[]'::jsonb),
    'totals', app_private.ad_totals(jsonb_agg(r.ad -> 'price')))
  into v_result
  from reacted r;
  return v_result;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_ad_removed(p_post_id bigint)
 RETURNS boolean
 LANGUAGE sql
AS $function$
  /* why: the ad's messages are gone from its channel: recorded once, with its line in the
     project's activity (Pressa did it), in one statement (a second worker or a run after a
     crash finds it set and changes nothing); answers whether this call did */
  with removed as (
    update app_public.posts set ad_removed_at = now(), ad_removal_blocked_at = null
    where id = p_post_id and status = 'published' and ad is not null and ad_removed_at is null
    returning id, project_id, title
  )
  select count(*) > 0 from (
    select app_private.log_activity(r.project_id, 'post.adRemoved', 'post', r.id, jsonb_build_object('title', r.title)) from removed r
  ) logged
$function$;

CREATE OR REPLACE FUNCTION app_public.remind_ad_removal(p_post_id bigint)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
/*
 * why: an ad the bot cannot delete (its term is 48 hours or more) is due for removal by hand:
 * recorded once with its notices queued in the same transaction, so a second worker, a retry
 * or a run after a crash reminds nobody twice, and a crash before the commit loses nothing.
 * Answers whether this call reminded.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set ad_removal_reminded_at = now()
  where id = p_post_id and status = 'published' and ad is not null and ad_removed_at is null and ad_removal_reminded_at is null
  returning * into v_post;
  if not found then
    return false;
  end if;
  perform app_private.tell_ad_owners(v_post, 'adRemovalDue');
  perform app_private.log_activity(v_post.project_id, 'post.adRemovalDue', 'post', v_post.id, jsonb_build_object('title', v_post.title));
  return true;
end;
$function$;
