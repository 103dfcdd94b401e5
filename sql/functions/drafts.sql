-- The drafts functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.assert_draft_room(p_project_id bigint, p_adding integer, p_max_drafts integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: a project has at most p_max_drafts drafts; adds to one project are counted one at a time */
begin
  if p_max_drafts is null then
    return;
  end if;
  perform 1 from app_public.projects where id = p_project_id for update;
  if (select count(*) from app_public.drafts where project_id = p_project_id) + p_adding > p_max_drafts then
    raise exception 'A project can have at most % drafts. Delete drafts you no longer need.', p_max_drafts
      using errcode = 'QUOTA', hint = 'drafts.quotaReached';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.lock_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: the draft a member's request changes (edit, delete), locked until the change
   commits, once the role may write drafts; a draft of another project is "not found" */
declare
  v_draft app_public.drafts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  select d.* into v_draft from app_public.drafts d
  where d.id = p_draft_id and d.project_id = p_project_id
  for update of d;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.lock_drafts_order(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: one writer of a project's drafts order at a time (a move, a whole-list reorder; adds
 * take the same row with assert_draft_room), so two tabs' moves apply one after the other.
 * The project row is locked "for no key update": inserts that only reference the project
 * (drafts, posts) are not held up. Only a role that writes drafts reorders them.
 */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  perform 1 from app_public.projects where id = p_project_id for no key update;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.bulk_create_drafts(p_user_id bigint, p_project_id bigint, p_titles text[], p_max_drafts integer DEFAULT NULL::integer)
 RETURNS SETOF app_public.drafts
 LANGUAGE plpgsql
AS $function$
/*
 * why: bulk add (spec §5): lines are trimmed, blank ones ignored, at most bulk_add_lines_max
 * remain, all inserted together (within the project's room) and appended after the existing
 * drafts in the given order.
 */
declare
  v_titles text[];
  v_next int;
  v_draft app_public.drafts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  select coalesce(array_agg(btrim(t) order by n), '{}') into v_titles
  from unnest(p_titles) with ordinality as u(t, n)
  where btrim(t) <> '';
  if cardinality(v_titles) = 0 then
    raise exception 'drafts.bulkAddFailed' using errcode = 'INVAL', hint = 'drafts.bulkAddFailed';
  end if;
  if cardinality(v_titles) > app_private.bulk_add_lines_max() then
    raise exception 'drafts.bulkAddMaxLinesError' using errcode = 'INVAL', hint = 'drafts.bulkAddMaxLinesError';
  end if;
  perform app_private.assert_draft_room(p_project_id, cardinality(v_titles), p_max_drafts);
  select coalesce(max(sort_order) + 1, 0) into v_next from app_public.drafts where project_id = p_project_id;
  for v_draft in
    insert into app_public.drafts (project_id, title, sort_order)
    select p_project_id, t, v_next + (n - 1)::int from unnest(v_titles) with ordinality as u(t, n)
    returning *
  loop
    perform app_private.log_activity(p_project_id, 'draft.created', 'draft', v_draft.id,
      jsonb_build_object('title', v_draft.title), p_user_id);
    return next v_draft;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_draft(p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order integer, p_max_drafts integer DEFAULT NULL::integer, p_entities jsonb DEFAULT '[]'::jsonb, p_options jsonb DEFAULT '{}'::jsonb, p_image_urls text[] DEFAULT NULL::text[], p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0
   as in the spec's data; an ad's text must leave room for its label (assert_ad_fits) and its
   options must suit a sale (assert_ad_format) */
declare
  v_draft app_public.drafts;
  v_images text[];
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  -- an album when one is given, else the one image
  v_images := app_private.assert_project_uploads(p_project_id, coalesce(p_image_urls, array_remove(array[nullif(p_image_url, '')], null)));
  perform app_private.assert_ad_fits(p_project_id, btrim(p_title), p_content, nullif(p_ad, 'null'));
  perform app_private.assert_ad_format(nullif(p_ad, 'null'), p_options);
  insert into app_public.drafts (project_id, title, content, entities, image_url, image_urls, options, sort_order, ad)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), coalesce(p_entities, '[]'), v_images[1], v_images,
          coalesce(p_options, '{}'), coalesce(p_order, 0), nullif(p_ad, 'null'))
  returning * into v_draft;
  perform app_private.log_activity(p_project_id, 'draft.created', 'draft', v_draft.id, jsonb_build_object('title', v_draft.title), p_user_id);
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
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and status in ('draft', 'in_review')) then
    raise exception 'drafts.cannotDeleteScheduled' using errcode = 'DRSCH', hint = 'drafts.cannotDeleteScheduled';
  end if;
  delete from app_public.drafts where id = p_draft_id;
  perform app_private.log_activity(p_project_id, 'draft.deleted', 'draft', p_draft_id, jsonb_build_object('title', v_draft.title), p_user_id);
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.drafts_version(p_user_id bigint, p_project_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the drafts list's ETag says: its drafts and, since each draft says which post
     holds it, the posts too; a non-member is refused (404) */
  select coalesce(l.drafts, 0) || '.' || coalesce(v.version, 0) from app_public.projects p
  left join app_private.list_versions l on l.project_id = p.id
  left join app_private.posts_versions v on v.project_id = p.id
  where p.id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.move_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_after_id bigint)
 RETURNS TABLE(draft_id bigint, draft_order integer)
 LANGUAGE plpgsql
AS $function$
/*
 * why: a drag saves one draft's new place: right after p_after_id, or first when it is null.
 * The list's order is (sort_order, created_at, id) and keys are spread out, so a move usually
 * rewrites one row, taking the key halfway between its new neighbours. When they have no key
 * between them (adjacent or equal keys), the drafts around the place are respaced: a window
 * that doubles until its keys can be spread at least 64 apart (up to the whole list, e.g.
 * after a whole-list reorder left keys 0, 1, 2, …). Answers the moved draft first, then every
 * other draft whose key changed, so a client can update its copy without reloading the list.
 * Keys stay within the API's order range (±1,000,000), and at or above 0 when written at the
 * top, so a draft created with order -1 (the create form) still comes first.
 */
declare
  c_gap constant int := 1024;
  c_min_gap constant int := 64;
  c_max_key constant int := 1000000;
  v_after app_public.drafts;
  v_low bigint;
  v_next bigint;
  v_key bigint;
  v_ids bigint[];
  v_keys bigint[];
  v_count int;
  v_rank int;
  v_lo int;
  v_hi int;
  v_grow int := 1;
  v_l bigint;
  v_u bigint;
  v_step bigint;
begin
  perform app_private.lock_drafts_order(p_user_id, p_project_id);
  perform 1 from app_public.drafts d where d.id = p_draft_id and d.project_id = p_project_id;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  if p_after_id = p_draft_id then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL', hint = 'drafts.reorderFailed';
  end if;

  if p_after_id is null then
    v_low := -1;
    select d.sort_order into v_next from app_public.drafts d
    where d.project_id = p_project_id and d.id <> p_draft_id
    order by d.sort_order, d.created_at, d.id limit 1;
  else
    select * into v_after from app_public.drafts d where d.id = p_after_id and d.project_id = p_project_id;
    if not found then
      raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
    end if;
    v_low := v_after.sort_order;
    select d.sort_order into v_next from app_public.drafts d
    where d.project_id = p_project_id and d.id <> p_draft_id
      and (d.sort_order, d.created_at, d.id) > (v_after.sort_order, v_after.created_at, v_after.id)
    order by d.sort_order, d.created_at, d.id limit 1;
  end if;

  v_key := case when v_next is null then v_low + c_gap else v_low + (v_next - v_low) / 2 end;
  if v_key > v_low and (v_next is null or v_key < v_next) and v_key between -c_max_key and c_max_key then
    return query
      update app_public.drafts d set sort_order = v_key where d.id = p_draft_id returning d.id, d.sort_order;
    return;
  end if;

  -- No room between the neighbours: respace a window of the other drafts around the place.
  select array_agg(d.id order by d.sort_order, d.created_at, d.id),
         array_agg(d.sort_order::bigint order by d.sort_order, d.created_at, d.id)
    into v_ids, v_keys
  from app_public.drafts d where d.project_id = p_project_id and d.id <> p_draft_id;
  v_count := cardinality(v_ids);
  v_rank := coalesce(array_position(v_ids, p_after_id), 0);
  v_lo := greatest(1, v_rank);
  v_hi := least(v_count, v_rank + 1);
  loop
    -- the window's drafts and the moved one share the keys strictly between v_l and v_u
    v_l := case when v_lo > 1 then v_keys[v_lo - 1] else -1 end;
    v_u := case when v_hi < v_count then v_keys[v_hi + 1]
                else least(c_max_key + 1, v_l + (v_hi - v_lo + 3) * c_gap) end;
    v_step := (v_u - v_l) / (v_hi - v_lo + 3);
    exit when v_step >= c_min_gap or (v_lo = 1 and v_hi = v_count);
    v_lo := greatest(1, v_lo - v_grow);
    v_hi := least(v_count, v_hi + v_grow);
    v_grow := v_grow * 2;
  end loop;
  if v_step < 1 then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL', hint = 'drafts.reorderFailed'; -- only past a million drafts
  end if;
  return query
    with window_drafts as (
      select u.id, case when v_lo + u.n - 1 <= v_rank then u.n else u.n + 1 end as pos
      from unnest(v_ids[v_lo:v_hi]) with ordinality as u(id, n)
      union all
      select p_draft_id, v_rank - v_lo + 2
    ), respaced as (
      update app_public.drafts d set sort_order = v_l + w.pos * v_step
      from window_drafts w
      where d.id = w.id and (d.id = p_draft_id or d.sort_order <> v_l + w.pos * v_step)
      returning d.id, d.sort_order
    )
    select r.id, r.sort_order from respaced r order by r.id <> p_draft_id, r.sort_order;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_drafts(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, project_id bigint, title text, content text, entities jsonb, image_url text, image_urls text[], options jsonb, ad jsonb, sort_order integer, status text, created_at timestamp with time zone, updated_at timestamp with time zone, scheduled_post_id bigint, held_by_series_id bigint, held_by_plan_id bigint, next_for_series_id bigint)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the drafts page lists unpublished drafts in the user's order (then oldest first),
     each with what holds it, so the owner sees which drafts are free and the count of free
     ones agrees with queue_health (both read available_series_drafts' rule: no live post
     holds it). The live post holding it (posts_one_live_per_draft: at most one), the series
     that post is an occurrence of, or the content-plan slot autopilot filled with it (plan_id); and
     the first free draft names the running series whose next occurrence takes it (the
     rotation in spawn_series_occurrence), so no draft is taken without the owner seeing it */
  with next_series as (
    select s.id from app_public.posts s
    cross join lateral (select x.at from app_private.series_upcoming(s, now() + make_interval(days => app_private.series_horizon_days_max())) x(at)
                        where x.at > now() limit 1) o
    where s.project_id = p_project_id and s.is_recurring and s.status = 'draft'
    order by o.at, s.id limit 1
  ), first_free as (
    select f.id from app_public.available_series_drafts(p_project_id) f limit 1
  )
  select d.id, d.project_id, d.title, d.content, d.entities, d.image_url, d.image_urls, d.options, d.ad, d.sort_order, d.status,
    d.created_at, d.updated_at, po.id, po.series_id, po.plan_id,
    case when d.id = (select id from first_free) then (select id from next_series) end
  from app_public.drafts d
  left join app_public.posts po on po.draft_id = d.id and po.status not in ('rejected', 'failed')
  where d.project_id = p_project_id and po.status is distinct from 'published'
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by d.sort_order, d.created_at, d.id
$function$;

CREATE OR REPLACE FUNCTION app_public.reorder_drafts(p_user_id bigint, p_project_id bigint, p_items jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the spec's whole-list reorder, kept for its clients (the SPA moves one draft at a time,
 * move_draft): one statement; an id that is not a draft of this project (another project's,
 * or unknown) refuses the whole change. It takes the drafts order's lock, like a move.
 */
declare
  v_given int;
  v_updated int;
begin
  perform app_private.lock_drafts_order(p_user_id, p_project_id);
  if jsonb_typeof(p_items) <> 'array' then
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL', hint = 'drafts.reorderFailed';
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
    raise exception 'drafts.reorderFailed' using errcode = 'INVAL', hint = 'drafts.reorderFailed';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_changes jsonb)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics; imageUrls replaces the album; imageUrl replaces its first image (an
   explicit null or "" removes it, as with one image); new content without its entities is
   plain (the old formatting would not fit it); an ad's text must leave room for its label
   (checked on the row as changed: a shorter label or a longer text both count) */
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
    ad = case when p_changes ? 'ad' then nullif(p_changes -> 'ad', 'null') else d.ad end,
    image_url = v_images[1],
    image_urls = v_images,
    sort_order = coalesce((p_changes ->> 'order')::int, d.sort_order)
  where d.id = p_draft_id
  returning d.* into v_draft;
  perform app_private.assert_ad_fits(p_project_id, v_draft.title, v_draft.content, v_draft.ad);
  perform app_private.assert_ad_format(v_draft.ad, v_draft.options);
  return v_draft;
end;
$function$;
