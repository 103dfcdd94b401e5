--! Previous: sha1:fdd87048e698ce6a7b488250da630ee2a08f1731
--! Hash: sha1:57af2919c7dd8b986b236ec6e13eb9aaeaf1bf1c
--! Message: Error codes named at every raise (hint), limits read from one function each, timezones from one list

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.assert_admin(p_user_id bigint)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: every admin function starts here; a signed-in non-admin gets FORBD (403) */
begin
  if not exists (select 1 from app_public.users where id = p_user_id and is_admin) then
    raise exception 'Only administrators can do this' using errcode = 'FORBD', hint = 'forbidden';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.set_bug_report_status(p_user_id bigint, p_report_id bigint, p_status text)
 RETURNS app_public.bug_reports
 LANGUAGE plpgsql
AS $function$
/* why: an admin may move a report to any status from any other (spec §4) */
declare
  v_report app_public.bug_reports;
begin
  perform app_private.assert_admin(p_user_id);
  update app_public.bug_reports set status = p_status where id = p_report_id returning * into v_report;
  if not found then
    raise exception 'Bug report not found' using errcode = 'NTFND', hint = 'bugReports.notFound';
  end if;
  return v_report;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_generation_job(p_user_id bigint, p_project_id bigint, p_draft_ids bigint[], p_post_length integer)
 RETURNS app_public.generation_jobs
 LANGUAGE plpgsql
AS $function$
/*
 * why: "generate content" for 1 to drafts_per_generation_max selected drafts of the
 * project: a job row the client polls, and the worker job that fills the drafts, queued in
 * the same transaction. While another job of the project is running it is refused (GJRUN,
 * the detail is that job's id); a job silent for 15 minutes (its worker lost it for good)
 * no longer counts.
 */
declare
  v_ids bigint[];
  v_job app_public.generation_jobs;
  v_running bigint;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  perform pg_advisory_xact_lock(hashtextextended('generation_job:' || p_project_id, 0));
  select id into v_running from app_public.generation_jobs
  where project_id = p_project_id and status in ('pending', 'processing') and updated_at > now() - interval '15 minutes'
  order by id desc limit 1;
  if v_running is not null then
    raise exception 'Content is already being generated for this project; wait for that job to finish'
      using errcode = 'GJRUN', hint = 'drafts.generationRunning', detail = v_running::text;
  end if;
  select coalesce(array_agg(distinct id), '{}') into v_ids from unnest(p_draft_ids) as id;
  if cardinality(v_ids) = 0 then
    raise exception 'drafts.noSelectedDrafts' using errcode = 'INVAL', hint = 'drafts.noSelectedDrafts';
  end if;
  if cardinality(v_ids) > app_private.drafts_per_generation_max() then
    raise exception 'drafts.tooManyDraftsSelected' using errcode = 'INVAL', hint = 'drafts.tooManyDraftsSelected';
  end if;
  if (select count(*) from app_public.drafts where project_id = p_project_id and id = any(v_ids)) <> cardinality(v_ids) then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  -- keep the user's order of the list
  select array_agg(id order by sort_order, created_at, id) into v_ids
  from app_public.drafts where id = any(v_ids);
  insert into app_public.generation_jobs (project_id, type, data, result)
  values (p_project_id, 'generate_content',
          jsonb_build_object('draftIds', to_jsonb(v_ids), 'postLength', p_post_length),
          jsonb_build_object('progress', jsonb_build_object('completed', 0, 'total', cardinality(v_ids)),
                             'drafts', '{}'::jsonb))
  returning * into v_job;
  perform graphile_worker.add_job('drafts__generate_content', json_build_object('jobId', v_job.id), max_attempts := 3);
  return v_job;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.get_generation_job(p_user_id bigint, p_project_id bigint, p_job_id bigint)
 RETURNS app_public.generation_jobs
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the client polls its job; another user's job is "not found" */
declare
  v_job app_public.generation_jobs;
begin
  select j.* into v_job from app_public.generation_jobs j
  join app_public.projects p on p.id = j.project_id and p.user_id = p_user_id
  where j.id = p_job_id and j.project_id = p_project_id;
  if not found then
    raise exception 'Job not found' using errcode = 'NTFND', hint = 'jobs.notFound';
  end if;
  return v_job;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.start_generation_job(p_job_id bigint)
 RETURNS TABLE(draft_id bigint, title text, post_length integer, project_id bigint)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the worker's start (or restart) of a job: it becomes processing and answers the
 * drafts still to do, so a restarted job never regenerates a finished draft.
 */
declare
  v_job app_public.generation_jobs;
begin
  update app_public.generation_jobs set status = 'processing'
  where id = p_job_id and status in ('pending', 'processing')
  returning * into v_job;
  if not found then
    return;
  end if;
  return query
    select d.id, d.title,
      coalesce((v_job.data ->> 'postLength')::int, app_private.generated_post_length_default()), v_job.project_id
    from jsonb_array_elements_text(v_job.data -> 'draftIds') with ordinality as ids(id, n)
    join app_public.drafts d on d.id = ids.id::bigint
    where not (v_job.result -> 'drafts' ? ids.id)
    order by ids.n;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.add_channel(p_user_id bigint, p_project_id bigint, p_type text, p_link text, p_chat_id bigint, p_approver_user_id bigint, p_approver_handle text, p_approver_name text)
 RETURNS app_public.channels
 LANGUAGE plpgsql
AS $function$
/*
 * why: stores a channel that Telegram confirmed (the bot may post; the approver is its
 * creator or an administrator who may post) as connected, with the approver pinned by
 * user id. One channel per project and one project per chat are unique constraints, so
 * of two concurrent adds exactly one wins; the other is told which rule it met.
 */
declare
  v_channel app_public.channels;
  v_constraint text;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  insert into app_public.channels (project_id, type, link, status, config, chat_id,
    approver_user_id, approver_handle, approver_name, rights_checked_at)
  values (p_project_id, p_type, p_link, 'connected',
          jsonb_build_object('chatId', p_chat_id, 'adminChatId', p_approver_user_id), p_chat_id,
          p_approver_user_id, ltrim(p_approver_handle, '@'), p_approver_name, now())
  returning * into v_channel;
  return v_channel;
exception when unique_violation then
  get stacked diagnostics v_constraint = constraint_name;
  if v_constraint = 'channels_chat_id_key' then
    raise exception '% is already connected in another project or account. It must be disconnected there first.', p_link
      using errcode = 'CHCON', hint = 'channels.alreadyConnected';
  end if;
  raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM', hint = 'channels.limitReached';
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.approver_change_prerequisites(p_user_id bigint, p_project_id bigint, p_handle text)
 RETURNS TABLE(channel_chat_id bigint, channel_link text, admin_chat_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: a project with a connected channel may only name a new admin whom Telegram confirms
 * as an administrator of that channel. Answers what to ask Telegram (no row when nothing
 * needs checking: no channel, or the same handle); refuses a handle that has not messaged
 * the bot (ADMNR), as connecting does.
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_channel app_public.channels := app_private.project_channel(p_project_id);
  v_handle text := ltrim(btrim(p_handle), '@');
  v_chat_id bigint;
begin
  if v_channel.id is null or lower(v_handle) = lower(v_project.admin_handle) then
    return;
  end if;
  select a.chat_id into v_chat_id from app_public.admin_chat_ids a where a.admin_handle = lower(v_handle);
  if v_chat_id is null then
    raise exception 'The admin @% has not messaged the bot yet: the admin must message the bot first', v_handle
      using errcode = 'ADMNR', hint = 'channels.adminNotRegistered';
  end if;
  return query select v_channel.chat_id, v_channel.link, v_chat_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.channel_prerequisites(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(admin_handle text, admin_chat_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: before asking Telegram anything, check what the database alone can refuse: the
 * project is the user's (NTFND), it has no channel yet (CHLIM), and its admin has
 * messaged the bot (ADMNR, naming the handle). The admin's chat id is their user id,
 * which Telegram is then asked about.
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_chat_id bigint;
begin
  if exists (select 1 from app_public.channels where project_id = p_project_id) then
    raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM', hint = 'channels.limitReached';
  end if;
  select a.chat_id into v_chat_id from app_public.admin_chat_ids a where a.admin_handle = lower(v_project.admin_handle);
  if v_chat_id is null then
    raise exception 'The admin @% has not messaged the bot yet: the admin must message the bot first', v_project.admin_handle
      using errcode = 'ADMNR', hint = 'channels.adminNotRegistered';
  end if;
  return query select v_project.admin_handle, v_chat_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_channel(p_user_id bigint, p_project_id bigint, p_channel_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: disconnecting a channel withdraws every approval given for it; another user's channel is "not found" */
declare
  v_link text;
begin
  delete from app_public.channels c using app_public.projects p
  where c.id = p_channel_id and c.project_id = p_project_id and p.id = c.project_id and p.user_id = p_user_id
  returning c.link into v_link;
  if not found then
    raise exception 'Channel not found' using errcode = 'NTFND', hint = 'channels.noSuchChannel';
  end if;
  perform app_private.withdraw_approvals(p_project_id,
    format('The channel %s was disconnected before this post went out; publish it again to send it for approval', v_link),
    'channelChanged');
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
 * (drafts, posts) are not held up. Another account's project is "not found".
 */
begin
  perform 1 from app_public.projects where id = p_project_id and user_id = p_user_id for no key update;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
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
begin
  perform app_public.get_project(p_user_id, p_project_id);
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
  return query
    insert into app_public.drafts (project_id, title, sort_order)
    select p_project_id, t, v_next + (n - 1)::int from unnest(v_titles) with ordinality as u(t, n)
    returning *;
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
  v_draft app_public.drafts;
begin
  select d.* into v_draft from app_public.drafts d
  join app_public.projects p on p.id = d.project_id and p.user_id = p_user_id
  where d.id = p_draft_id and d.project_id = p_project_id
  for update of d;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and status = 'draft') then
    raise exception 'drafts.cannotDeleteScheduled' using errcode = 'DRSCH', hint = 'drafts.cannotDeleteScheduled';
  end if;
  delete from app_public.drafts where id = p_draft_id;
  return v_draft;
end;
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
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.bulk_add_lines_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the titles one bulk add may hold (BULK_ADD_MAX_LINES in TypeScript) */
  select 30
$function$;

CREATE OR REPLACE FUNCTION app_private.drafts_per_generation_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the drafts one generation job may fill (DRAFTS_PER_GENERATION_MAX in TypeScript) */
  select 30
$function$;

CREATE OR REPLACE FUNCTION app_private.generated_post_length_default()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the post length a job asks for when it names none (GENERATED_POST_LENGTH.default in TypeScript) */
  select 1500
$function$;

CREATE OR REPLACE FUNCTION app_private.post_text_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: Telegram's longest message text (POST_CONTENT_MAX in TypeScript) */
  select 4096
$function$;

CREATE OR REPLACE FUNCTION app_private.session_ttl()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how long a session lives after its last use (SESSION_TTL_DAYS, the cookie's Max-Age) */
  select interval '30 days'
$function$;

CREATE OR REPLACE FUNCTION app_private.sign_in_code_attempts_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the wrong tries that kill a sign-in code, counted where codes are issued and checked */
  select 5
$function$;

CREATE OR REPLACE FUNCTION app_private.sign_in_code_ttl()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how long a sign-in code is valid (SIGN_IN_CODE_TTL_MINUTES: the mail says it) */
  select interval '10 minutes'
$function$;

CREATE OR REPLACE FUNCTION app_private.supported_timezones()
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: spec §3, UTC plus 23 cities, in the order the SPA lists them (TIMEZONES in
     TypeScript; tests/sql/limits.test.ts keeps each limit equal to its twin) */
  select array[
    'UTC', 'Europe/London', 'Europe/Paris', 'Europe/Berlin', 'Europe/Athens', 'Europe/Kaliningrad',
    'Europe/Moscow', 'Europe/Samara', 'Asia/Yekaterinburg', 'Asia/Omsk', 'Asia/Krasnoyarsk',
    'Asia/Irkutsk', 'Asia/Yakutsk', 'Asia/Vladivostok', 'Asia/Magadan', 'Asia/Kamchatka',
    'Asia/Dubai', 'Asia/Singapore', 'Asia/Tokyo', 'America/New_York', 'America/Chicago',
    'America/Denver', 'America/Los_Angeles', 'Australia/Sydney']
$function$;

CREATE OR REPLACE FUNCTION app_public.post_for_approval(p_post_id bigint, p_job_id text)
 RETURNS app_public.post_delivery
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over Telegram's maximum (post_text_max) fails the post with the reason instead of
 * sending; a project without a channel leaves it a draft saying so. The claim lets one job
 * send the preview when the automatic request and Publish meet; the same job retried after
 * a crash takes its claim back, and any job may take a claim older than two minutes. The
 * claim records which chat the preview asks about.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_message_ids ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > app_private.post_text_max() then
    update app_public.posts set status = 'failed',
      last_error = format('schedule.captionTooLong: %s/%s', length(v_post.content), app_private.post_text_max())
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_message_ids ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_message_ids ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    update app_public.posts set status = 'draft', approval_message_ids = '{}', approval_chat_id = null,
      last_error = 'Connect a channel before publishing'
    where id = p_post_id;
    return null;
  end if;
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_message_ids = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id)
  where id = p_post_id returning * into v_post;
  return app_private.delivery(v_post);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's maximum (post_text_max) is refused here, naming the length and the maximum. A
 * post already sent for approval (the automatic request 2 hours before came first) answers
 * as it is: what the user asked for is under way.
 */
declare
  v_post app_public.posts;
  v_length int;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL', hint = 'schedule.seriesNotPublishable';
  end if;
  if v_post.status = 'scheduled' then
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL', hint = 'schedule.notPlanned';
  end if;
  v_length := length(v_post.content);
  if v_length > app_private.post_text_max() then
    raise exception 'schedule.captionTooLong: %/%', v_length, app_private.post_text_max() using errcode = 'CLONG', hint = 'schedule.captionTooLong';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN', hint = 'schedule.noChannelToPublish';
  end if;
  update app_public.posts set status = 'scheduled', last_error = null where id = p_post_id returning * into v_post;
  perform graphile_worker.add_job('posts__send_approval', json_build_object('postId', v_post.id),
    job_key := app_private.post_job_key(v_post.id, 'approval'), max_attempts := 10);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.resolve_uncertain_post_as_owner(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_in_channel boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the project's owner may answer the same question from the post's details (they can
 * look at the channel too). A post no longer uncertain (the admin answered first) is
 * answered as it is, unchanged.
 */
declare
  v_post app_public.posts;
begin
  perform 1 from app_public.posts po join app_public.projects pr on pr.id = po.project_id
  where po.id = p_post_id and po.project_id = p_project_id and pr.user_id = p_user_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  v_post := app_private.resolve_uncertain(p_post_id, p_in_channel);
  if v_post.id is null then
    select * into v_post from app_public.posts where id = p_post_id;
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_delete_series boolean)
 RETURNS SETOF app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: deletes a post (or, for a series or one of its occurrences with p_delete_series,
 * the series and its unpublished occurrences) and every job that would act on it. Answers
 * the deleted rows so the caller can remove their channel messages. A post being sent
 * right now cannot be deleted.
 */
declare
  v_post app_public.posts;
  v_series_id bigint;
  v_row app_public.posts;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  v_series_id := case when v_post.is_recurring then v_post.id else v_post.series_id end;
  for v_row in
    select * from app_public.posts
    where project_id = p_project_id
      and (id = p_post_id
           or (p_delete_series and v_series_id is not null
               and (id = v_series_id or (series_id = v_series_id and status <> 'published'))))
    for update
  loop
    if v_row.status = 'sending' then
      raise exception 'The post is being published right now; try again in a moment' using errcode = 'EDPUB', hint = 'schedule.cannotDeleteSending';
    end if;
    perform app_private.retract_approval(v_row, 'deleted');
    perform app_private.unqueue_post_jobs(v_row.id);
    delete from app_public.posts where id = v_row.id;
    return next v_row;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content and image it copies. Recurring: a series with placeholder text whose occurrences
 * take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute).
 */
declare
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before scheduling posts' using errcode = 'NOCHN', hint = 'schedule.noChannel';
  end if;
  if v_recurring then
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL', hint = 'schedule.noDraftsForRecurring';
    end if;
    insert into app_public.posts (project_id, title, content, scheduled_for, is_recurring, recurring_type)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), p_scheduled_for, true, p_recurring_type)
    returning * into v_post;
    perform graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', v_post.id),
      run_at := greatest(now(), p_scheduled_for - app_private.approval_lead()),
      job_key := app_private.post_job_key(v_post.id, 'spawn'));
    return v_post;
  end if;
  if p_draft_id is null then
    raise exception 'schedule.selectDraft' using errcode = 'INVAL', hint = 'schedule.selectDraft';
  end if;
  select * into v_draft from app_public.drafts where id = p_draft_id and project_id = p_project_id;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and status not in ('rejected', 'failed')) then
    raise exception 'schedule.draftAlreadyScheduled' using errcode = 'INVAL', hint = 'schedule.draftAlreadyScheduled';
  end if;
  insert into app_public.posts (project_id, draft_id, title, content, image_url, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.image_url, p_scheduled_for)
  returning * into v_post;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post cannot be edited; one being sent
 * cannot either. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again).
 */
declare
  v_post app_public.posts;
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  perform app_public.get_project(p_user_id, p_project_id);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  if v_post.status = 'published' then
    raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
  end if;
  if v_post.status in ('sending', 'uncertain') then
    raise exception 'The post is being published right now and cannot be edited' using errcode = 'EDPUB', hint = 'schedule.cannotEditSending';
  end if;
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring <> v_post.is_recurring then
    raise exception 'A one-time post cannot become recurring or the other way round; delete it and schedule anew'
      using errcode = 'INVAL', hint = 'schedule.cannotChangeRecurrence';
  end if;
  if not v_recurring then
    if p_draft_id is null then
      raise exception 'schedule.selectDraft' using errcode = 'INVAL', hint = 'schedule.selectDraft';
    end if;
    select * into v_draft from app_public.drafts where id = p_draft_id and project_id = p_project_id;
    if not found then
      raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
    end if;
    if exists (select 1 from app_public.posts where draft_id = p_draft_id and id <> p_post_id
               and status not in ('rejected', 'failed')) then
      raise exception 'schedule.draftAlreadyScheduled' using errcode = 'INVAL', hint = 'schedule.draftAlreadyScheduled';
    end if;
  end if;
  perform app_private.retract_approval(v_post, 'edited');
  perform app_private.unqueue_post_jobs(v_post.id);
  update app_public.posts set
    draft_id = case when v_recurring then null else v_draft.id end,
    title = case when v_recurring then coalesce(p_title, title) else v_draft.title end,
    content = case when v_recurring then coalesce(p_content, content) else v_draft.content end,
    image_url = case when v_recurring then null else v_draft.image_url end,
    scheduled_for = p_scheduled_for,
    recurring_type = coalesce(p_recurring_type, 'none'),
    status = 'draft',
    recurring_last_post = case when v_recurring then null else recurring_last_post end,
    approval_message_ids = '{}',
    last_error = null
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform graphile_worker.add_job('posts__spawn_occurrence', json_build_object('seriesId', v_post.id),
      run_at := greatest(now(), app_private.series_next_time(v_post) - app_private.approval_lead()),
      job_key := app_private.post_job_key(v_post.id, 'spawn'));
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_project(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: deleting a project removes its channel, drafts, posts, chat, jobs and uploads
 * (cascade); their files are deleted by the worker (uploads__delete), and their URLs
 * answer 404 at once since the rows are gone.
 */
declare
  v_keys text[];
begin
  select coalesce(array_agg(key), '{}') into v_keys from app_private.uploads
  where project_id = p_project_id and exists (select 1 from app_public.projects where id = p_project_id and user_id = p_user_id);
  delete from app_public.projects where id = p_project_id and user_id = p_user_id;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  if cardinality(v_keys) > 0 then
    perform graphile_worker.add_job('uploads__delete', json_build_object('keys', to_jsonb(v_keys)), max_attempts := 10);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.get_project(p_user_id bigint, p_project_id bigint)
 RETURNS app_public.projects
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: ownership check shared by every project-scoped call: another user's project is "not found" */
declare
  v_project app_public.projects;
begin
  select * into v_project from app_public.projects where id = p_project_id and user_id = p_user_id;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb, p_approver jsonb)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
/*
 * why: PATCH semantics: only the keys present in p_changes change. A new admin handle on a
 * project with a connected channel must come with the approver Telegram confirmed for that
 * very chat (p_approver: userId, handle, name, chatId; see approver_change_prerequisites),
 * else nothing changes (APRNV). The approver then moves, and posts waiting for approval are
 * asked again of the new approver (the old previews lose their buttons).
 */
declare
  v_project app_public.projects;
  v_channel app_public.channels;
  v_handle text := ltrim(btrim(p_changes ->> 'adminHandle'), '@');
  v_moved boolean := false;
  v_post app_public.posts;
begin
  select * into v_project from app_public.projects where id = p_project_id and user_id = p_user_id for update;
  if not found then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  select * into v_channel from app_public.channels
  where project_id = p_project_id and status = 'connected' for update;
  if v_handle is not null and lower(v_handle) <> lower(v_project.admin_handle) and v_channel.id is not null then
    if p_approver is null or lower(ltrim(p_approver ->> 'handle', '@')) <> lower(v_handle)
       or (p_approver ->> 'chatId')::bigint is distinct from v_channel.chat_id then
      raise exception 'The new admin @% is not confirmed as an administrator of %', v_handle, v_channel.link
        using errcode = 'APRNV', hint = 'projects.approverNotConfirmed';
    end if;
    v_moved := (p_approver ->> 'userId')::bigint is distinct from v_channel.approver_user_id;
    update app_public.channels set approver_user_id = (p_approver ->> 'userId')::bigint, approver_handle = v_handle,
      approver_name = p_approver ->> 'name', rights_checked_at = now(),
      config = config || jsonb_build_object('adminChatId', (p_approver ->> 'userId')::bigint)
    where id = v_channel.id;
  end if;
  update app_public.projects p set
    name = coalesce(btrim(p_changes ->> 'name'), p.name),
    description = coalesce(p_changes ->> 'description', p.description),
    writing_style = coalesce(p_changes -> 'writingStyle', p.writing_style),
    admin_handle = coalesce(v_handle, p.admin_handle),
    timezone = coalesce(p_changes ->> 'timezone', p.timezone),
    language = coalesce(p_changes ->> 'language', p.language),
    sources = coalesce(p_changes ->> 'sources', p.sources)
  where p.id = p_project_id
  returning * into v_project;
  if v_moved then
    for v_post in
      select * from app_public.posts where project_id = p_project_id and status = 'scheduled' for update
    loop
      perform app_private.retract_approval(v_post, 'approverChanged');
      update app_public.posts set approval_message_ids = '{}', approval_chat_id = null where id = v_post.id;
      perform graphile_worker.add_job('posts__send_approval', json_build_object('postId', v_post.id),
        job_key := app_private.post_job_key(v_post.id, 'approval'), max_attempts := 10);
    end loop;
  end if;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.count_sign_in_attempt(p_ip text, p_kind text, p_max integer)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: the per-address rules (3 codes, 5 tries) do not stop one client spraying requests
 * over many addresses. Each code request or check of a client IP counts here; over
 * p_max in 10 minutes it is refused (RATEL, the detail is the seconds to wait). Refused
 * attempts are not counted, so a client that keeps trying waits only the window.
 */
declare
  v_count int;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('sign_in_ip:' || p_kind || ':' || p_ip, 0));
  delete from app_private.sign_in_attempts where ip = p_ip and kind = p_kind and at <= now() - interval '10 minutes';
  select count(*), min(at) into v_count, v_oldest from app_private.sign_in_attempts where ip = p_ip and kind = p_kind;
  if v_count >= p_max then
    raise exception 'Too many sign-in attempts from this network. Please wait a few minutes and try again.'
      using errcode = 'RATEL', hint = 'auth.tooManyAttempts', detail = greatest(1, ceil(extract(epoch from v_oldest + interval '10 minutes' - now())))::int::text;
  end if;
  insert into app_private.sign_in_attempts (ip, kind) values (p_ip, p_kind);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.extend_session(p_session_id text)
 RETURNS timestamp with time zone
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: a used session lives session_ttl (30 days) from its last use, but never past 90 days from sign-in */
  update app_private.sessions set expires_at = least(now() + app_private.session_ttl(), created_at + interval '90 days')
  where id = p_session_id and expires_at > now()
  returning expires_at
$function$;

CREATE OR REPLACE FUNCTION app_public.request_sign_in_code(p_email text, p_code text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: issues a code for an e-mail and queues the mail in the same transaction. Answers
 * true (code already sent, nothing mailed) while a live code exists; refuses a 4th code
 * within 10 minutes. Known and unknown addresses take the same path.
 */
declare
  v_salt text := gen_random_uuid()::text;
  v_recent int;
begin
  -- one request per address at a time, so concurrent requests cannot exceed the limits
  perform pg_advisory_xact_lock(hashtextextended('sign_in_code:' || p_email, 0));
  if exists (
    select 1 from app_private.sign_in_codes
    where email = p_email and used_at is null and expires_at > now()
      and failed_attempts < app_private.sign_in_code_attempts_max()
  ) then
    return true;
  end if;
  select count(*) into v_recent from app_private.sign_in_codes
    where email = p_email and created_at > now() - interval '10 minutes';
  if v_recent >= 3 then
    raise exception 'Too many codes requested for this e-mail. Please wait 10 minutes and try again.'
      using errcode = 'RATEL', hint = 'auth.tooManyCodes';
  end if;
  insert into app_private.sign_in_codes (email, code_hash, salt, expires_at)
    values (p_email, app_private.hash_sign_in_code(v_salt, p_code), v_salt, now() + app_private.sign_in_code_ttl());
  perform graphile_worker.add_job(
    'sign_in_codes__send',
    json_build_object('email', p_email, 'code', p_code),
    max_attempts := 8
  );
  return false;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.verify_sign_in_code(p_email text, p_code text, p_session_id text, p_make_admin boolean)
 RETURNS TABLE(id bigint, email text, is_admin boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: checks the newest live code of an address. A wrong code counts an attempt (the
 * fifth kills the code) and answers no row instead of raising, so the count is kept.
 * The right code is spent, the user is created on first sign-in, and a session opens.
 */
declare
  v_code app_private.sign_in_codes;
  v_user app_public.users;
begin
  select * into v_code from app_private.sign_in_codes c
    where c.email = p_email and c.used_at is null and c.expires_at > now()
      and c.failed_attempts < app_private.sign_in_code_attempts_max()
    order by c.created_at desc limit 1
    for update;
  if not found then
    return;
  end if;
  if v_code.code_hash <> app_private.hash_sign_in_code(v_code.salt, p_code) then
    update app_private.sign_in_codes set failed_attempts = failed_attempts + 1 where sign_in_codes.id = v_code.id;
    return;
  end if;
  update app_private.sign_in_codes set used_at = now() where sign_in_codes.id = v_code.id;
  insert into app_public.users as u (email, is_admin) values (p_email, p_make_admin)
    on conflict on constraint users_email_key do update set is_admin = u.is_admin or excluded.is_admin
    returning * into v_user;
  insert into app_private.sessions (id, user_id, expires_at) values (p_session_id, v_user.id, now() + app_private.session_ttl());
  return query select v_user.id, v_user.email, v_user.is_admin;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.reserve_telegram_send(p_bot_id text, p_chat_key text, p_chat_limit integer, p_chat_window_ms double precision, p_bot_gap_ms double precision)
 RETURNS double precision
 LANGUAGE plpgsql
AS $function$
/*
 * why: a message of the bot `p_bot_id` (the id part of its token, never the token) is
 * about to go to `p_chat_key` (null for an edit: bot-wide only). Answers how many
 * milliseconds the caller must wait before sending it, and holds that moment for it:
 *   - per chat: at most `p_chat_limit` messages in any `p_chat_window_ms`, in the order
 *     they were asked for (never before the chat's last reserved message);
 *   - bot-wide: at least `p_bot_gap_ms` from every other reserved message of the bot, the
 *     earliest such moment (a message held back by its chat leaves the moments before it
 *     to others).
 * Calls for one bot are taken one at a time. Chat history older than 2 minutes is
 * dropped, so windows longer than that are refused.
 */
declare
  v_gap interval := make_interval(secs => p_bot_gap_ms / 1000);
  v_window interval := make_interval(secs => p_chat_window_ms / 1000);
  v_now timestamptz;
  v_ready timestamptz;
  v_at timestamptz;
  v_slot timestamptz;
begin
  if p_chat_window_ms > 120000 or p_bot_gap_ms > 1000 then
    raise exception 'windows over 2 minutes and gaps over 1 second are not kept' using errcode = '22023', hint = 'internal';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('telegram_sends:' || p_bot_id, 0));
  v_now := clock_timestamp();
  v_ready := v_now;

  if p_chat_key is not null then
    -- never before the chat's last message, nor before its p_chat_limit-th newest leaves the window
    select greatest(v_now, max(send_at), (array_agg(send_at order by send_at desc))[p_chat_limit] + v_window)
      into v_ready
      from app_private.telegram_sends
     where bot_id = p_bot_id and chat_key = p_chat_key and send_at > v_now - v_window;
  end if;

  -- the earliest moment from v_ready at least a gap from every other message: walk the
  -- bot's messages from one gap before it, in order, until one leaves room
  v_at := v_ready;
  for v_slot in select send_at from app_private.telegram_slots
                 where bot_id = p_bot_id and send_at > v_ready - v_gap order by send_at loop
    exit when v_slot >= v_at + v_gap;
    v_at := greatest(v_at, v_slot + v_gap);
  end loop;

  -- a sample of calls clears what no window needs any more (a few dozen rows each time)
  if random() < 0.05 then
    delete from app_private.telegram_slots where bot_id = p_bot_id and send_at < v_now - interval '2 seconds';
    delete from app_private.telegram_sends where bot_id = p_bot_id and send_at < v_now - interval '2 minutes';
  end if;

  insert into app_private.telegram_slots (bot_id, send_at) values (p_bot_id, v_at);
  if p_chat_key is not null then
    insert into app_private.telegram_sends (bot_id, chat_key, send_at) values (p_bot_id, p_chat_key, v_at);
  end if;
  return greatest(0, extract(epoch from v_at - v_now) * 1000);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.is_supported_timezone(p_zone text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select p_zone = any (app_private.supported_timezones())
$function$;
