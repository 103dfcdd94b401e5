-- The stats functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.queue_subscriber_sample(p_channel_id bigint, p_run_at timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: every getChatMemberCount of every channel runs in one serial queue, one channel at a
   time, so sampling many channels holds at most one worker slot and never crowds
   publishing; one waiting job per channel (job_key) */
begin
  perform graphile_worker.add_job('channels__sample_subscribers', json_build_object('channelId', p_channel_id),
    queue_name := 'stats:subscriber_samples', run_at := p_run_at, max_attempts := 3,
    job_key := 'subscribers:' || p_channel_id, job_key_mode := 'preserve_run_at');
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.stats_iso(p_at timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  /* why: timestamps inside the statistics' JSON read as the API's others do (Date#toJSON) */
  select to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$function$;

CREATE OR REPLACE FUNCTION app_public.best_received_posts(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(post_id bigint, content text, reactions integer)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the examples of the voice that works that a post's prompt carries (docs/autopilot-and-ai.md "AI"):
     the project's 3 published posts of the last 90 days with the most reactions (summed over
     all their messages, at least one), ties to the newer; each text cut to 600 characters,
     so the prompt grows by at most ~1,800. Only a member reads a project's, with the reactions
     its connected channel recorded (as the Statistics page reads them); at most its 1,000 newest posts are looked at. */
  with recent as (
    select po.id, po.content, po.published_at, po.channel_chat_id, po.channel_message_ids
    from app_public.posts po
    where po.project_id = p_project_id and po.status = 'published' and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null

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

CREATE OR REPLACE FUNCTION app_public.project_stats(p_user_id bigint, p_project_id bigint, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the Statistics page in one read (docs/statistics.md): days and the
   best times in the project's timezone (weekday 1 = Monday), a post's reactions summed over
   all its messages (an album, a photo then its text), and its link in the channel (what
   Published links to; null when the approver confirmed it by hand); at most 1,000 posts, the newest */
declare
  v_tz text;
  v_channel_id bigint;
  v_chat_id bigint;
  v_result jsonb;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  select p.timezone, c.id, c.chat_id into v_tz, v_channel_id, v_chat_id
  from app_public.projects p
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  where p.id = p_project_id;

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
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  select p.timezone, c.id, c.chat_id into v_tz, v_channel_id, v_chat_id
  from app_public.projects p
  left join app_public.channels c on c.project_id = p.id and c.status = 'connected'
  where p.id = p_project_id;

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

CREATE OR REPLACE FUNCTION app_public.queue_subscriber_samples()
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
/* why: the hourly sample of every connected channel, spread evenly over 50 minutes so that a
   thousand channels ask Telegram about one every few seconds, not all at once */
declare
  v_count integer;
begin
  select count(*) into v_count from app_public.channels where status = 'connected';
  perform app_private.queue_subscriber_sample(c.id,
    now() + make_interval(secs => (c.n - 1) * 3000.0 / greatest(v_count, 1)))
  from (select id, row_number() over (order by id) as n from app_public.channels where status = 'connected') c;
  return v_count;
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

CREATE OR REPLACE FUNCTION app_public.record_member_updates(p_updates jsonb)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
/* why: a big channel's backlog of member updates arrives by the hundred; the bot sends what
   it has gathered in one call, each update by record_member_update's rule, in the order
   they came; answers how many were joins or leaves not seen before */
declare
  v jsonb;
  v_counted integer := 0;
begin
  for v in select value from jsonb_array_elements(p_updates) loop
    if app_public.record_member_update((v ->> 'updateId')::bigint, (v ->> 'chatId')::bigint, (v ->> 'userId')::bigint,
         to_timestamp((v ->> 'date')::float8), v ->> 'oldStatus', (v ->> 'oldIsMember')::boolean,
         v ->> 'newStatus', (v ->> 'newIsMember')::boolean, v ->> 'inviteLink') in ('join', 'leave') then
      v_counted := v_counted + 1;
    end if;
  end loop;
  return v_counted;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_reaction_count(p_update_id bigint, p_chat_id bigint, p_message_id bigint, p_date timestamp with time zone, p_reactions jsonb)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
/* why: a `message_reaction_count` update carries every reaction the message has now, so it
   replaces the message's counts, never adds to them; an older or repeated update (by date,
   then update_id) changes nothing. Keys: the emoji, `custom:<id>` for a custom emoji,
   `paid` for paid (Star) reactions. */
declare
  v_channel_id bigint;
  v_counts jsonb;
  v_total integer;
  v_changed boolean;
begin
  select id into v_channel_id from app_public.channels where chat_id = p_chat_id and status = 'connected';
  if v_channel_id is null then return 'ignored'; end if;
  select coalesce(jsonb_object_agg(k, n), '{}'::jsonb), coalesce(sum(n), 0)
  into v_counts, v_total
  from (
    select case r -> 'type' ->> 'type'
             when 'emoji' then r -> 'type' ->> 'emoji'
             when 'custom_emoji' then 'custom:' || (r -> 'type' ->> 'custom_emoji_id')
             else r -> 'type' ->> 'type' end as k,
           sum(greatest((r ->> 'total_count')::int, 0))::int as n
    from jsonb_array_elements(coalesce(p_reactions, '[]'::jsonb)) r
    group by 1
  ) counts
  where k is not null and n > 0;

  insert into app_private.message_reactions as m (channel_id, message_id, reactions, total, reacted_at, update_id)
  values (v_channel_id, p_message_id, v_counts, v_total, p_date, p_update_id)
  on conflict (channel_id, message_id) do update
    set reactions = excluded.reactions, total = excluded.total, reacted_at = excluded.reacted_at, update_id = excluded.update_id
    where (m.reacted_at, m.update_id) < (excluded.reacted_at, excluded.update_id)
  returning true into v_changed;
  return case when v_changed then 'recorded' else 'stale' end;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.record_subscriber_sample(p_channel_id bigint, p_subscribers integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: Telegram's count replaces the running one; joins and leaves dated before it are in it
   already (record_member_update moves the count only for later ones) */
begin
  if not exists (select 1 from app_public.channels where id = p_channel_id and status = 'connected') then
    return;
  end if;
  insert into app_private.subscriber_samples (channel_id, sampled_at, subscribers)
  values (p_channel_id, now(), p_subscribers) on conflict do nothing;
  insert into app_private.channel_stats as s (channel_id, subscribers, sampled_at)
  values (p_channel_id, p_subscribers, now())
  on conflict (channel_id) do update set subscribers = excluded.subscribers, sampled_at = excluded.sampled_at;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.subscriber_sample_target(p_channel_id bigint)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: only a channel still connected is sampled; null when it is gone or pending */
  select chat_id from app_public.channels where id = p_channel_id and status = 'connected'
$function$;
