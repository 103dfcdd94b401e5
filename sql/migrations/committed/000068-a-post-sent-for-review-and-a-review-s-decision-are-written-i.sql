--! Previous: sha1:d141ecd1187b1426b1965caea6ad277f5b700e6d
--! Hash: sha1:0c4970105ea31020459d6fb2b5f7129c1d168347
--! Message: A post sent for review and a review's decision are written in the activity log (post.inReview, post.reviewed), so webhooks get post.in_review; an author's planning is logged before it waits

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
  -- planned, whoever planned it; an author's then waits for review
  perform app_private.log_activity(p_project_id, 'post.scheduled', 'post', v_post.id, jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_user_id);
  if v_review then
    return app_private.hold_for_review(v_post, p_user_id, false);
  end if;
  perform app_private.queue_approval(v_post);
  return v_post;
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
    -- the author sent it (or Pressa, for an author's series): the activity and the webhooks' post.in_review
    perform app_private.log_activity(v_post.project_id, 'post.inReview', 'post', v_post.id,
      jsonb_build_object('title', v_post.title, 'scheduledFor', v_post.scheduled_for), p_author_id);
    perform app_private.notify_member(m.user_id, v_post.project_id, 'reviewRequested', v_post.id, p_author_id, null)
    from app_public.project_members m
    where m.project_id = v_post.project_id and m.user_id is distinct from p_author_id
      and exists (select 1 from app_private.role_actions a where a.role = m.role and a.action = 'posts.review');
  end if;
  return v_post;
end;
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
  perform app_private.log_activity(p_project_id, 'post.reviewed', 'post', p_post_id,
    jsonb_build_object('title', v_post.title, 'decision', case when p_approve then 'approve' else 'return' end,
                       'comment', nullif(btrim(coalesce(p_comment, '')), '')), p_user_id);
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
