--! Previous: sha1:6a87a15b0ddda322af92cdf1deea5d3932427247
--! Hash: sha1:b334e245a8113734b81c133cdce864db7569c24e
--! Message: Late approvals: the home cards say which awaiting posts are late; one reminder per round; resend and move

--! split: 7-late-approvals.sql
-- The home cards say which posts awaiting approval are late, and since when: two more columns
-- in what these functions return, so they are dropped here and made again from
-- sql/functions/home_cards.sql.
drop function if exists app_public.account_project_overview(bigint);
drop function if exists app_private.posts_needing_attention(bigint);

--! split: 8-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.posts_needing_attention(p_project_id bigint)
 RETURNS TABLE(awaiting_approval integer, failed integer, uncertain integer, late_approval integer, late_since timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the owner may have to act on, as the home cards and the weekly summary say it:
     posts waiting for the approver's answer, posts that failed in the last 7 days (older ones
     are history; the calendar still shows them) and posts whose fate is unknown (they wait for
     "It is in the channel" / "Send again" however old). Read through the partial index
     posts_project_attention_idx. Of those waiting, the ones past their time are late, and
     the oldest due time says by how much (docs/publishing.md, late approvals). */
  select count(*) filter (where status = 'scheduled')::int,
         count(*) filter (where status = 'failed' and updated_at >= now() - interval '7 days')::int,
         count(*) filter (where status = 'uncertain')::int,
         count(*) filter (where status = 'scheduled' and scheduled_for <= now())::int,
         min(scheduled_for) filter (where status = 'scheduled' and scheduled_for <= now())
  from app_public.posts
  where project_id = p_project_id and status in ('scheduled', 'failed', 'uncertain')
$function$;

CREATE OR REPLACE FUNCTION app_public.account_project_overview(p_user_id bigint)
 RETURNS TABLE(project_id bigint, channel_connected boolean, channel_awaiting_handle text, subscribers integer, subscribers_change_7d integer, next_post_at timestamp with time zone, next_post_title text, next_post_recurring boolean, awaiting_approval integer, failed integer, uncertain integer, late_approval integer, late_since timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: every home card's figures in one read (docs/statistics.md, home cards): the
     subscribers now (the running count) and their change since the sample of 7 days ago
     (null when either is unknown), the approver still asked to confirm a channel (a request
     expired is none, as on the channels page), the next post, and what needs the owner. Only
     the user's own projects; each figure is an index lookup per project, never a scan of its
     history. */
  select p.id, c.id is not null, r.approver_handle, s.subscribers,
    s.subscribers - app_private.subscribers_at(c.id, now() - interval '7 days'),
    n.at, n.title, n.recurring,
    coalesce(a.awaiting_approval, 0), coalesce(a.failed, 0), coalesce(a.uncertain, 0), coalesce(a.late_approval, 0), a.late_since
  from app_public.projects p
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  left join app_private.channel_stats s on s.channel_id = c.id
  left join app_public.channels pc on pc.project_id = p.id and pc.status = 'pending'
  left join app_public.approver_requests r on r.channel_id = pc.id and r.created_at > now() - app_private.approver_request_ttl()
  left join lateral app_private.next_planned_post(p.id, now()) n on true
  left join lateral app_private.posts_needing_attention(p.id) a on true
  where p.user_id = p_user_id
  order by p.created_at desc, p.id desc
$function$;

CREATE OR REPLACE FUNCTION app_private.approval_reminder_delay()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: the approver is reminded 10 minutes after the post's time (or after the preview, if
     it went out later than that). At the time itself a reminder would nag an approver who is
     about to press; by 10 minutes the post is visibly late to its readers, yet a quick
     decision still lands within the hour it was planned for. docs/publishing.md */
  select interval '10 minutes'
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_approval_reminder(p_post app_public.posts)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: one reminder job per post (keyed, so a new round replaces the old round's job), in the
 * approver's queue like every message to their chat: a hundred late posts wait there one a
 * second, holding one worker slot, never the slots other accounts need
 */
begin
  perform graphile_worker.add_job('posts__remind_approver', json_build_object('postId', p_post.id),
    queue_name := 'approver:' || (p_post.approval_preview ->> 'chatId'),
    run_at := greatest(p_post.scheduled_for, now()) + app_private.approval_reminder_delay(),
    job_key := app_private.post_job_key(p_post.id, 'reminder'),
    max_attempts := 3);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_approval_reminder(p_post_id bigint)
 RETURNS app_public.post_deliveries
 LANGUAGE plpgsql
AS $function$
/*
 * why: the reminder's guard, recorded before Telegram is called. It answers the post once
 * per round, only while the post is late and still waits on the preview it reminds of; a
 * second worker, a retried job or a job left from an older round finds remindedAt set (or
 * no sent preview) and sends nothing. A crash between this and the send loses that one
 * reminder: a reminder twice is worse than none, and the late flag still shows the owner.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set approval_preview = p.approval_preview || jsonb_build_object('remindedAt', now())
  where p.id = p_post_id and p.status = 'scheduled' and p.approval_preview ? 'buttonsMessageId'
    and not (p.approval_preview ? 'remindedAt') and p.scheduled_for <= now()
  returning * into v_post;
  if not found then
    return null;
  end if;
  return (select d from app_public.post_deliveries d where d.post_id = p_post_id);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.restart_approval(p_post app_public.posts, p_scheduled_for timestamp with time zone)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: resend and move start a new round: the old preview is edited to say it no longer
 * applies, its buttons stop counting (the preview is forgotten, and the next claim names a
 * new round), and the preview goes again: at once for a resend, 2 hours before a moved time
 */
declare
  v_post app_public.posts;
begin
  perform app_private.retract_approval(p_post, case when p_scheduled_for = p_post.scheduled_for then 'resent' else 'moved' end);
  perform app_private.unqueue_post_jobs(p_post.id);
  -- it stays awaiting approval: the owner asked for it once, and the new claim takes it up
  update app_public.posts set status = 'scheduled', scheduled_for = p_scheduled_for, approval_preview = '{}',
    last_error_code = null, last_error_params = '{}'
  where id = p_post.id returning * into v_post;
  if p_scheduled_for = p_post.scheduled_for then
    perform app_private.queue_approval_at(v_post, now());
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.resend_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_scheduled_for timestamp with time zone)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the owner's answer to a post awaiting approval (most often a late one): send the
 * preview again as it is (p_scheduled_for null), or move the post to a new, future time.
 * Only a post sent for approval and not yet decided qualifies.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id);
begin
  if v_post.status <> 'scheduled' or v_post.is_recurring then
    raise exception 'Only a post awaiting approval can be sent again or moved' using errcode = 'EDPUB', hint = 'schedule.notAwaitingApproval';
  end if;
  if p_scheduled_for is not null and p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  return app_private.restart_approval(v_post, coalesce(p_scheduled_for, v_post.scheduled_for));
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_approval_sent(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[])
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
/* why: remembers which message carries the buttons, so only that message can decide, and
   queues the round's reminder for when the post is late; a preview sent to someone who is no
   longer the approver records nothing */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set approval_preview = jsonb_build_object(
      'chatId', p_chat_id, 'messageIds', to_jsonb(p_message_ids), 'buttonsMessageId', p_message_ids[cardinality(p_message_ids)],
      'round', p.approval_preview -> 'round')
  where p.id = p_post_id and p.status = 'scheduled' and not (p.approval_preview ? 'chatId')
    and exists (select 1 from app_public.channels c where c.project_id = p.project_id and c.status = 'connected'
                and c.approver_user_id = p_chat_id and c.chat_id = p.approval_chat_id)
  returning * into v_post;
  if not found then
    return null;
  end if;
  perform app_private.queue_approval_reminder(v_post);
  return true;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.unqueue_post_jobs(p_post_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: moving or deleting a post must not leave a job behind to act on it */
begin
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'approval'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'publish'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'spawn'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'content'));
  perform graphile_worker.remove_job(app_private.post_job_key(p_post_id, 'reminder'));
end;
$function$;
