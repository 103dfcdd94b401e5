--! Previous: sha1:25df15791e4cb0890cbf8652bf8c271aaad731ab
--! Hash: sha1:0352e6f582bac202bcfb9bcdc1b191fab1c89ec1
--! Message: A post held for an ad is weighed again every 5 minutes at most, so a window that goes meanwhile lets it go

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
