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
