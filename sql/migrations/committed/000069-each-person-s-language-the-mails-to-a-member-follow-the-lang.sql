--! Previous: sha1:0c4970105ea31020459d6fb2b5f7129c1d168347
--! Hash: sha1:f975742bca087476d31effeee9dc094bc3d64987
--! Message: Each person's language: the mails to a member follow the language they read Pressa in, the project's until they choose

--! split: 68-user-language.sql
-- The language a person reads Pressa in (the SPA sends its choice): the mails to them follow
-- it; until they choose, a project's mail is in the project's language.
alter table app_public.users add column language text check (language in ('ru', 'en'));

--! split: 69-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
  select u.email, p.name, coalesce(u.language, p.language), p.timezone, w.since, w.until,
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

CREATE OR REPLACE FUNCTION app_public.set_user_language(p_user_id bigint, p_language text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the mails to a person are in the language they read Pressa in, not their project's */
  update app_public.users set language = p_language where id = p_user_id and language is distinct from p_language
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
