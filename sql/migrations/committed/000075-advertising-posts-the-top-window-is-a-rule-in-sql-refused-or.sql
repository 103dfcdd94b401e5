--! Previous: sha1:785d97591be049f17a30377411bab505131a0ebd
--! Hash: sha1:a6aa16b8820d1c9b5a8ae7f2794ed964e0afd7e0
--! Message: Advertising posts: the top window is a rule in SQL (refused or held, a late ad moves it), the feed time ends in the bot's delete or a reminder to delete by hand, once, and the ad report with the month's ad income on the home card

--! split: 74-ad-removal.sql
-- Feed time of an ad (docs/ads-removal.md): when the owner and the approver were last told
-- the bot may not delete the ad's messages (null: not told, or the right came back), so a
-- removal retried every few minutes tells them once, not at every try.
alter table app_public.posts add column if not exists ad_removal_blocked_at timestamptz;

--! split: 75-ad-report.sql
-- The home cards' read answers the month's ad income too: a changed result, so the function is
-- made again from sql/functions/home_cards.sql.
drop function if exists app_public.account_project_overview(bigint);

--! split: 76-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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

CREATE OR REPLACE FUNCTION app_private.ad_bot_delete_limit_minutes()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: Telegram lets a bot delete a message only while it is younger than 48 hours
     (AD_BOT_DELETE_LIMIT_MINUTES in contract/ads.ts) */
  select 2880
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

CREATE OR REPLACE FUNCTION app_public.record_ad_removed(p_post_id bigint)
 RETURNS boolean
 LANGUAGE sql
AS $function$
  /* why: the ad's messages are gone from its channel: recorded once (a second worker or a
     run after a crash finds it set and changes nothing); answers whether this call did */
  with removed as (
    update app_public.posts set ad_removed_at = now(), ad_removal_blocked_at = null
    where id = p_post_id and status = 'published' and ad is not null and ad_removed_at is null
    returning id
  )
  select exists (select 1 from removed)
$function$;

CREATE OR REPLACE FUNCTION app_private.tell_ad_owners(p_post app_public.posts, p_kind text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: what an ad's term asks of people goes to the project's owners by e-mail (each with
   their own switches and language) and to the channel's approver in Telegram, in their queue */
begin
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
  return true;
end;
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

CREATE OR REPLACE FUNCTION app_private.month_ad_income(p_project_id bigint, p_timezone text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the home card's ad income: the prices of the project's ads published since the
     first of this month in the project's timezone, one sum per currency (app_private.ad_totals,
     as the ad report totals them); [] when none. An ad counts once it went out: planned ones
     are not earned yet, rejected and failed ones never ran. Read through
     posts_project_published_idx, never a scan of the project's history */
  select app_private.ad_totals(jsonb_agg(po.ad -> 'price'))
  from app_public.posts po
  where po.project_id = p_project_id and po.status = 'published' and po.ad is not null
    and po.published_at >= (date_trunc('month', now() at time zone p_timezone) at time zone p_timezone)
$function$;

CREATE OR REPLACE FUNCTION app_public.account_project_overview(p_user_id bigint)
 RETURNS TABLE(project_id bigint, channel_connected boolean, channel_awaiting_handle text, subscribers integer, subscribers_change_7d integer, next_post_at timestamp with time zone, next_post_title text, next_post_recurring boolean, awaiting_approval integer, failed integer, uncertain integer, late_approval integer, late_since timestamp with time zone, ad_income jsonb)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: every home card's figures in one read (docs/statistics.md, home cards): the
     subscribers now (the running count) and their change since the sample of 7 days ago
     (null when either is unknown), the approver still asked to confirm a channel (a request
     expired is none, as on the channels page), the next post, what needs the owner, and what
     the ads published this calendar month (in the project's timezone) earned. Every
     project the user is a member of; each figure is an index lookup per project, never a scan of its
     history. */
  select p.id, c.id is not null, r.approver_handle, s.subscribers,
    s.subscribers - app_private.subscribers_at(c.id, now() - interval '7 days'),
    n.at, n.title, n.recurring,
    coalesce(a.awaiting_approval, 0), coalesce(a.failed, 0), coalesce(a.uncertain, 0), coalesce(a.late_approval, 0), a.late_since,
    app_private.month_ad_income(p.id, p.timezone)
  from app_public.projects p
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  left join app_private.channel_stats s on s.channel_id = c.id
  left join app_public.channels pc on pc.project_id = p.id and pc.status = 'pending'
  left join app_public.approver_requests r on r.channel_id = pc.id and r.created_at > now() - app_private.approver_request_ttl()
  left join lateral app_private.next_planned_post(p.id, now()) n on true
  left join lateral app_private.posts_needing_attention(p.id) a on true
  where p.id in (select m.project_id from app_public.project_members m where m.user_id = p_user_id)
  order by p.created_at desc, p.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.notification_settings(p_user_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the kinds of mail the account wants; a kind not stored yet is on. The weekly summary
     is a column of its own: off for accounts older than it, on for newer ones (migration 46) */
  select '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true, "webhookDisabled": true, "reviewRequested": true,
           "reviewApproved": true, "reviewReturned": true, "postCommented": true, "adRemovalDue": true, "adCannotDelete": true}'::jsonb || notifications
    || jsonb_build_object('weeklySummary', weekly_summary)
  from app_public.users where id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.resend_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_scheduled_for timestamp with time zone)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the owner's answer to a post awaiting approval (most often a late one): send the
 * preview again as it is (p_scheduled_for null), or move the post to a new, future time.
 * Only a post sent for approval and not yet decided qualifies.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.publish');
begin
  if v_post.status <> 'scheduled' or v_post.is_recurring then
    raise exception 'Only a post awaiting approval can be sent again or moved' using errcode = 'EDPUB', hint = 'schedule.notAwaitingApproval';
  end if;
  if p_scheduled_for is not null and p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  -- a move is a new time, kept clear of the ads' top windows like any other
  if p_scheduled_for is not null and v_post.series_id is null and v_post.plan_id is null then
    perform app_private.assert_ad_window_free(p_project_id, p_post_id, p_scheduled_for, v_post.ad, v_post.options);
  end if;
  return app_private.restart_approval(v_post, coalesce(p_scheduled_for, v_post.scheduled_for));
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
  elsif found then
    perform app_private.queue_ad_term(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.unqueue_post_jobs(p_post_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: moving or deleting a post must not leave a job behind to act on it */
begin
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'approval'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'publish'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'spawn'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'content'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'reminder'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'removal'));
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
 * for: if the project's channel is another one now, it goes back to draft, saying why. A
 * post due while another ad is on top is held until the ad's window ends (hold_for_ad_window).
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
  if app_private.hold_for_ad_window(v_post) then
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

CREATE OR REPLACE FUNCTION app_public.record_published(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_links jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the send succeeded: keep the chat, its message ids and links; the draft leaves the
   list; a post to pin gets its pin (and its unpin) queued in the same step, and an ad its
   term (queue_ad_term), so a crash cannot publish a post without them */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    channel_chat_id = p_chat_id, published_links = p_links, published_at = now(), sending_worker_id = null,
    last_error_code = null, last_error_params = '{}'
  where id = p_post_id and status in ('sending', 'uncertain')
  returning * into v_post;
  if not found then
    return v_post;
  end if;
  perform app_private.log_activity(v_post.project_id, 'post.published', 'post', v_post.id,
    jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'url',
      (select l.value from jsonb_each_text(v_post.published_links) l order by l.key limit 1)), null);
  -- how late it went out (docs/operating.md "Metrics"); an early send counts as on time
  perform app_private.observe_metric('publish_lateness_seconds',
    greatest(0, extract(epoch from v_post.published_at - v_post.scheduled_for))::float8);
  if v_post.options ->> 'pin' = 'true' then
    perform app_private.queue_pinning(v_post);
  end if;
  perform app_private.queue_ad_term(v_post);
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
 * for its label. A one-off post's time must keep clear of the ads' top windows
 * (assert_ad_window_free).
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
  perform app_private.assert_ad_window_free(p_project_id, null, p_scheduled_for, nullif(coalesce(p_ad, v_draft.ad), 'null'),
    coalesce(p_options, v_draft.options));
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
    -- a series occurrence or a content-plan post is held by a window, not refused
    if v_post.series_id is null and v_post.plan_id is null then
      perform app_private.assert_ad_window_free(p_project_id, p_post_id, p_scheduled_for, nullif(coalesce(p_ad, v_draft.ad), 'null'),
        coalesce(p_options, v_draft.options));
    end if;
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
