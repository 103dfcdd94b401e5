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
