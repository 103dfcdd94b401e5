-- The notifications functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

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

CREATE OR REPLACE FUNCTION app_public.notification_settings(p_user_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the kinds of mail the account wants; a kind not stored yet is on. The weekly summary
     is a column of its own: off for accounts older than it, on for newer ones (migration 46) */
  select '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true, "webhookDisabled": true, "reviewRequested": true,
           "reviewApproved": true, "reviewReturned": true, "postCommented": true, "adRemovalDue": true, "adCannotDelete": true}'::jsonb || notifications
    || jsonb_build_object('weeklySummary', weekly_summary)
  from app_public.users where id = p_user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.owner_notification(p_project_id bigint, p_kind text, p_post_id bigint)
 RETURNS TABLE(email text, project_name text, language text, timezone text, post_title text, scheduled_for timestamp with time zone, reason_code text, reason_params jsonb, runs_dry_at timestamp with time zone, drafts_left integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the mail about one event says, read when it is sent; nothing when the owner
     has switched that kind off meanwhile */
  select u.email, p.name, coalesce(u.language, p.language), p.timezone, po.title, po.scheduled_for, po.last_error_code, po.last_error_params,
         f.runs_dry_at, f.drafts_left
  from app_public.projects p
  join app_public.users u on u.id = p.user_id
  left join app_public.posts po on po.id = p_post_id and po.project_id = p.id
  left join lateral app_private.queue_forecast(p.id, now()) f on p_kind = 'queueLow'
  where p.id = p_project_id and coalesce((u.notifications ->> p_kind)::boolean, true)
$function$;

CREATE OR REPLACE FUNCTION app_public.queue_weekly_summaries(p_now timestamp with time zone DEFAULT now())
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
/*
 * why: the weekly summary (docs/autopilot-and-ai.md "Notifications") goes out on Monday from 09:00 in the
 * project's timezone, once per project and week, to owners who keep it on, for projects with
 * a connected channel, about the week (Monday to Sunday) before. The hourly pass marks the
 * week (weekly_summaries_sent) and queues the mail in one transaction, so a second pass, a retried job or a restarted worker queues
 * nothing more; a pass missed at 09:00 is made up later the same Monday. Answers how many
 * were queued.
 */
declare
  v_due record;
  v_count integer := 0;
begin
  for v_due in
    insert into app_private.weekly_summaries_sent (project_id, week)
    select p.id, (p_now at time zone p.timezone)::date
    from app_public.projects p
    join app_public.users u on u.id = p.user_id and u.weekly_summary
    join app_public.channels c on c.project_id = p.id and c.status = 'connected'
    where extract(isodow from p_now at time zone p.timezone) = 1
      and extract(hour from p_now at time zone p.timezone) >= 9
    on conflict do nothing
    returning project_id, week
  loop
    -- one serial queue for the whole fan-out: a Monday's thousands of summaries go out one
    -- after another in one worker slot, never ahead of publishing and previews in the others
    -- (2,002 summaries once delayed a sign-in mail by 14.3 s)
    perform graphile_worker.add_job('weekly_summaries__send',
      json_build_object('projectId', v_due.project_id, 'week', v_due.week), max_attempts := 5,
      queue_name := 'mail:weekly_summaries',
      job_key := 'weekly_summary:' || v_due.project_id || ':' || v_due.week);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.set_user_language(p_user_id bigint, p_language text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the mails to a person are in the language they read Pressa in, not their project's */
  update app_public.users set language = p_language where id = p_user_id and language is distinct from p_language
$function$;

CREATE OR REPLACE FUNCTION app_public.update_notification_settings(p_user_id bigint, p_changes jsonb)
 RETURNS jsonb
 LANGUAGE sql
AS $function$
  /* why: PATCH semantics: only the kinds given change (the API accepts only known kinds); the
     weekly summary's switch is its column */
  update app_public.users set notifications = notifications || (p_changes - 'weeklySummary'),
    weekly_summary = coalesce((p_changes ->> 'weeklySummary')::boolean, weekly_summary)
  where id = p_user_id;
  select app_public.notification_settings(p_user_id);
$function$;

CREATE OR REPLACE FUNCTION app_public.weekly_summary(p_project_id bigint, p_week date)
 RETURNS TABLE(email text, project_name text, language text, timezone text, week_from timestamp with time zone, week_until timestamp with time zone, subscribers integer, subscribers_week_ago integer, joins integer, leaves integer, posts_published integer, top_post_title text, top_post_reactions integer, top_post_url text, top_link_name text, top_link_joins integer, drafts_left integer, planned_next_week integer, in_review integer, awaiting_approval integer, failed integer, uncertain integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what one weekly summary says, read when it is sent, about the week (Monday to Sunday
     in the project's timezone) before p_week: the subscribers now and their change since 7
     days ago (as the home card says it; null when unknown), joins and leaves, the published post with the most reactions (summed over its
     messages, as the Statistics page counts them; ties to the newer), the invite link that
     brought the most joins, and the queue: drafts left, posts planned for the week from p_week
     (one-off posts, those waiting for review among them, and series dates), the posts waiting
     for review (every one: the owner reviews), and what needs the owner. Nothing when the owner
     has switched it off meanwhile or the channel is gone. */
  select u.email, p.name, coalesce(u.language, p.language), p.timezone, w.since, w.until,
    s.subscribers, app_private.subscribers_at(c.id, now() - interval '7 days'),
    coalesce(m.joins, 0), coalesce(m.leaves, 0), coalesce(pub.posts, 0),
    top.title, top.reactions, top.url, link.name, link.joins,
    (select count(*)::int from app_public.available_series_drafts(p.id)),
    (select count(*)::int from app_public.posts po
     where po.project_id = p.id and not po.is_recurring and po.status in ('draft', 'in_review', 'scheduled', 'approved')
       and po.scheduled_for >= w.until and po.scheduled_for < w.next_until)
    + (select count(*)::int from app_public.posts sr
       cross join lateral app_private.series_upcoming(sr, w.next_until) x(at)
       where sr.project_id = p.id and sr.is_recurring and sr.status = 'draft' and x.at >= w.until and x.at < w.next_until),
    ir.in_review, a.awaiting_approval, a.failed, a.uncertain
  from app_public.projects p
  -- the weeks' bounds are midnights of the project's zone (a DST week is 167 or 169 hours)
  cross join lateral (
    select sent.week, (sent.week - 7)::timestamp at time zone p.timezone as since, sent.week::timestamp at time zone p.timezone as until,
      (sent.week + 7)::timestamp at time zone p.timezone as next_until
    from app_private.weekly_summaries_sent sent where sent.project_id = p.id and sent.week = p_week) w
  join app_public.users u on u.id = p.user_id and u.weekly_summary
  join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  left join app_private.channel_stats s on s.channel_id = c.id
  left join lateral (
    select sum(b.joins)::int as joins, sum(b.leaves)::int as leaves from app_private.member_buckets b
    where b.channel_id = c.id and b.bucket >= w.since and b.bucket < w.until) m on true
  left join lateral (
    select count(*)::int as posts from app_public.posts po
    where po.project_id = p.id and po.status = 'published'
      and po.published_at >= w.since and po.published_at < w.until) pub on true
  left join lateral (
    select po.title, r.reactions, (select v from jsonb_each_text(po.published_links) e(k, v) limit 1) as url
    from app_public.posts po
    cross join lateral (
      select coalesce(sum(mr.total), 0)::int as reactions from app_private.message_reactions mr
      where mr.channel_id = c.id and po.channel_chat_id = c.chat_id
        and mr.message_id in (select jsonb_array_elements_text(po.channel_message_ids)::bigint)) r
    where po.project_id = p.id and po.status = 'published'
      and po.published_at >= w.since and po.published_at < w.until and r.reactions > 0
    order by r.reactions desc, po.published_at desc, po.id desc
    limit 1) top on true
  left join lateral (
    select l.name, count(*)::int as joins from app_private.member_events e
    join app_public.invite_links l on l.id = e.invite_link_id
    where e.channel_id = c.id and e.kind = 'join' and e.invite_link_id is not null
      and e.happened_at >= w.since and e.happened_at < w.until
    group by l.id, l.name
    order by count(*) desc, l.id desc
    limit 1) link on true
  cross join lateral app_private.posts_needing_attention(p.id) a
  cross join lateral app_private.posts_in_review(p.id, null) ir
  where p.id = p_project_id
$function$;
