--! Previous: sha1:aafbbbc64f53397b8fa7fa811bfddf4f0b5f1f3a
--! Hash: sha1:9f819e4f28b499411aa954881eeb3743ef7d05fc
--! Message: The default timezone has one home in SQL: app_private.default_timezone(), named by the projects' and content plan slots' column defaults

--! split: 47-default-timezone.sql
-- The default timezone has one home in SQL, app_private.default_timezone() (its source is
-- sql/functions/limits.sql; restated here because the column defaults below name it and the
-- migrations run before the function files). The value is unchanged: Europe/Moscow.
create or replace function app_private.default_timezone()
 returns text
 language sql
 immutable parallel safe
as $function$
  /* why: the timezone a project or a slot gets when none is given, in one place for every
     function and column default (DEFAULT_TIMEZONE in TypeScript) */
  select 'Europe/Moscow'::text
$function$;

alter table app_public.projects alter column timezone set default app_private.default_timezone();
alter table app_public.content_plans alter column timezone set default app_private.default_timezone();

--! split: 48-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.create_content_plan(p_user_id bigint, p_project_id bigint, p_day_of_week integer, p_time text, p_timezone text, p_post_length integer, p_active boolean)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), then the project's room (QUOTA: a week holds at most
   content_plan_slots_max slots, counted one add at a time), then the slot */
declare
  v_plan app_public.content_plans;
begin
  perform app_public.get_project(p_user_id, p_project_id);
  perform 1 from app_public.projects where id = p_project_id for update;
  if (select count(*) from app_public.content_plans where project_id = p_project_id) >= app_private.content_plan_slots_max() then
    raise exception 'A content plan holds at most % slots a week', app_private.content_plan_slots_max()
      using errcode = 'QUOTA', hint = 'contentPlans.quotaReached';
  end if;
  insert into app_public.content_plans (project_id, day_of_week, time, timezone, post_length, active)
  values (p_project_id, p_day_of_week, p_time, coalesce(p_timezone, app_private.default_timezone()), p_post_length, coalesce(p_active, true))
  returning * into v_plan;
  if v_plan.active then
    perform app_private.queue_autopilot_fill(p_project_id);
  end if;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_project(p_user_id bigint, p_name text, p_description text, p_writing_style jsonb, p_admin_handle text, p_timezone text, p_language text, p_sources text, p_max_projects integer DEFAULT NULL::integer)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
/* why: defaults of spec §3 come from the table; the handle is stored without its @; an account has at most p_max_projects */
declare
  v_project app_public.projects;
begin
  perform pg_advisory_xact_lock(hashtextextended('projects:' || p_user_id, 0));
  if p_max_projects is not null and (select count(*) from app_public.projects where user_id = p_user_id) >= p_max_projects then
    raise exception 'An account can have at most % projects. Delete one you no longer need.', p_max_projects
      using errcode = 'QUOTA', hint = 'projects.quotaReached';
  end if;
  insert into app_public.projects (user_id, name, description, writing_style, admin_handle, timezone, language, sources)
  values (
    p_user_id, btrim(p_name), coalesce(p_description, ''),
    coalesce(p_writing_style, '{"formality": 2, "seriousness": 2, "emojiUsage": 1}'),
    ltrim(btrim(p_admin_handle), '@'), coalesce(p_timezone, app_private.default_timezone()), coalesce(p_language, 'ru'),
    coalesce(p_sources, '')
  )
  returning * into v_project;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_suggested_times(p_user_id bigint, p_project_id bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the content plan's "Suggest times" (README "Statistics"), read from the best-times grid
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
