--! Previous: sha1:9f819e4f28b499411aa954881eeb3743ef7d05fc
--! Hash: sha1:f757de6b4eb57aff84394761df71cd56407362fb
--! Message: Home cards and the weekly summary: the users' weekly_summary switch (off for existing accounts, on for new), the sent-week markers, and an index of the posts that need the owner

--! split: 46-weekly-summary.sql
-- Issue 27 items 4 and 6: the home cards' one read and the weekly summary mail.

-- The weekly summary is a switch of its own (README "Notifications"): accounts that exist
-- when it ships get it off (they never asked for a new kind of mail), accounts made after
-- get it on. Adding the column with default false fills every existing row with false; the
-- default then becomes true for rows to come. Run again, the add does nothing and existing
-- choices stay as they are.
alter table app_public.users add column if not exists weekly_summary boolean not null default false;
alter table app_public.users alter column weekly_summary set default true;

-- One row per project and week a summary was queued for, written in the same transaction as
-- its job: a second pass the same Monday, a retry or a restarted worker finds the row and
-- queues nothing (README "Notifications").
create table if not exists app_private.weekly_summaries_sent (
  project_id bigint not null references app_public.projects (id) on delete cascade,
  week date not null, -- the Monday the summary went out, in the project's timezone
  created_at timestamptz not null default now(),
  primary key (project_id, week)
);

-- The home cards count the posts that need the owner (awaiting approval, failed, uncertain)
-- among a project's few such rows, never over its whole history of published posts.
create index if not exists posts_project_attention_idx on app_public.posts (project_id, status)
  where status in ('scheduled', 'failed', 'uncertain');

--! split: 47-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.notification_settings(p_user_id bigint)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the kinds of mail the account wants; a kind not stored yet is on. The weekly summary
     is a column of its own: off for accounts older than it, on for newer ones (migration 46) */
  select '{"queueLow": true, "postFailed": true, "postRejected": true, "channelLost": true}'::jsonb || notifications
    || jsonb_build_object('weeklySummary', weekly_summary)
  from app_public.users where id = p_user_id
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

CREATE OR REPLACE FUNCTION app_public.queue_weekly_summaries(p_now timestamp with time zone DEFAULT now())
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
/*
 * why: the weekly summary (README "Notifications") goes out on Monday from 09:00 in the
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
    perform graphile_worker.add_job('weekly_summaries__send',
      json_build_object('projectId', v_due.project_id, 'week', v_due.week), max_attempts := 5,
      job_key := 'weekly_summary:' || v_due.project_id || ':' || v_due.week);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_stats(p_user_id bigint, p_project_id bigint, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the Statistics page in one read (shared/DESIGN.md "Channel statistics"): days and the
   best times in the project's timezone (weekday 1 = Monday), a post's reactions summed over
   all its messages (an album, a photo then its text), and its link in the channel (what
   Published links to; null when the approver confirmed it by hand); at most 1,000 posts, the newest */
declare
  v_tz text;
  v_channel_id bigint;
  v_chat_id bigint;
  v_result jsonb;
begin
  select p.timezone, c.id, c.chat_id into v_tz, v_channel_id, v_chat_id
  from app_public.projects p
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  where p.id = p_project_id and p.user_id = p_user_id;
  if v_tz is null then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;

  with pub as (
    select p.id, p.title, p.published_at, p.channel_message_ids, p.channel_chat_id,
           (select l.value from jsonb_each_text(p.published_links) l order by l.key limit 1) as url
    from app_public.posts p
    where p.project_id = p_project_id and p.status = 'published'
      and p.published_at >= p_from and p.published_at < p_to
    order by p.published_at desc, p.id desc
    limit 1000
  ), reacted as (
    select pub.id, pub.title, pub.published_at, pub.url, coalesce(r.total, 0) as total, coalesce(r.by_emoji, '{}'::jsonb) as by_emoji
    from pub
    left join lateral (
      select sum(n)::int as total, jsonb_object_agg(k, n) as by_emoji
      from (
        select e.key as k, sum(e.value::int)::int as n
        from app_private.message_reactions m, jsonb_each_text(m.reactions) e
        where m.channel_id = v_channel_id and pub.channel_chat_id = v_chat_id
          and m.message_id in (select jsonb_array_elements_text(pub.channel_message_ids)::bigint)
        group by e.key
      ) per_emoji
    ) r on true
  )
  select jsonb_build_object(
    'subscribers', jsonb_build_object(
      'current', (select s.subscribers from app_private.channel_stats s where s.channel_id = v_channel_id),
      'points', coalesce((
        select jsonb_agg(jsonb_build_object('at', app_private.stats_iso(s.sampled_at), 'count', s.subscribers) order by s.sampled_at)
        from app_private.subscriber_samples s
        where s.channel_id = v_channel_id and s.sampled_at >= p_from and s.sampled_at < p_to), '[]'::jsonb)),
    'days', coalesce((
      select jsonb_agg(jsonb_build_object('day', d.day, 'joins', d.joins, 'leaves', d.leaves) order by d.day)
      from (
        select to_char((b.bucket at time zone v_tz)::date, 'YYYY-MM-DD') as day, sum(b.joins)::int as joins, sum(b.leaves)::int as leaves
        from app_private.member_buckets b
        where b.channel_id = v_channel_id and b.bucket >= p_from and b.bucket < p_to
        group by 1
      ) d where d.joins > 0 or d.leaves > 0), '[]'::jsonb),
    'posts', coalesce((
      select jsonb_agg(jsonb_build_object('postId', r.id, 'title', r.title, 'publishedAt', app_private.stats_iso(r.published_at), 'url', r.url,
        'reactions', jsonb_build_object('total', r.total, 'byEmoji', r.by_emoji)) order by r.published_at desc, r.id desc)
      from reacted r), '[]'::jsonb),
    'bestTimes', coalesce((
      select jsonb_agg(jsonb_build_object('weekday', t.weekday, 'hour', t.hour, 'posts', t.posts, 'avgReactions', t.avg_reactions)
        order by t.weekday, t.hour)
      from (
        select extract(isodow from r.published_at at time zone v_tz)::int as weekday,
               extract(hour from r.published_at at time zone v_tz)::int as hour,
               count(*)::int as posts, round(avg(r.total), 2)::float8 as avg_reactions
        from reacted r group by 1, 2
      ) t), '[]'::jsonb))
  into v_result;
  return v_result;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.subscribers_at(p_channel_id bigint, p_at timestamp with time zone)
 RETURNS integer
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the count at a past moment (a week ago, for the home cards and the weekly summary) is
     the last getChatMemberCount sample within the day before it; with none that close (a
     channel connected since, sampling stopped) the count is unknown, never guessed from an
     older one. The samples' primary key (channel, time) finds it in one index step. */
  select s.subscribers from app_private.subscriber_samples s
  where s.channel_id = p_channel_id and s.sampled_at <= p_at and s.sampled_at > p_at - interval '1 day'
  order by s.sampled_at desc
  limit 1
$function$;

CREATE OR REPLACE FUNCTION app_private.posts_needing_attention(p_project_id bigint)
 RETURNS TABLE(awaiting_approval integer, failed integer, uncertain integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the owner may have to act on, as the home cards and the weekly summary say it:
     posts waiting for the approver's answer, posts that failed in the last 7 days (older ones
     are history; the calendar still shows them) and posts whose fate is unknown (they wait for
     "It is in the channel" / "Send again" however old). Read through the partial index
     posts_project_attention_idx. */
  select count(*) filter (where status = 'scheduled')::int,
         count(*) filter (where status = 'failed' and updated_at >= now() - interval '7 days')::int,
         count(*) filter (where status = 'uncertain')::int
  from app_public.posts
  where project_id = p_project_id and status in ('scheduled', 'failed', 'uncertain')
$function$;

CREATE OR REPLACE FUNCTION app_private.next_planned_post(p_project_id bigint, p_from timestamp with time zone)
 RETURNS TABLE(at timestamp with time zone, title text, recurring boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the project's next post from p_from on: the earliest one-off post still to go out
     (planned, waiting for approval or approved), or a running series' next date (skips and
     ends counted, as the calendar shows it), whichever comes first. A series' title may be
     empty: its posts take their drafts in turn. */
  select n.at, n.title, n.recurring from (
    (select po.scheduled_for as at, po.title, false as recurring, po.id
     from app_public.posts po
     where po.project_id = p_project_id and not po.is_recurring
       and po.status in ('draft', 'scheduled', 'approved') and po.scheduled_for >= p_from
     order by po.scheduled_for, po.id
     limit 1)
    union all
    (select u.at, s.title, true, s.id
     from app_public.posts s
     cross join lateral (select x.at from app_private.series_upcoming(s, p_from + interval '60 days') x(at) where x.at >= p_from limit 1) u
     where s.project_id = p_project_id and s.is_recurring and s.status = 'draft')
  ) n
  order by n.at, n.id
  limit 1
$function$;

CREATE OR REPLACE FUNCTION app_public.account_project_overview(p_user_id bigint)
 RETURNS TABLE(project_id bigint, channel_connected boolean, channel_awaiting_handle text, subscribers integer, subscribers_change_7d integer, next_post_at timestamp with time zone, next_post_title text, next_post_recurring boolean, awaiting_approval integer, failed integer, uncertain integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: every home card's figures in one read (README "Statistics", home cards): the
     subscribers now (the running count) and their change since the sample of 7 days ago
     (null when either is unknown), the approver still asked to confirm a channel (a request
     expired is none, as on the channels page), the next post, and what needs the owner. Only
     the user's own projects; each figure is an index lookup per project, never a scan of its
     history. */
  select p.id, c.id is not null, r.approver_handle, s.subscribers,
    s.subscribers - app_private.subscribers_at(c.id, now() - interval '7 days'),
    n.at, n.title, n.recurring,
    coalesce(a.awaiting_approval, 0), coalesce(a.failed, 0), coalesce(a.uncertain, 0)
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

CREATE OR REPLACE FUNCTION app_public.weekly_summary(p_project_id bigint, p_week date)
 RETURNS TABLE(email text, project_name text, language text, timezone text, week_from timestamp with time zone, week_until timestamp with time zone, subscribers integer, subscribers_week_ago integer, joins integer, leaves integer, posts_published integer, top_post_title text, top_post_reactions integer, top_post_url text, top_link_name text, top_link_joins integer, drafts_left integer, planned_next_week integer, awaiting_approval integer, failed integer, uncertain integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what one weekly summary says, read when it is sent, about the week (Monday to Sunday
     in the project's timezone) before p_week: the subscribers now and their change since 7
     days ago (as the home card says it; null when unknown), joins and leaves, the published post with the most reactions (summed over its
     messages, as the Statistics page counts them; ties to the newer), the invite link that
     brought the most joins, and the queue: drafts left, posts planned for the week from p_week
     (one-off posts and series dates), and what needs the owner. Nothing when the owner has
     switched it off meanwhile or the channel is gone. */
  select u.email, p.name, p.language, p.timezone, w.since, w.until,
    s.subscribers, app_private.subscribers_at(c.id, now() - interval '7 days'),
    coalesce(m.joins, 0), coalesce(m.leaves, 0), coalesce(pub.posts, 0),
    top.title, top.reactions, top.url, link.name, link.joins,
    (select count(*)::int from app_public.available_series_drafts(p.id)),
    (select count(*)::int from app_public.posts po
     where po.project_id = p.id and not po.is_recurring and po.status in ('draft', 'scheduled', 'approved')
       and po.scheduled_for >= w.until and po.scheduled_for < w.next_until)
    + (select count(*)::int from app_public.posts sr
       cross join lateral app_private.series_upcoming(sr, w.next_until) x(at)
       where sr.project_id = p.id and sr.is_recurring and sr.status = 'draft' and x.at >= w.until and x.at < w.next_until),
    a.awaiting_approval, a.failed, a.uncertain
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
  where p.id = p_project_id
$function$;
