-- The posts schedule functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.bump_posts_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
/* why: one bump per statement and project, whatever the statement changed (insert, update,
   delete); posts deleted with their project bump nothing */
begin
  insert into app_private.posts_versions (project_id)
  select distinct c.project_id from changed_posts c
  where exists (select 1 from app_public.projects p where p.id = c.project_id)
  on conflict (project_id) do update set version = app_private.posts_versions.version + 1;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.draft_for_post(p_project_id bigint, p_draft_id bigint, p_post_id bigint)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the draft a one-time post takes (scheduling it, or p_post_id when editing it): one
 * must be chosen, of the post's project, and held by no other post still in play (a
 * rejected or failed post lets its draft go; posts_one_live_per_draft says the same).
 */
declare
  v_draft app_public.drafts;
begin
  if p_draft_id is null then
    raise exception 'schedule.selectDraft' using errcode = 'INVAL', hint = 'schedule.selectDraft';
  end if;
  select * into v_draft from app_public.drafts where id = p_draft_id and project_id = p_project_id;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  if exists (select 1 from app_public.posts where draft_id = p_draft_id and id is distinct from p_post_id
             and status not in ('rejected', 'failed')) then
    raise exception 'schedule.draftAlreadyScheduled' using errcode = 'INVAL', hint = 'schedule.draftAlreadyScheduled';
  end if;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.lock_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_action text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the post a member's request changes (edit, delete, Publish), locked until the change
 * commits: a non-member is told the project is "not found" (projects.notFound), a role
 * without p_action is refused (team.forbidden), then a post not in the project is "not
 * found" (posts.notFound).
 */
declare
  v_post app_public.posts;
begin
  perform app_private.authorize(p_user_id, p_project_id, p_action);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
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
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_series_id bigint;
  v_row app_public.posts;
begin
  -- what reached Telegram (an approver's preview, the channel) is the publishing roles' to take back
  if v_post.status not in ('draft', 'in_review', 'rejected', 'failed') then
    perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
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
    -- logged while the row is still there: the webhook's post.deleted carries the post as it was
    perform app_private.log_activity(p_project_id, 'post.deleted', 'post', v_row.id,
      jsonb_build_object('title', v_row.title, 'scheduledFor', v_row.scheduled_for, 'status', v_row.status), p_user_id);
    delete from app_public.posts where id = v_row.id;
    return next v_row;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.posts_version(p_user_id bigint, p_project_id bigint)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the posts lists' ETag says; a non-member is refused (404) */
  select coalesce(v.version, 0) from app_public.projects p
  left join app_private.posts_versions v on v.project_id = p.id
  where p.id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.project_post(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: one whole post, for the calendar's details dialog (its grid reads a lean view); a
     non-member is refused */
  select po.* from app_public.posts po
  where po.project_id = p_project_id and po.id = p_post_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.project_posts(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the calendar's posts (series and occurrences included), for any member */
  select po.* from app_public.posts po
  where po.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by po.scheduled_for, po.id
$function$;

CREATE OR REPLACE FUNCTION app_public.project_posts_between(p_user_id bigint, p_project_id bigint, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the calendar's month: the posts due in [p_from, p_to), and every series that may
     have occurrences there (begun before p_to and not stopped before p_from), so the grid can
     show its virtual occurrences. Nothing outside the range: which drafts are free is said by
     the drafts list (project_drafts' scheduled_post_id). Only for the project's members. */
  select po.* from app_public.posts po
  where po.id = any(array(
    select id from app_public.posts
    where project_id = p_project_id and scheduled_for >= p_from and scheduled_for < p_to
    union
    select id from app_public.posts
    where project_id = p_project_id and is_recurring and scheduled_for < p_to
      and (status = 'draft' or coalesce(recurring_last_post, scheduled_for) >= p_from)
  ))
  and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by po.scheduled_for, po.id
$function$;

CREATE OR REPLACE FUNCTION app_public.published_posts(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the Published page, newest first */
  select po.* from app_public.posts po
  where po.project_id = p_project_id and po.status = 'published' and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by po.published_at desc nulls last, po.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date, p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content, formatting and image it copies, and its options unless the request gives its
 * own. Recurring: a series with placeholder text whose occurrences take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute). A project without a channel plans too:
 * its posts wait for one (claim_post_for_approval, queue_waiting_approvals). An author's post
 * waits for review (in_review, no approval job), and an author's series makes occurrences
 * that each wait for review; an editor's or owner's skip it. An ad (p_ad: SQL null takes
 * the draft's, JSON null none) is one sold post, never a series, and its text must leave room
 * for its label. A one-off post's time must keep clear of the ads' top windows
 * (assert_ad_window_free).
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'posts.write');
  v_review boolean := app_private.needs_review(v_role);
  v_project app_public.projects := (select p from app_public.projects p where p.id = p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring then
    if jsonb_typeof(p_ad) = 'object' then
      raise exception 'An advertising post is one post: it cannot repeat' using errcode = 'INVAL', hint = 'ads.notInSeries';
    end if;
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL', hint = 'schedule.noDraftsForRecurring';
    end if;
    perform app_private.assert_series_end(v_project, p_scheduled_for, p_ends_after, p_ends_on);
    perform 1 from app_public.projects where id = p_project_id for update; -- counted one add at a time
    if (select count(*) from app_public.posts where project_id = p_project_id and is_recurring) >= app_private.series_per_project_max() then
      raise exception 'A project can have at most % recurring series', app_private.series_per_project_max()
        using errcode = 'QUOTA', hint = 'schedule.tooManySeries';
    end if;
    insert into app_public.posts (project_id, title, content, entities, options, scheduled_for, is_recurring, recurring_type,
                                  series_ends_after, series_ends_on, created_by, review_author_id)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), coalesce(p_entities, '[]'), coalesce(p_options, '{}'),
            p_scheduled_for, true, p_recurring_type, p_ends_after, p_ends_on, p_user_id, case when v_review then p_user_id end)
    returning * into v_post;
    perform app_private.queue_series_spawn(v_post, now());
    perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'recurring', v_post.recurring_type), p_user_id);
    return v_post;
  end if;
  v_draft := app_private.draft_for_post(p_project_id, p_draft_id, null);
  perform app_private.assert_ad_fits(p_project_id, v_draft.title, v_draft.content, nullif(coalesce(p_ad, v_draft.ad), 'null'));
  perform app_private.assert_ad_window_free(p_project_id, null, p_scheduled_for, nullif(coalesce(p_ad, v_draft.ad), 'null'),
    coalesce(p_options, v_draft.options));
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, image_urls, options, scheduled_for, created_by, ad)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          coalesce(p_options, v_draft.options), p_scheduled_for, p_user_id, nullif(coalesce(p_ad, v_draft.ad), 'null'))
  returning * into v_post;
  -- planned, whoever planned it; an author's then waits for review
  perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
  if v_review then
    return app_private.hold_for_review(v_post, p_user_id, false);
  end if;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date, p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post's time cannot be edited (its text
 * goes to the approver, and only while its chat is the project's channel); one being sent
 * cannot be edited at all. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again), with
 * the end the request gives (the occurrences made so far count towards "after N posts";
 * skipped dates stay skipped). An author's change waits for review (a series': each
 * occurrence it makes); a post waiting for review keeps waiting whoever edits it (the review
 * decides), and an editor's or owner's change of a series lets its occurrences skip review.
 * A one-time post takes its draft's ad unless p_ad gives one (JSON null: none); a published
 * ad keeps its sale and label whatever the request says (the channel's edit keeps the label).
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_before app_public.posts := v_post;
  v_review boolean := app_private.needs_review(app_private.authorize(p_user_id, p_project_id, 'posts.write'));
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
    -- the channel's text is the publishing roles' to change
    perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
    -- only while it is in the project's channel: the chat's own administrators never
    -- approved a later approver or channel
    perform app_private.assert_post_in_channel(v_post);
    -- its time and recurrence are history; its text, formatting and buttons may change
    -- through the approver (request_post_edit)
    if date_trunc('milliseconds', p_scheduled_for) <> date_trunc('milliseconds', v_post.scheduled_for) or v_recurring
       or v_post.is_recurring then
      raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
    end if;
    perform app_private.log_activity(p_project_id, 'post.edited', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for, 'published', true), p_user_id);
    return app_private.request_post_edit(v_post, p_content, p_entities, p_options -> 'buttons');
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
    v_draft := app_private.draft_for_post(p_project_id, p_draft_id, p_post_id);
    perform app_private.assert_ad_fits(p_project_id, v_draft.title, v_draft.content, nullif(coalesce(p_ad, v_draft.ad), 'null'));
    -- a series occurrence or a content-plan post is held by a window, not refused
    if v_post.series_id is null and v_post.plan_id is null then
      perform app_private.assert_ad_window_free(p_project_id, p_post_id, p_scheduled_for, nullif(coalesce(p_ad, v_draft.ad), 'null'),
        coalesce(p_options, v_draft.options));
    end if;
  elsif jsonb_typeof(p_ad) = 'object' then
    raise exception 'An advertising post is one post: it cannot repeat' using errcode = 'INVAL', hint = 'ads.notInSeries';
  else
    perform app_private.assert_series_end(app_public.get_project(p_user_id, p_project_id), p_scheduled_for, p_ends_after, p_ends_on);
  end if;
  perform app_private.retract_approval(v_post, 'edited');
  perform app_private.unqueue_post_jobs(v_post.id);
  update app_public.posts set
    draft_id = case when v_recurring then null else v_draft.id end,
    title = case when v_recurring then coalesce(p_title, title) else v_draft.title end,
    content = case when v_recurring then coalesce(p_content, content) else v_draft.content end,
    entities = case when v_recurring then coalesce(p_entities, case when p_content is null then entities else '[]' end)
                    else v_draft.entities end,
    image_url = case when v_recurring then null else v_draft.image_url end,
    image_urls = case when v_recurring then '{}' else v_draft.image_urls end,
    options = coalesce(p_options, case when v_recurring then options else v_draft.options end),
    ad = case when v_recurring then null else nullif(coalesce(p_ad, v_draft.ad), 'null') end,
    scheduled_for = p_scheduled_for,
    recurring_type = coalesce(p_recurring_type, 'none'),
    status = 'draft',
    recurring_last_post = case when v_recurring then null else recurring_last_post end,
    series_ends_after = case when v_recurring then p_ends_after end,
    series_ends_on = case when v_recurring then p_ends_on end,
    approval_preview = '{}',
    last_error_code = null, last_error_params = '{}',
    review_author_id = case when not v_recurring then review_author_id when v_review then p_user_id end
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform app_private.queue_series_spawn(v_post, now());
  elsif v_review then
    return app_private.hold_for_review(v_before, p_user_id, false);
  elsif v_before.status = 'in_review' then
    -- an editor's fix keeps the author's request (their Publish) for the review to answer
    return app_private.hold_for_review(v_before, v_before.review_author_id, v_before.review_publish);
  else
    perform app_private.queue_approval(v_post);
  end if;
  perform app_private.log_activity(p_project_id, 'post.edited', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.write_and_schedule_post(p_user_id bigint, p_project_id bigint, p_scheduled_for timestamp with time zone, p_title text, p_content text, p_entities jsonb, p_options jsonb, p_max_drafts integer, p_ad jsonb DEFAULT NULL::jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: write, then schedule, as Telegram's own scheduling does: the schedule form's new
 * post becomes its draft and its one-time post in one transaction, so a refused time leaves
 * no stray draft and no series can take the draft between the two (create_draft checks the
 * member's role and the project's room; schedule_post the time and the draft).
 */
declare
  v_draft app_public.drafts;
begin
  select * into v_draft from app_public.create_draft(p_user_id, p_project_id, p_title, p_content, '', -1, p_max_drafts,
    coalesce(p_entities, '[]'), coalesce(p_options, '{}'), null, p_ad);
  return app_public.schedule_post(p_user_id, p_project_id, v_draft.id, p_scheduled_for, 'none', null, null, null, p_options, null, null, p_ad);
end;
$function$;
