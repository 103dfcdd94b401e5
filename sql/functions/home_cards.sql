-- The home cards functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.month_ad_income(p_project_id bigint, p_timezone text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the home card's ad income: the prices of the project's ads published since the
     first of this month in the project's timezone, one sum per currency (app_private.ad_totals,
     as the ad report totals them); [] when none. An ad counts once it went out: planned ones
     are not earned yet, rejected and failed ones never ran. Read through
     posts_project_published_idx, never a scan of the project's history */
  select app_private.ad_totals(jsonb_agg(po.ad -> 'price'))
  from app_public.posts po
  where po.project_id = p_project_id and po.status = 'published' and po.ad is not null
    and po.published_at >= (date_trunc('month', now() at time zone p_timezone) at time zone p_timezone)
$function$;

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
