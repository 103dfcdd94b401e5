--! Previous: sha1:c30b593a190d1e8c77a0af51388496e65a4683e3
--! Hash: sha1:8233376b0d4e4ce6d1662a662ed65937c2d22fa7
--! Message: An ad's state says where its top window begins, and the calendar's rows carry it

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
