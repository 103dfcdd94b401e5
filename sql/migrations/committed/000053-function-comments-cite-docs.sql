--! Previous: sha1:25fee2663fa601c2554e6e3df84d6455522a5fa6
--! Hash: sha1:79a9d083f3a061b7ad59647b6e77697fe838979d
--! Message: Function comments cite docs/

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.open_approver_request(p_channel_id bigint, p_user_id bigint, p_kind text, p_approver_user_id bigint, p_approver_handle text, p_approver_name text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: the named approver must say yes in Telegram before an account acts in their name
 * (docs/trust-model.md). An approver who blocked the account is never asked again (CHBLK);
 * one request per approver and account waits at a time (CHREQ), so nobody can flood an
 * admin. The message is sent by a job queued in this transaction.
 */
declare
  v_id bigint;
begin
  if exists (select 1 from app_public.approver_blocks b
             where b.approver_user_id = p_approver_user_id and b.user_id = p_user_id) then
    raise exception '@% has refused requests from this account', ltrim(p_approver_handle, '@')
      using errcode = 'CHBLK', hint = 'channels.approverRefused';
  end if;
  insert into app_public.approver_requests (channel_id, user_id, kind, approver_user_id, approver_handle, approver_name)
  values (p_channel_id, p_user_id, p_kind, p_approver_user_id, ltrim(p_approver_handle, '@'), p_approver_name)
  returning id into v_id;
  -- in the approver's queue (app_private.approval_queue_name): many accounts asking one
  -- approver at once hold one worker slot, never all of them
  perform graphile_worker.add_job('approver_requests__ask', json_build_object('requestId', v_id),
    queue_name := 'approver:' || p_approver_user_id,
    job_key := 'approver_request:' || v_id, max_attempts := 5);
exception when unique_violation then
  raise exception 'A request to @% from this account is already waiting for an answer in Telegram', ltrim(p_approver_handle, '@')
    using errcode = 'CHREQ', hint = 'channels.requestPending';
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.decide_approver_request(p_request_id bigint, p_from_user_id bigint, p_message_id bigint, p_decision text)
 RETURNS TABLE(outcome text, channel_link text, project_language text)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approver's answer, counted only from the pinned approver, on the message sent for
 * the request (or on the request its buttons name, while that message's id is not yet
 * recorded), while it is open; anything else is 'stale' and changes nothing. allow: the
 * channel becomes connected (or the approver moves), and other accounts' requests for the
 * chat are dropped; a chat connected meanwhile elsewhere refuses it ('taken'). deny: the
 * request is removed. block: removed, and that account never asks this approver again.
 */
declare
  v_request app_public.approver_requests;
  v_channel app_public.channels;
  v_language text;
begin
  select * into v_request from app_public.approver_requests r
  -- the question's message id is recorded after it is sent: a press that comes first, from the
  -- pinned approver on the request its buttons name, counts all the same
  where r.id = p_request_id and r.approver_user_id = p_from_user_id
    and (r.message_id = p_message_id or r.message_id is null)
    and r.created_at > now() - app_private.approver_request_ttl()
  for update;
  if not found or p_decision not in ('allow', 'deny', 'block') then
    return query select 'stale'::text, null::text, null::text;
    return;
  end if;
  select * into v_channel from app_public.channels where id = v_request.channel_id for update;
  select language into v_language from app_public.projects where id = v_channel.project_id;
  delete from app_public.approver_requests where id = v_request.id;
  if p_decision = 'block' then
    insert into app_public.approver_blocks (approver_user_id, user_id)
    values (v_request.approver_user_id, v_request.user_id) on conflict do nothing;
  end if;
  if p_decision <> 'allow' then
    delete from app_public.channels where id = v_channel.id and status = 'pending';
    return query select case when p_decision = 'block' then 'blocked' else 'denied' end, v_channel.link, v_language;
    return;
  end if;
  if v_request.kind = 'handover' then
    if v_channel.status <> 'connected' then
      return query select 'stale'::text, v_channel.link, v_language;
      return;
    end if;
    perform app_private.move_approver(v_channel, v_request);
    return query select 'approverChanged'::text, v_channel.link, v_language;
    return;
  end if;
  begin
    -- Telegram confirmed the approver when the request was made: trusted as old as that.
    update app_public.channels set status = 'connected', rights_checked_at = v_request.created_at
    where id = v_channel.id and status = 'pending';
  exception when unique_violation then
    delete from app_public.channels where id = v_channel.id and status = 'pending';
    return query select 'taken'::text, v_channel.link, v_language;
    return;
  end;
  -- Only one account holds the chat: the others' requests for it are refused now.
  delete from app_public.channels where chat_id = v_channel.chat_id and status = 'pending' and id <> v_channel.id;
  -- the statistics start from Telegram's count at connection (docs/statistics.md)
  perform app_private.queue_subscriber_sample(v_channel.id, now());
  return query select 'connected'::text, v_channel.link, v_language;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.account_project_overview(p_user_id bigint)
 RETURNS TABLE(project_id bigint, channel_connected boolean, channel_awaiting_handle text, subscribers integer, subscribers_change_7d integer, next_post_at timestamp with time zone, next_post_title text, next_post_recurring boolean, awaiting_approval integer, failed integer, uncertain integer)
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

CREATE OR REPLACE FUNCTION app_public.record_published(p_post_id bigint, p_chat_id bigint, p_message_ids bigint[], p_links jsonb)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/* why: the send succeeded: keep the chat, its message ids and links; the draft leaves the
   list; a post to pin gets its pin (and its unpin) queued in the same step, so a crash
   cannot publish a post without them */
declare
  v_post app_public.posts;
begin
  update app_public.posts set status = 'published', channel_message_ids = to_jsonb(p_message_ids),
    channel_chat_id = p_chat_id, published_links = p_links, published_at = now(), sending_worker_id = null,
    last_error_code = null, last_error_params = '{}'
  where id = p_post_id and status in ('sending', 'uncertain')
  returning * into v_post;
  if not found then
    return v_post;
  end if;
  -- how late it went out (docs/operating.md "Metrics"); an early send counts as on time
  perform app_private.observe_metric('publish_lateness_seconds',
    greatest(0, extract(epoch from v_post.published_at - v_post.scheduled_for))::float8);
  if v_post.options ->> 'pin' = 'true' then
    perform app_private.queue_pinning(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.best_received_posts(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(post_id bigint, content text, reactions integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the examples of the voice that works that a post's prompt carries (docs/autopilot-and-ai.md "AI"):
     the project's 3 published posts of the last 90 days with the most reactions (summed over
     all their messages, at least one), ties to the newer; each text cut to 600 characters,
     so the prompt grows by at most ~1,800. Only the user's own project counts, with the reactions
     its connected channel recorded (as the Statistics page reads them); at most its 1,000 newest posts are looked at. */
  with recent as (
    select po.id, po.content, po.published_at, po.channel_chat_id, po.channel_message_ids
    from app_public.posts po
    join app_public.projects pr on pr.id = po.project_id and pr.user_id = p_user_id
    where po.project_id = p_project_id and po.status = 'published'
      and po.published_at >= now() - interval '90 days' and btrim(po.content) <> ''
    order by po.published_at desc, po.id desc
    limit 1000
  ), reacted as (
    select r.id, r.content, r.published_at,
      (select coalesce(sum(m.total), 0)::int
       from app_public.channels c
       join app_private.message_reactions m on m.channel_id = c.id
       where c.project_id = p_project_id and c.status = 'connected' and c.chat_id = r.channel_chat_id
         and m.message_id in (select jsonb_array_elements_text(r.channel_message_ids)::bigint)) as reactions
    from recent r
  )
  select r.id,
    case when length(r.content) > 600 then rtrim(left(r.content, 599)) || '…' else r.content end,
    r.reactions
  from reacted r
  where r.reactions > 0
  order by r.reactions desc, r.published_at desc, r.id desc
  limit 3
$function$;

CREATE OR REPLACE FUNCTION app_public.project_suggested_times(p_user_id bigint, p_project_id bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the content plan's "Suggest times" (docs/statistics.md), read from the best-times grid
   of the last 90 days: the posts published in the connected channel by weekday (1 = Monday) ×
   hour in the project's timezone, and their average reactions (a post without any counts as 0,
   as on the Statistics page). A grid says something only once it holds 10 posts with
   reactions at 3 different times or more; until then the answer is how many more posts that
   takes (each new post adds at most one time). Then the 3 times of the highest average that
   had reactions, ties to the time with more posts, then the earlier in the week; `inPlan` when
   a slot in the project's timezone already posts at that day and hour. At most the 1,000
   newest posts are read. */
declare
  v_posts_min constant integer := 10;
  v_times_min constant integer := 3;
  v_suggested constant integer := 3;
  v_tz text;
  v_channel_id bigint;
  v_chat_id bigint;
  v_reacted integer;
  v_times integer;
  v_ranked jsonb;
begin
  select p.timezone, c.id, c.chat_id into v_tz, v_channel_id, v_chat_id
  from app_public.projects p
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  where p.id = p_project_id and p.user_id = p_user_id;
  if v_tz is null then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;

  with pub as (
    select po.published_at, po.channel_message_ids
    from app_public.posts po
    where po.project_id = p_project_id and po.status = 'published' and po.channel_chat_id = v_chat_id
      and po.published_at >= now() - interval '90 days'
    order by po.published_at desc, po.id desc
    limit 1000
  ), reacted as (
    select pub.published_at,
      (select coalesce(sum(m.total), 0)::int from app_private.message_reactions m
       where m.channel_id = v_channel_id
         and m.message_id in (select jsonb_array_elements_text(pub.channel_message_ids)::bigint)) as total
    from pub
  ), grid as (
    select extract(isodow from r.published_at at time zone v_tz)::int as weekday,
           extract(hour from r.published_at at time zone v_tz)::int as hour,
           count(*)::int as posts, count(*) filter (where r.total > 0)::int as reacted,
           round(avg(r.total), 2)::float8 as avg_reactions
    from reacted r group by 1, 2
  ), ranked as (
    select g.*, row_number() over (order by g.avg_reactions desc, g.posts desc, g.weekday, g.hour) as place
    from grid g where g.reacted > 0
  )
  select coalesce((select sum(g.reacted) from grid g), 0)::int, (select count(*) from ranked)::int,
    coalesce(jsonb_agg(jsonb_build_object('weekday', r.weekday, 'hour', r.hour, 'avgReactions', r.avg_reactions,
      'posts', r.posts, 'inPlan', exists (
        select 1 from app_public.content_plans c
        where c.project_id = p_project_id and c.timezone = v_tz and c.day_of_week = r.weekday % 7
          and split_part(c.time, ':', 1)::int = r.hour)) order by r.place), '[]'::jsonb)
  into v_reacted, v_times, v_ranked
  from ranked r where r.place <= v_suggested;

  if v_reacted < v_posts_min or v_times < v_times_min then
    return jsonb_build_object('ready', false,
      'postsNeeded', greatest(v_posts_min - v_reacted, v_times_min - v_times),
      'timesNeeded', greatest(v_times_min - v_times, 0));
  end if;
  return jsonb_build_object('ready', true, 'times', v_ranked);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.prune_stats()
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
/* why: storage stays bounded (docs/statistics.md): raw member events live 30 days (longer
   than Telegram keeps an update waiting), hourly samples thin to the day's last after 30
   days, the 15-minute rollups live two years, and the reactions of a message that is no
   post of ours go after 30 days */
declare
  v_events integer;
  v_samples integer;
  v_buckets integer;
  v_reactions integer;
begin
  delete from app_private.member_events where recorded_at < now() - interval '30 days';
  get diagnostics v_events = row_count;
  delete from app_private.subscriber_samples s
  where s.sampled_at < now() - interval '30 days'
    and exists (select 1 from app_private.subscriber_samples t
                where t.channel_id = s.channel_id and t.sampled_at > s.sampled_at
                  and date_trunc('day', t.sampled_at, 'UTC') = date_trunc('day', s.sampled_at, 'UTC'));
  get diagnostics v_samples = row_count;
  delete from app_private.member_buckets where bucket < now() - interval '2 years';
  get diagnostics v_buckets = row_count;
  delete from app_private.message_reactions m
  using app_public.channels c
  where c.id = m.channel_id and m.reacted_at < now() - interval '30 days'
    and not exists (select 1 from app_public.posts p
                    where p.channel_chat_id = c.chat_id and p.channel_message_ids @> to_jsonb(m.message_id));
  get diagnostics v_reactions = row_count;
  return jsonb_build_object('events', v_events, 'samples', v_samples, 'buckets', v_buckets, 'reactions', v_reactions);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_member_update(p_update_id bigint, p_chat_id bigint, p_user_id bigint, p_date timestamp with time zone, p_old_status text, p_old_is_member boolean, p_new_status text, p_new_is_member boolean, p_invite_link text)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
/* why: one `chat_member` update in one statement (docs/statistics.md). A join is a change
   from not being a member (left, kicked, restricted outside) to being one (member,
   administrator, creator, restricted inside), a leave the reverse; anything else (a
   promotion) counts nothing. A repeated update (the same update_id, or the same person,
   moment and change) counts once. The person is kept only as a hash salted per channel. */
declare
  v_was boolean := p_old_status in ('creator', 'administrator', 'member') or (p_old_status = 'restricted' and coalesce(p_old_is_member, false));
  v_is boolean := p_new_status in ('creator', 'administrator', 'member') or (p_new_status = 'restricted' and coalesce(p_new_is_member, false));
  v_kind text;
  v_channel_id bigint;
  v_hash bytea;
  v_link_id bigint;
  v_event_id bigint;
begin
  v_kind := case when v_is and not v_was then 'join' when v_was and not v_is then 'leave' end;
  if v_kind is null then return 'ignored'; end if;
  select id into v_channel_id from app_public.channels where chat_id = p_chat_id and status = 'connected';
  if v_channel_id is null then return 'ignored'; end if;

  insert into app_private.channel_stats (channel_id) values (v_channel_id) on conflict do nothing;
  select sha256(s.salt || int8send(p_user_id)) into v_hash from app_private.channel_stats s where s.channel_id = v_channel_id;
  if v_kind = 'join' then
    -- ours even when revoked since: Telegram still names the link the person used
    select id into v_link_id from app_public.invite_links where channel_id = v_channel_id and url = p_invite_link;
  else
    select invite_link_id into v_link_id from app_private.link_members where channel_id = v_channel_id and member_hash = v_hash;
  end if;

  insert into app_private.member_events (channel_id, update_id, happened_at, member_hash, kind, invite_link_id)
  values (v_channel_id, p_update_id, p_date, v_hash, v_kind, v_link_id)
  on conflict do nothing
  returning id into v_event_id;
  if v_event_id is null then return 'repeated'; end if;

  insert into app_private.member_buckets as b (channel_id, bucket, joins, leaves)
  values (v_channel_id, date_bin('15 minutes', p_date, timestamptz '2000-01-01 00:00:00+00'),
    (v_kind = 'join')::int, (v_kind = 'leave')::int)
  on conflict (channel_id, bucket) do update set joins = b.joins + excluded.joins, leaves = b.leaves + excluded.leaves;
  update app_private.channel_stats
  set subscribers = greatest(subscribers + case when v_kind = 'join' then 1 else -1 end, 0)
  where channel_id = v_channel_id and subscribers is not null and p_date >= date_trunc('second', sampled_at);

  if v_link_id is not null then
    if v_kind = 'join' then
      update app_public.invite_links set joins = joins + 1 where id = v_link_id;
      insert into app_private.link_members (channel_id, member_hash, invite_link_id, joined_at)
      values (v_channel_id, v_hash, v_link_id, p_date)
      on conflict (channel_id, member_hash) do update set invite_link_id = excluded.invite_link_id, joined_at = excluded.joined_at;
    else
      update app_public.invite_links set leaves = leaves + 1 where id = v_link_id;
      delete from app_private.link_members where channel_id = v_channel_id and member_hash = v_hash;
    end if;
  elsif v_kind = 'join' then
    -- a join through another way: an earlier link's membership ended unseen
    delete from app_private.link_members where channel_id = v_channel_id and member_hash = v_hash;
  end if;
  return v_kind;
end;
$function$;
