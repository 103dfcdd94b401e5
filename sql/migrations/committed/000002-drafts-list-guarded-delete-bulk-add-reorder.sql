--! Previous: sha1:5accb53bff2339b82b84a30b5566f76bd13c3cea
--! Hash: sha1:6bfa9e8015559660e4cace96b98631defd48b73a
--! Message: drafts: list, guarded delete, bulk add, reorder

/* A draft is "published" once a post made from it went out; such drafts leave the list. */
create or replace function app_public.project_drafts(p_user_id bigint, p_project_id bigint)
returns setof app_public.drafts
language sql stable as $$
  /* why: the drafts page lists unpublished drafts in the user's order (then oldest first) */
  select d.* from app_public.drafts d
  join app_public.projects p on p.id = d.project_id and p.user_id = p_user_id
  where d.project_id = p_project_id
    and not exists (select 1 from app_public.posts po where po.draft_id = d.id and po.status = 'published')
  order by d.sort_order, d.created_at, d.id
$$;

create or replace function app_public.create_draft(
  p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order int
) returns app_public.drafts
language plpgsql volatile as $$
/* why: ownership first (NTFND), then the row; order defaults to 0 as in the spec's data */
declare
  v_draft app_public.drafts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  insert into app_public.drafts (project_id, title, content, image_url, sort_order)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), nullif(p_image_url, ''), coalesce(p_order, 0))
  returning * into v_draft;
  return v_draft;
end;
$$;

create or replace function app_public.update_draft(
  p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_changes jsonb
) returns app_public.drafts
language plpgsql volatile as $$
/* why: PATCH semantics; an explicit null or "" imageUrl removes the image */
declare
  v_draft app_public.drafts;
begin
  update app_public.drafts d set
    title = coalesce(btrim(p_changes ->> 'title'), d.title),
    content = coalesce(p_changes ->> 'content', d.content),
    image_url = case when p_changes ? 'imageUrl' then nullif(p_changes ->> 'imageUrl', '') else d.image_url end,
    sort_order = coalesce((p_changes ->> 'order')::int, d.sort_order)
  from app_public.projects p
  where d.id = p_draft_id and d.project_id = p_project_id and p.id = d.project_id and p.user_id = p_user_id
  returning d.* into v_draft;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND';
  end if;
  return v_draft;
end;
$$;

create or replace function app_public.delete_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint)
returns app_public.drafts
language plpgsql volatile as $$
/*
 * why: the delete guard of spec §5: a draft whose linked post is still in status draft
 * (planned but not sent for approval) cannot be deleted. Answers the deleted row (its
 * image may need cleaning up).
 */
declare
  v_draft app_public.drafts;
begin
  select d.* into v_draft from app_public.drafts d
  join app_public.projects p on p.id = d.project_id and p.user_id = p_user_id
  where d.id = p_draft_id and d.project_id = p_project_id
  for update of d;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND';
  end if;
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and status = 'draft') then
    raise exception 'drafts.cannotDeleteScheduled' using errcode = 'DRSCH';
  end if;
  delete from app_public.drafts where id = p_draft_id;
  return v_draft;
end;
$$;

create or replace function app_public.bulk_create_drafts(p_user_id bigint, p_project_id bigint, p_titles text[])
returns setof app_public.drafts
language plpgsql volatile as $$
/*
 * why: bulk add (spec §5): lines are trimmed, blank ones ignored, at most 30 remain, all
 * inserted together and appended after the existing drafts in the given order.
 */
declare
  v_titles text[];
  v_next int;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select coalesce(array_agg(btrim(t) order by n), '{}') into v_titles
  from unnest(p_titles) with ordinality as u(t, n)
  where btrim(t) <> '';
  if cardinality(v_titles) = 0 then
    raise exception 'drafts.bulkAddFailed' using errcode = 'INVAL';
  end if;
  if cardinality(v_titles) > 30 then
    raise exception 'drafts.bulkAddMaxLinesError' using errcode = 'INVAL';
  end if;
  select coalesce(max(sort_order) + 1, 0) into v_next from app_public.drafts where project_id = p_project_id;
  return query
    insert into app_public.drafts (project_id, title, sort_order)
    select p_project_id, t, v_next + (n - 1)::int from unnest(v_titles) with ordinality as u(t, n)
    returning *;
end;
$$;

create or replace function app_public.reorder_drafts(p_user_id bigint, p_project_id bigint, p_items jsonb)
returns void
language plpgsql volatile as $$
/*
 * why: drag-reorder saves the whole list in one statement; an id that is not a draft of
 * this project (another project's, or unknown) refuses the whole change.
 */
declare
  v_given int;
  v_updated int;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  if jsonb_typeof(p_items) <> 'array' then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL';
  end if;
  select count(distinct (x ->> 'id')) into v_given from jsonb_array_elements(p_items) x;
  with wanted as (
    select (x ->> 'id')::bigint as id, (x ->> 'order')::int as ord from jsonb_array_elements(p_items) x
  ), moved as (
    update app_public.drafts d set sort_order = wanted.ord
    from wanted where d.id = wanted.id and d.project_id = p_project_id
    returning d.id
  )
  select count(*) into v_updated from moved;
  if v_updated <> v_given or v_given <> jsonb_array_length(p_items) then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL';
  end if;
end;
$$;

/* Every stored upload, so files no row refers to any more can be removed later. */
create table if not exists app_private.uploads (
  key text primary key check (key ~ '^[A-Za-z0-9_-]{16,64}\.(png|jpg|webp|gif)$'),
  project_id bigint references app_public.projects on delete cascade,
  user_id bigint references app_public.users on delete set null,
  content_type text not null,
  size_bytes int not null check (size_bytes > 0),
  created_at timestamptz not null default now()
);
create index if not exists uploads_created_idx on app_private.uploads (created_at);

create or replace function app_public.record_upload(
  p_user_id bigint, p_project_id bigint, p_key text, p_content_type text, p_size int
) returns void
language plpgsql volatile as $$
/* why: an upload belongs to a project the user owns (NTFND otherwise); it is tracked for cleanup */
begin
  if p_project_id is not null then
    perform app_public.get_project(p_user_id, p_project_id);
  end if;
  insert into app_private.uploads (key, project_id, user_id, content_type, size_bytes)
  values (p_key, p_project_id, p_user_id, p_content_type, p_size);
end;
$$;

create or replace function app_public.take_orphan_uploads(p_older_than interval) returns setof text
language sql volatile as $$
  /* why: files no draft, post or bug report refers to, older than a grace period (a draft
     being edited may hold a fresh upload not yet saved), are forgotten here and their keys
     answered so the worker deletes the files */
  delete from app_private.uploads u
  where u.created_at < now() - p_older_than
    and not exists (select 1 from app_public.drafts d where d.image_url like '%/' || u.key)
    and not exists (select 1 from app_public.posts p where p.image_url like '%/' || u.key)
    and not exists (select 1 from app_public.bug_reports b where b.screenshot_url like '%/' || u.key)
  returning u.key
$$;
