--! Previous: sha1:b548812ddcf2cd766de1d5114dd91b03f1aa2b06
--! Hash: sha1:8166b6026684cbf129b1c700fd57ad3286b098c5
--! Message: A one-project API token reads only its project's uploads

--! split: 7-readable-upload-token-project.sql
-- readable_upload takes the one-project token's project (its signature changes)
drop function if exists app_public.readable_upload(bigint, text);

--! split: 8-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.readable_upload(p_user_id bigint, p_key text, p_only_project_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: an upload is served only to the accounts it belongs to (its project's members, or
     the user who sent a bug report's screenshot) and to admins for a bug report's
     screenshot; a one-project API token (p_only_project_id) reaches that project's uploads
     and nothing else of the account, as on every other route. Answers its content type, or
     null (the API then answers 404) */
  select u.content_type from app_private.uploads u
  where u.key = p_key and (p_only_project_id is null or u.project_id = p_only_project_id) and (
    exists (select 1 from app_public.project_members m where m.project_id = u.project_id and m.user_id = p_user_id)
    or (u.project_id is null and u.user_id = p_user_id)
    or (exists (select 1 from app_public.users a where a.id = p_user_id and a.is_admin)
        and exists (select 1 from app_public.bug_reports b where b.screenshot_key = u.key)))
$function$;
