--! Previous: sha1:d8fccee45ef5f53a935918fbd391f6071b2adc4d
--! Hash: sha1:52d95026286b389c67028e8bafe5cd7d44dc609e
--! Message: A post's ad answers removedAt, when the bot deleted it at its term

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
