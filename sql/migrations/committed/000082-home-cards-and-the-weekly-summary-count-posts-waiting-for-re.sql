--! Previous: sha1:8166b6026684cbf129b1c700fd57ad3286b098c5
--! Hash: sha1:7a28b75022b0aa83e57273fcbfd81f046c49648e
--! Message: Home cards and the weekly summary count posts waiting for review

--! split: 3-in-review-counts.sql
-- The home cards and the weekly summary count the posts waiting for review: one more column in
-- what these functions return, so they are dropped here and made again from
-- sql/functions/home_cards.sql and sql/functions/notifications.sql.
drop function if exists app_public.account_project_overview(bigint);
drop function if exists app_public.weekly_summary(bigint, date);

--! split: 4-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.next_planned_post(p_project_id bigint, p_from timestamp with time zone)
 RETURNS TABLE(at timestamp with time zone, title text, recurring boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the project's next post from p_from on: the earliest one-off post still to go out
     (planned, waiting for review, waiting for approval or approved), or a running series' next
     date (skips and ends counted, as the calendar shows it), whichever comes first. A post in
     review is planned as much as one not yet sent for approval: it goes out at its time once
     approved. A series' title may be empty: its posts take their drafts in turn. */
  select n.at, n.title, n.recurring from (
    (select po.scheduled_for as at, po.title, false as recurring, po.id
     from app_public.posts po
     where po.project_id = p_project_id and not po.is_recurring
       and po.status in ('draft', 'in_review', 'scheduled', 'approved') and po.scheduled_for >= p_from
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

CREATE OR REPLACE FUNCTION app_private.posts_in_review(p_project_id bigint, p_author_id bigint)
 RETURNS TABLE(in_review integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the posts waiting for an editor's or owner's review (docs/review.md), as the home
     cards and the weekly summary count them: every one when p_author_id is null (for those
     who review), else only that author's (what an author waits for). They sit apart from
     posts_needing_attention: they wait for the team, not for the channel's approver. Read
     through the partial index posts_in_review_idx, a project's few waiting rows. */
  select count(*)::int from app_public.posts
  where project_id = p_project_id and status = 'in_review'
    and (p_author_id is null or review_author_id = p_author_id)
$function$;

CREATE OR REPLACE FUNCTION app_public.account_project_overview(p_user_id bigint)
 RETURNS TABLE(project_id bigint, channel_connected boolean, channel_awaiting_handle text, subscribers integer, subscribers_change_7d integer, next_post_at timestamp with time zone, next_post_title text, next_post_recurring boolean, awaiting_approval integer, failed integer, uncertain integer, late_approval integer, late_since timestamp with time zone, in_review integer, ad_income jsonb)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: every home card's figures in one read (docs/statistics.md, home cards): the
     subscribers now (the running count) and their change since the sample of 7 days ago
     (null when either is unknown), the approver still asked to confirm a channel (a request
     expired is none, as on the channels page), the next post, what needs the owner, the posts
     waiting for review (all of them for a member whose role reviews, posts.review in
     app_private.role_actions; a member's own for anyone else, which is what an author waits
     for), and what the ads published this calendar month (in the project's timezone) earned.
     Every project the user is a member of; each figure is an index lookup per project, never a
     scan of its history. */
  select p.id, c.id is not null, r.approver_handle, s.subscribers,
    s.subscribers - app_private.subscribers_at(c.id, now() - interval '7 days'),
    n.at, n.title, n.recurring,
    coalesce(a.awaiting_approval, 0), coalesce(a.failed, 0), coalesce(a.uncertain, 0), coalesce(a.late_approval, 0), a.late_since,
    coalesce(ir.in_review, 0),
    app_private.month_ad_income(p.id, p.timezone)
  from app_public.project_members m
  join app_public.projects p on p.id = m.project_id
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  left join app_private.channel_stats s on s.channel_id = c.id
  left join app_public.channels pc on pc.project_id = p.id and pc.status = 'pending'
  left join app_public.approver_requests r on r.channel_id = pc.id and r.created_at > now() - app_private.approver_request_ttl()
  left join lateral app_private.next_planned_post(p.id, now()) n on true
  left join lateral app_private.posts_needing_attention(p.id) a on true
  -- a join, not a subquery in the argument: posts_in_review stays inlined, an index lookup
  left join app_private.role_actions reviewer on reviewer.role = m.role and reviewer.action = 'posts.review'
  left join lateral app_private.posts_in_review(p.id, case when reviewer.role is null then m.user_id end) ir on true
  where m.user_id = p_user_id
  order by p.created_at desc, p.id desc
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
