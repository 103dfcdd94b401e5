-- The uploads functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.assert_project_uploads(p_project_id bigint, p_urls text[])
 RETURNS text[]
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: an album holds only this project's own uploads (the first image is also checked by
   its foreign key; the others only here); answers the album as given */
begin
  if exists (select 1 from unnest(coalesce(p_urls, '{}')) url
             where not exists (select 1 from app_private.uploads u
                               where u.key = app_private.upload_key(url) and u.project_id = p_project_id)) then
    raise exception 'The image is not an upload of this project' using errcode = 'INVAL', hint = 'uploads.notInProject';
  end if;
  return coalesce(p_urls, '{}');
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.upload_key(p_url text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select substring(p_url from '^/api/uploads/([A-Za-z0-9_-]{16,64}\.(?:png|jpg|webp|gif))$')
$function$;

CREATE OR REPLACE FUNCTION app_public.forget_upload(p_key text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: its file could not be stored; nothing refers to it yet */
  delete from app_private.uploads where key = p_key
$function$;

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

CREATE OR REPLACE FUNCTION app_public.record_upload(p_user_id bigint, p_project_id bigint, p_key text, p_content_type text, p_size integer, p_max_bytes bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an upload belongs to a project whose drafts the user may write (NTFND, team.forbidden otherwise), or to the user
 * alone (a bug report's screenshot). It is recorded before its file is stored, so the
 * account's stored bytes are counted one upload at a time (QUOTA over p_max_bytes).
 */
begin
  if p_project_id is not null then
    perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('uploads:' || p_user_id, 0));
  if p_max_bytes is not null
     and (select coalesce(sum(size_bytes), 0) from app_private.uploads where user_id = p_user_id) + p_size > p_max_bytes then
    raise exception 'The images of this account have reached the storage limit. Delete drafts with images you no longer need.'
      using errcode = 'QUOTA', hint = 'uploads.quotaReached';
  end if;
  insert into app_private.uploads (key, project_id, user_id, content_type, size_bytes)
  values (p_key, p_project_id, p_user_id, p_content_type, p_size);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.take_orphan_uploads(p_older_than interval)
 RETURNS SETOF text
 LANGUAGE sql
AS $function$
  /* why: files no draft, post or bug report refers to (by their key columns), older than a
     grace period (a draft being edited may hold a fresh upload not yet saved), are
     forgotten here and their keys answered so the worker deletes the files */
  delete from app_private.uploads u
  where u.created_at < now() - p_older_than
    and not exists (select 1 from app_public.drafts d where d.image_urls @> array['/api/uploads/' || u.key])
    and not exists (select 1 from app_public.posts p where p.image_urls @> array['/api/uploads/' || u.key])
    and not exists (select 1 from app_public.bug_reports b where b.screenshot_key = u.key)
  returning u.key
$function$;
