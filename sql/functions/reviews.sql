-- The reviews functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

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

CREATE OR REPLACE FUNCTION app_public.member_notification(p_user_id bigint, p_project_id bigint, p_kind text, p_post_id bigint, p_actor_id bigint, p_comment_id bigint)
 RETURNS TABLE(email text, project_name text, language text, timezone text, post_title text, scheduled_for timestamp with time zone, reason_code text, reason_params jsonb, runs_dry_at timestamp with time zone, drafts_left integer, actor_email text, comment text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what a member's mail says, read when it is sent: nothing once they left the project
     or switched that kind off meanwhile */
  select u.email, p.name, coalesce(u.language, p.language), p.timezone, po.title, po.scheduled_for, null::text, null::jsonb,
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
