--! Previous: sha1:9d0e1488ab48320b935a1d506a487ede9be4d86e
--! Hash: sha1:c3c8067399296f8c793c47a697e8aaa14db3ce2c
--! Message: Owner notifications by e-mail

--! split: 2-notifications.sql
-- Notifications to the owner by e-mail (issue 17): which kinds they want, and the mails
-- already sent, at most one per project, kind and day (the project's day).
alter table app_public.users add column notifications jsonb not null
  default '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true}'
  check (jsonb_typeof(notifications) = 'object');

create table app_private.notifications_sent (
  project_id bigint not null references app_public.projects on delete cascade,
  kind text not null check (kind in ('queueLow', 'postFailed', 'postRejected', 'channelLost')),
  day date not null,
  post_id bigint references app_public.posts on delete set null,
  created_at timestamptz not null default now(),
  constraint notifications_sent_pkey primary key (project_id, kind, day)
);

--! split: 3-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.autopilot_fill(p_project_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS SETOF app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: every active slot time of the project in the next 7 days gets one post, taken in time
 * order from the top unused draft of the queue (the drafts a series would take). A slot time
 * is filled once (plan_fills): the project row is locked so two runs wait for each other, and
 * the key refuses a second fill anyway. A slot time with no draft left stays empty until a
 * later run finds one. A draft with text goes to approval like any post; one without text
 * first gets AI text of the slot's length (posts__autopilot_content), which then asks for
 * approval. A queue left running dry within queue_low_days_max tells the owner (at most a
 * mail a day). p_now is the clock (tests drive days and DST nights through it).
 */
declare
  v_slot record;
  v_draft app_public.drafts;
  v_post app_public.posts;
begin
  perform 1 from app_public.projects where id = p_project_id for update;
  if not found or app_private.project_channel(p_project_id) is null then
    return;
  end if;
  for v_slot in
    select c.id as plan_id, c.post_length, t.at
    from app_public.content_plans c
    cross join lateral app_private.plan_slot_times(c, greatest(p_now, now()), p_now + app_private.autopilot_horizon()) t(at)
    where c.project_id = p_project_id and c.active
      and not exists (select 1 from app_private.plan_fills f where f.plan_id = c.id and f.slot_at = t.at)
    order by t.at, c.id
  loop
    select * into v_draft from app_public.available_series_drafts(p_project_id) limit 1;
    exit when not found;
    insert into app_public.posts (project_id, draft_id, plan_id, title, content, entities, image_url, image_urls, options, scheduled_for, awaiting_text)
    values (p_project_id, v_draft.id, v_slot.plan_id, v_draft.title, v_draft.content, v_draft.entities,
            v_draft.image_url, v_draft.image_urls, v_draft.options, v_slot.at, btrim(v_draft.content) = '')
    returning * into v_post;
    insert into app_private.plan_fills (plan_id, slot_at, post_id) values (v_slot.plan_id, v_slot.at, v_post.id);
    if v_post.awaiting_text then
      perform graphile_worker.add_job('posts__autopilot_content',
        json_build_object('postId', v_post.id, 'postLength', v_slot.post_length),
        job_key := app_private.post_job_key(v_post.id, 'content'), max_attempts := 5);
    else
      perform app_private.queue_approval(v_post);
    end if;
    return next v_post;
  end loop;
  if (select f.low from app_private.queue_forecast(p_project_id, p_now) f) then
    perform app_private.notify_owner(p_project_id, 'queueLow', null);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.queue_autopilot_fills()
 RETURNS integer
 LANGUAGE sql
AS $function$
  /* why: the hourly pass keeps the 7 days ahead filled as time moves on and drafts arrive,
     and looks at the queue of every project something takes drafts from (an active slot, a
     running series): one fill job per project with a channel */
  with queued as (
    select app_private.queue_autopilot_fill(p.id) from app_public.projects p
    where app_private.project_channel(p.id) is not null
      and (exists (select 1 from app_public.content_plans c where c.project_id = p.id and c.active)
           or exists (select 1 from app_public.posts s where s.project_id = p.id and s.is_recurring and s.status = 'draft'))
  ) select count(*)::int from queued
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_forecast(p_project_id bigint, p_now timestamp with time zone)
 RETURNS TABLE(drafts_left integer, runs_dry_at timestamp with time zone, low boolean, posts_per_week integer)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: how long the drafts queue lasts at the current plan plus series. Every future slot
 * time not filled yet and every occurrence a running series has still to make takes one
 * draft, in time order; the queue runs dry at the first of them left without one. None
 * within queue_forecast_days_max: runs_dry_at is null (it lasts longer, or nothing takes
 * drafts). Low: it runs dry within queue_low_days_max.
 */
declare
  v_until timestamptz := p_now + make_interval(days => app_private.queue_forecast_days_max());
begin
  select count(*)::int into drafts_left from app_public.available_series_drafts(p_project_id);
  select coalesce(sum(case s.recurring_type when 'daily' then 7 else 1 end), 0)::int
       + (select count(*)::int from app_public.content_plans c where c.project_id = p_project_id and c.active)
    into posts_per_week
  from app_public.posts s where s.project_id = p_project_id and s.is_recurring and s.status = 'draft';
  select e.at into runs_dry_at from (
    select t.at from app_public.content_plans c
    cross join lateral app_private.plan_slot_times(c, p_now, v_until) t(at)
    where c.project_id = p_project_id and c.active
      and not exists (select 1 from app_private.plan_fills f where f.plan_id = c.id and f.slot_at = t.at)
    union all
    select o.at from app_public.posts s
    cross join lateral app_private.series_upcoming(s, v_until) o(at)
    where s.project_id = p_project_id and s.is_recurring and s.status = 'draft' and o.at > p_now
  ) e
  order by e.at offset drafts_left limit 1;
  low := runs_dry_at is not null and runs_dry_at < p_now + make_interval(days => app_private.queue_low_days_max());
  return next;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.queue_health(p_user_id bigint, p_project_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS TABLE(drafts_left integer, runs_dry_at timestamp with time zone, low boolean, posts_per_week integer)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the owner's view of the queue's forecast (queue_forecast); another's project is "not found" */
begin
  perform app_public.get_project(p_user_id, p_project_id);
  return query select * from app_private.queue_forecast(p_project_id, p_now);
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.notify_owner(p_project_id bigint, p_kind text, p_post_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the project's owner hears by e-mail that something needs them (the queue runs low, a
 * post failed, was rejected, or the channel's rights were lost), if they want that kind,
 * at most once per project, kind and day in the project's zone, so a bad day is one mail.
 */
declare
  v_day date;
begin
  select (now() at time zone p.timezone)::date into v_day
  from app_public.projects p join app_public.users u on u.id = p.user_id
  where p.id = p_project_id and coalesce((u.notifications ->> p_kind)::boolean, true);
  if v_day is null then
    return; -- no such project, or the owner does not want this kind
  end if;
  insert into app_private.notifications_sent (project_id, kind, day, post_id) values (p_project_id, p_kind, v_day, p_post_id)
  on conflict do nothing;
  if found then
    perform graphile_worker.add_job('notifications__send',
      json_build_object('projectId', p_project_id, 'kind', p_kind, 'postId', p_post_id), max_attempts := 5);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.owner_notification(p_project_id bigint, p_kind text, p_post_id bigint)
 RETURNS TABLE(email text, project_name text, language text, timezone text, post_title text, scheduled_for timestamp with time zone, reason text, runs_dry_at timestamp with time zone, drafts_left integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the mail about one event says, read when it is sent; nothing when the owner
     has switched that kind off meanwhile */
  select u.email, p.name, p.language, p.timezone, po.title, po.scheduled_for, po.last_error,
         f.runs_dry_at, f.drafts_left
  from app_public.projects p
  join app_public.users u on u.id = p.user_id
  left join app_public.posts po on po.id = p_post_id and po.project_id = p.id
  left join lateral app_private.queue_forecast(p.id, now()) f on p_kind = 'queueLow'
  where p.id = p_project_id and coalesce((u.notifications ->> p_kind)::boolean, true)
$function$;

CREATE OR REPLACE FUNCTION app_public.notification_settings(p_user_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the kinds of mail the account wants; a kind not stored yet is on */
  select '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true}'::jsonb || notifications
  from app_public.users where id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.update_notification_settings(p_user_id bigint, p_changes jsonb)
 RETURNS jsonb
 LANGUAGE sql
AS $function$
  /* why: PATCH semantics: only the kinds given change (the API accepts only known kinds) */
  update app_public.users set notifications = notifications || p_changes where id = p_user_id;
  select app_public.notification_settings(p_user_id);
$function$;

CREATE OR REPLACE FUNCTION app_public.decide_post(p_post_id bigint, p_chat_id bigint, p_message_id bigint, p_approve boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: an admin's press on Approve or Reject. Only the current approval message of a post
 * still waiting counts, once, and only while the project's channel is the chat the preview
 * asked about; anything else answers null and changes nothing. Approval records the chat
 * it was given for and queues the publication at the post's time (at once if it has passed).
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts p set status = case when p_approve then 'approved' else 'rejected' end,
    approved_chat_id = case when p_approve then p.approval_chat_id end
  where p.id = p_post_id and p.status = 'scheduled'
    and (p.approval_preview ->> 'chatId')::bigint = p_chat_id
    and (p.approval_preview ->> 'buttonsMessageId')::bigint = p_message_id
    and p.approval_chat_id = (select c.chat_id from app_public.channels c
                              where c.project_id = p.project_id and c.status = 'connected')
  returning * into v_post;
  if not found then
    return null;
  end if;
  if p_approve then
    perform app_private.queue_publication(v_post.id, greatest(now(), v_post.scheduled_for));
  else
    perform app_private.notify_owner(v_post.project_id, 'postRejected', v_post.id);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_send_failed(p_post_id bigint, p_reason text, p_definite boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: a definite refusal by Telegram fails the post with the reason; a lost answer or a
 * timeout leaves it uncertain (it may be in the channel). Either way the admin is told in
 * Telegram, and the owner by mail.
 */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = case when p_definite then 'failed' else 'uncertain' end,
    last_error = p_reason, sending_worker_id = null
  where id = p_post_id and status = 'sending'
  returning * into v_post;
  if found then
    perform app_private.notify_admin(p_post_id, case when p_definite then 'failed' else 'uncertain' end);
    perform app_private.notify_owner(v_post.project_id, 'postFailed', p_post_id);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.fail_post_for_channel_rights(p_post_id bigint, p_reason text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the approver no longer administers the channel, or the bot may no longer post:
     the post fails with a reason its owner reads (and gets by mail), before anything is
     sent, and nobody in Telegram is sent anything (the former approver may no longer be
     entitled to see the post) */
  with failed as (
    update app_public.posts set status = 'failed', last_error = p_reason, sending_worker_id = null
    where id = p_post_id
      and (status = 'approved' or (status = 'scheduled' and not (approval_preview ? 'chatId')))
    returning project_id, id
  )
  select app_private.notify_owner(project_id, 'channelLost', id) from failed
$function$;
