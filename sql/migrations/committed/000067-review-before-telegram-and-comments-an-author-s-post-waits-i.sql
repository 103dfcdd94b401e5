--! Previous: sha1:d2654c08283d023975aa52ea7d0c23194ad44051
--! Hash: sha1:d141ecd1187b1426b1965caea6ad277f5b700e6d
--! Message: Review before Telegram and comments: an author's post waits in in_review until an editor or owner approves or returns it; comments on posts

--! split: 62-review-comments.sql
-- Review before Telegram, and comments on posts (docs/teams.md "Review" and "Comments").

-- An author's post waits in `in_review` until an editor or owner approves or returns it; it
-- never reaches an approver's chat from there (claim_post_for_approval refuses it).
alter table app_public.posts drop constraint if exists posts_status_check;
alter table app_public.posts add constraint posts_status_check check (status in
  ('draft', 'in_review', 'scheduled', 'approved', 'sending', 'published', 'rejected', 'failed', 'uncertain'));

-- who made the post (null: the system, or a post older than teams); the author whose change
-- waits for review, or waited (told of the outcome; on a series, its occurrences wait too);
-- whether that author pressed Publish (an approval then asks the approver at once); when an
-- editor last returned it to draft (a comment on it then reaches its author)
alter table app_public.posts add column if not exists created_by bigint references app_public.users (id) on delete set null;
alter table app_public.posts add column if not exists review_author_id bigint references app_public.users (id) on delete set null;
alter table app_public.posts add column if not exists review_publish boolean not null default false;
alter table app_public.posts add column if not exists returned_at timestamptz;
create index if not exists posts_in_review_idx on app_public.posts (project_id, scheduled_for) where status = 'in_review';

create table if not exists app_public.post_comments (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects (id) on delete cascade,
  post_id bigint not null references app_public.posts (id) on delete cascade,
  -- a deleted account's comments stay, without their writer
  user_id bigint references app_public.users (id) on delete set null,
  text text not null check (length(text) between 1 and 2000 and btrim(text) <> ''),
  created_at timestamptz not null default now()
);
create index if not exists post_comments_post_idx on app_public.post_comments (post_id, id);

--! split: 63-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.add_post_comment(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_text text)
 RETURNS TABLE(id bigint, user_id bigint, email text, text text, created_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/*
 * why: a member who may write (not a viewer) comments on a post of the project. A comment on a
 * post an editor returned reaches its author by e-mail (unless the author wrote it), so the
 * conversation about a returned post is not missed.
 */
declare
  v_post app_public.posts;
  v_comment app_public.post_comments;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'comments.write');
  select * into v_post from app_public.posts po where po.id = p_post_id and po.project_id = p_project_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  insert into app_public.post_comments (project_id, post_id, user_id, text)
  values (p_project_id, p_post_id, p_user_id, p_text) returning * into v_comment;
  if v_post.status = 'draft' and v_post.returned_at is not null then
    perform app_private.notify_member(v_post.review_author_id, p_project_id, 'postCommented', p_post_id, p_user_id, v_comment.id);
  end if;
  return query select v_comment.id, v_comment.user_id, u.email, v_comment.text, v_comment.created_at
  from (select 1) one left join app_public.users u on u.id = v_comment.user_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.post_comment_list(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS TABLE(id bigint, user_id bigint, email text, text text, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a post's comments, oldest first, with who wrote them; any member reads them, a post of
   another project is "not found" */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  if not exists (select 1 from app_public.posts po where po.id = p_post_id and po.project_id = p_project_id) then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  return query select c.id, c.user_id, u.email, c.text, c.created_at
  from app_public.post_comments c left join app_public.users u on u.id = c.user_id
  where c.post_id = p_post_id order by c.created_at, c.id;
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

CREATE OR REPLACE FUNCTION app_public.notification_settings(p_user_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the kinds of mail the account wants; a kind not stored yet is on. The weekly summary
     is a column of its own: off for accounts older than it, on for newer ones (migration 46) */
  select '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true, "reviewRequested": true,
           "reviewApproved": true, "reviewReturned": true, "postCommented": true}'::jsonb || notifications
    || jsonb_build_object('weeklySummary', weekly_summary)
  from app_public.users where id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_post_for_approval(p_post_id bigint, p_job_id text)
 RETURNS app_public.post_deliveries
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over Telegram's maximum (post_text_max) fails the post with the reason instead of
 * sending; a project without a channel leaves it a draft waiting for one (queue_waiting_approvals). The claim lets one job
 * send the preview when the automatic request and Publish meet; the same job retried after
 * a crash takes its claim back, and any job may take a claim older than two minutes. The
 * claim records which chat the preview asks about, and the preview's round.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  -- a post waiting for review (in_review) never reaches the approver, whatever job asks
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_preview ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > app_private.post_text_max() then
    update app_public.posts set status = 'failed',
      last_error_code = 'schedule.captionTooLong',
      last_error_params = jsonb_build_object('current', length(v_post.content), 'max', app_private.post_text_max())
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_preview ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_preview ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    -- planned before a channel: it waits, saying so, and is asked for again on connection
    perform app_private.withdraw_approval(p_post_id, 'schedule.waitingForChannel', '{}');
    return null;
  end if;
  -- the round names this preview in its buttons' callback data, so a press counts even before
  -- the preview's message ids are recorded (decide_post); a new claim is a new round
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_preview = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id,
      'round', floor(extract(epoch from clock_timestamp()) * 1000000)::bigint)
  where id = p_post_id;
  return (select d from app_public.post_deliveries d where d.post_id = p_post_id);
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
 * as it is: what the user asked for is under way. An author's Publish sends the post to
 * review instead (in_review), remembering that the approver is to be asked at once once it
 * is approved; pressed again while it waits, it answers the post as it is.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_review boolean := app_private.needs_review(app_private.authorize(p_user_id, p_project_id, 'posts.write'));
begin
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL', hint = 'schedule.seriesNotPublishable';
  end if;
  if v_post.status = 'scheduled' or (v_review and v_post.status = 'in_review' and v_post.review_publish) then
    return v_post;
  end if;
  if v_review and v_post.status = 'in_review' then
    update app_public.posts set review_publish = true where id = p_post_id returning * into v_post;
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL', hint = 'schedule.notPlanned';
  end if;
  if v_review then
    perform app_private.assert_publishable(v_post);
    return app_private.hold_for_review(v_post, p_user_id, true);
  end if;
  return app_private.send_for_approval(v_post);
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
    delete from app_public.posts where id = v_row.id;
    perform app_private.log_activity(p_project_id, 'post.deleted', 'post', v_row.id,
      jsonb_build_object('title', v_row.title, 'scheduledFor', v_row.scheduled_for, 'status', v_row.status), p_user_id);
    return next v_row;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
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
 * that each wait for review; an editor's or owner's skip it.
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
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, image_urls, options, scheduled_for, created_by)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          coalesce(p_options, v_draft.options), p_scheduled_for, p_user_id)
  returning * into v_post;
  if v_review then
    return app_private.hold_for_review(v_post, p_user_id, false);
  end if;
  perform app_private.queue_approval(v_post);
  perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
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

CREATE OR REPLACE FUNCTION app_private.assert_publishable(p_post app_public.posts)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: what refuses a Publish, whoever presses it (an author's goes to review first, and is
   refused for the same reasons so the author hears them at once): content over Telegram's
   maximum (post_text_max, naming the length and the maximum), or no channel to ask */
declare
  v_length int := length(p_post.content);
begin
  if v_length > app_private.post_text_max() then
    raise exception 'schedule.captionTooLong: %/%', v_length, app_private.post_text_max() using errcode = 'CLONG', hint = 'schedule.captionTooLong';
  end if;
  if app_private.project_channel(p_post.project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN', hint = 'schedule.noChannelToPublish';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.hold_for_review(p_post app_public.posts, p_author_id bigint, p_publish boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: an author's post never reaches Telegram unreviewed: it waits in `in_review`, with no
 * approval job, until an editor or owner approves or returns it (review_post). p_publish says
 * the author pressed Publish (an approval then asks the approver at once, not 2 hours before).
 * Editors and owners are told when a post starts to wait, not again while it waits.
 */
declare
  v_post app_public.posts;
begin
  -- an approval planned before (an editor's post the author now publishes) is not asked for
  perform app_private.unqueue_post_jobs(p_post.id);
  update app_public.posts set status = 'in_review', review_author_id = p_author_id, review_publish = p_publish,
    returned_at = null, approval_preview = '{}', last_error_code = null, last_error_params = '{}'
  where id = p_post.id returning * into v_post;
  if p_post.status is distinct from 'in_review' then
    perform app_private.notify_member(m.user_id, v_post.project_id, 'reviewRequested', v_post.id, p_author_id, null)
    from app_public.project_members m
    where m.project_id = v_post.project_id and m.user_id is distinct from p_author_id
      and exists (select 1 from app_private.role_actions a where a.role = m.role and a.action = 'posts.review');
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.needs_review(p_role text)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a role that may write posts but not publish them (an author) sends its posts to
     review; the role table (app_private.role_actions) stays the one home of who may publish */
  select not exists (select 1 from app_private.role_actions where role = p_role and action = 'posts.publish')
$function$;

CREATE OR REPLACE FUNCTION app_private.notify_member(p_user_id bigint, p_project_id bigint, p_kind text, p_post_id bigint, p_actor_id bigint, p_comment_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: a member hears by e-mail of what the team asks of them (a post waits for their review,
 * their post was approved, returned or commented on), queued in the transaction of the act,
 * if they keep that kind on (each member's own switches, app_public.notification_settings);
 * nobody is told of their own act
 */
begin
  if p_user_id is null or p_user_id = p_actor_id then
    return;
  end if;
  if not exists (select 1 from app_public.users u where u.id = p_user_id and coalesce((u.notifications ->> p_kind)::boolean, true)) then
    return;
  end if;
  perform graphile_worker.add_job('notifications__send', json_build_object('projectId', p_project_id, 'kind', p_kind,
    'postId', p_post_id, 'userId', p_user_id, 'actorId', p_actor_id, 'commentId', p_comment_id), max_attempts := 5);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.member_notification(p_user_id bigint, p_project_id bigint, p_kind text, p_post_id bigint, p_actor_id bigint, p_comment_id bigint)
 RETURNS TABLE(email text, project_name text, language text, timezone text, post_title text, scheduled_for timestamp with time zone, reason_code text, reason_params jsonb, runs_dry_at timestamp with time zone, drafts_left integer, actor_email text, comment text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what a member's mail says, read when it is sent: nothing once they left the project
     or switched that kind off meanwhile */
  select u.email, p.name, p.language, p.timezone, po.title, po.scheduled_for, null::text, null::jsonb,
         null::timestamptz, null::int, a.email, c.text
  from app_public.project_members m
  join app_public.users u on u.id = m.user_id
  join app_public.projects p on p.id = m.project_id
  left join app_public.posts po on po.id = p_post_id and po.project_id = p.id
  left join app_public.users a on a.id = p_actor_id
  left join app_public.post_comments c on c.id = p_comment_id and c.post_id = po.id
  where m.project_id = p_project_id and m.user_id = p_user_id and coalesce((u.notifications ->> p_kind)::boolean, true)
$function$;

CREATE OR REPLACE FUNCTION app_public.review_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_approve boolean, p_comment text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: an editor's or owner's decision on a post waiting for review. Approve continues as
 * their own act would: the approver's preview goes 2 hours before the post's time, or at once
 * if the author had pressed Publish (then refused for what refuses a Publish). Return puts it
 * back to draft, where it stays until its author publishes again, with the comment added to
 * its comments. Only a post still waiting changes (a second press answers review.notWaiting);
 * the author is told either way.
 */
declare
  v_locked app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.review');
  v_post app_public.posts;
  v_comment_id bigint;
begin
  update app_public.posts set status = 'draft', review_publish = false,
    returned_at = case when p_approve then null else now() end
  where id = p_post_id and status = 'in_review'
  returning * into v_post;
  if not found then
    raise exception 'This post is not waiting for review' using errcode = 'EDPUB', hint = 'review.notWaiting';
  end if;
  if nullif(btrim(coalesce(p_comment, '')), '') is not null then
    insert into app_public.post_comments (project_id, post_id, user_id, text)
    values (p_project_id, p_post_id, p_user_id, p_comment) returning id into v_comment_id;
  end if;
  if p_approve and v_locked.review_publish then
    v_post := app_private.send_for_approval(v_post);
  elsif p_approve then
    perform app_private.queue_approval(v_post);
  end if;
  if p_approve then
    perform app_private.notify_member(v_post.review_author_id, p_project_id, 'reviewApproved', p_post_id, p_user_id, v_comment_id);
  else
    perform app_private.notify_member(v_post.review_author_id, p_project_id, 'reviewReturned', p_post_id, p_user_id, v_comment_id);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.review_queue(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the posts waiting for review, the soonest due first (what the review page and its
     badge show); any member reads it */
  select po.* from app_public.posts po
  where po.project_id = p_project_id and po.status = 'in_review'
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by po.scheduled_for, po.id
$function$;

CREATE OR REPLACE FUNCTION app_private.send_for_approval(p_post app_public.posts)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: a publishing member's Publish (or their approval of an author's Publish): the post is
   scheduled and its approver asked at once */
declare
  v_post app_public.posts;
begin
  perform app_private.assert_publishable(p_post);
  update app_public.posts set status = 'scheduled', last_error_code = null, last_error_params = '{}'
  where id = p_post.id returning * into v_post;
  perform app_private.queue_approval_at(v_post, now());
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.spawn_series_occurrence(p_series_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the rotation. The series' next occurrence becomes its own post taking the next
 * available draft by order (skipped dates passed over); the series advances
 * (recurring_last_post, series_made) and the next spawn is queued, unless it has ended. With no draft left the series stops and says why (last_error_code). p_now is
 * the clock (tests drive days through it). An author's series (review_author_id) makes
 * occurrences that each wait for review instead of asking the approver.
 */
declare
  v_series app_public.posts;
  v_draft app_public.drafts;
  v_at timestamptz;
  v_occurrence app_public.posts;
begin
  select * into v_series from app_public.posts where id = p_series_id and is_recurring and status = 'draft' for update;
  if not found then
    return null;
  end if;
  select at into v_at from app_private.series_upcoming(v_series, p_now + make_interval(days => app_private.series_horizon_days_max())) at limit 1;
  if v_at is null then
    return null; -- it has ended (after N posts, or its end date)
  end if;
  if v_at - app_private.approval_lead() > p_now + interval '1 minute' then
    -- too early (a stale job): wait for the right time
    perform app_private.queue_series_spawn(v_series, p_now);
    return null;
  end if;
  select * into v_draft from app_public.available_series_drafts(v_series.project_id) limit 1;
  if not found then
    update app_public.posts set status = 'failed', last_error_code = 'schedule.seriesOutOfDrafts', last_error_params = '{}' where id = v_series.id;
    return null;
  end if;
  -- the series' options, when it has any, else the draft's
  insert into app_public.posts (project_id, draft_id, series_id, title, content, entities, image_url, image_urls, options, scheduled_for,
                                created_by)
  values (v_series.project_id, v_draft.id, v_series.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          case when v_series.options = '{}' then v_draft.options else v_series.options end, v_at, v_series.created_by)
  returning * into v_occurrence;
  update app_public.posts set recurring_last_post = v_at, series_made = series_made + 1
  where id = v_series.id returning * into v_series;
  if v_series.review_author_id is not null then
    v_occurrence := app_private.hold_for_review(v_occurrence, v_series.review_author_id, false);
  else
    perform app_private.queue_approval(v_occurrence);
  end if;
  perform app_private.queue_series_spawn(v_series, p_now);
  -- made by the series, not by a person
  perform app_private.log_activity(v_occurrence.project_id, 'post.scheduled', 'post', v_occurrence.id,
    jsonb_build_object('title', v_occurrence.title, 'scheduledFor', v_occurrence.scheduled_for, 'seriesId', v_series.id), null);
  return v_occurrence;
end;
$function$;
