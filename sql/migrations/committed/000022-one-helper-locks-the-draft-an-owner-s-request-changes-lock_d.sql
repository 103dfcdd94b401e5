--! Previous: sha1:87a2e06f72396b20a631726e47f7c6d42e085faf
--! Hash: sha1:8c243823935fedad77a42df675ecdd33c84083b4
--! Message: One helper locks the draft an owner's request changes (lock_draft)

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.lock_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: the draft an owner's request changes (edit, delete), locked until the change
   commits; another account's draft, or one of another project, is "not found" */
declare
  v_draft app_public.drafts;
begin
  select d.* into v_draft from app_public.drafts d
  join app_public.projects p on p.id = d.project_id and p.user_id = p_user_id
  where d.id = p_draft_id and d.project_id = p_project_id
  for update of d;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the delete guard of spec §5: a draft whose linked post is still in status draft
 * (planned but not sent for approval) cannot be deleted. Answers the deleted row (its
 * image may need cleaning up).
 */
declare
  v_draft app_public.drafts := app_private.lock_draft(p_user_id, p_project_id, p_draft_id);
begin
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and status = 'draft') then
    raise exception 'drafts.cannotDeleteScheduled' using errcode = 'DRSCH', hint = 'drafts.cannotDeleteScheduled';
  end if;
  delete from app_public.drafts where id = p_draft_id;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_changes jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics; imageUrls replaces the album; imageUrl replaces its first image (an
   explicit null or "" removes it, as with one image); new content without its entities is
   plain (the old formatting would not fit it) */
declare
  v_draft app_public.drafts := app_private.lock_draft(p_user_id, p_project_id, p_draft_id);
  v_images text[];
begin
  v_images := v_draft.image_urls;
  if p_changes ? 'imageUrls' then
    v_images := app_private.assert_project_uploads(p_project_id, array(select jsonb_array_elements_text(p_changes -> 'imageUrls')));
  elsif p_changes ? 'imageUrl' then
    v_images := app_private.assert_project_uploads(p_project_id,
      array_remove(array[nullif(p_changes ->> 'imageUrl', '')], null) || v_draft.image_urls[2:]);
  end if;
  update app_public.drafts d set
    title = coalesce(btrim(p_changes ->> 'title'), d.title),
    content = coalesce(p_changes ->> 'content', d.content),
    entities = case when p_changes ? 'entities' then p_changes -> 'entities'
                    when p_changes ? 'content' then '[]' else d.entities end,
    options = coalesce(p_changes -> 'options', d.options),
    image_url = v_images[1],
    image_urls = v_images,
    sort_order = coalesce((p_changes ->> 'order')::int, d.sort_order)
  where d.id = p_draft_id
  returning d.* into v_draft;
  return v_draft;
end;
$function$;
