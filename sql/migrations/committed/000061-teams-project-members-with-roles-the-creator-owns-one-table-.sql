--! Previous: sha1:d40be38c59f3498d344e59c52f0d1e9dfa1f92a6
--! Hash: sha1:b37ec06a64b622baf48fb7da20974d71c5585f9e
--! Message: Teams: project members with roles (the creator owns), one table of what each role may do, every project-scoped function asks app_private.authorize; invitations

--! split: 61-teams.sql
-- Teams: a project has members with a role each, and the one table of what a role may do.

create table app_public.project_members (
  project_id bigint not null references app_public.projects (id) on delete cascade,
  user_id bigint not null references app_public.users (id) on delete cascade,
  role text not null check (role in ('owner', 'editor', 'author', 'viewer')),
  joined_at timestamptz not null default now(),
  primary key (project_id, user_id)
);
create index project_members_user_idx on app_public.project_members (user_id, project_id);

-- every project so far has one person: its creator, who owns it
insert into app_public.project_members (project_id, user_id, role, joined_at)
select id, user_id, 'owner', created_at from app_public.projects;

-- The single home of what each role may do (docs/teams.md). Every project-scoped function asks
-- app_private.authorize for one of these actions; tests/api/roles.test.ts walks every route
-- with every role against this table.
create table app_private.role_actions (
  role text not null check (role in ('owner', 'editor', 'author', 'viewer')),
  action text not null,
  primary key (role, action)
);
insert into app_private.role_actions (role, action)
select r.role, a.action
from (values
  ('project.read',        '{owner,editor,author,viewer}'),
  ('project.update',      '{owner}'),
  ('project.delete',      '{owner}'),
  ('channel.manage',      '{owner}'),
  ('members.manage',      '{owner}'),
  ('drafts.write',        '{owner,editor,author}'),
  ('ai.use',              '{owner,editor,author}'),
  ('posts.write',         '{owner,editor,author}'),
  ('posts.publish',       '{owner,editor}'),
  ('posts.review',        '{owner,editor}'),
  ('plans.write',         '{owner,editor}'),
  ('invite_links.manage', '{owner,editor}'),
  ('comments.write',      '{owner,editor,author}')
) as a (action, roles)
cross join lateral unnest(a.roles::text[]) as r (role);

create table app_public.project_invitations (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects (id) on delete cascade,
  email text not null check (length(email) between 3 and 254 and email like '%_@_%'),
  role text not null check (role in ('owner', 'editor', 'author', 'viewer')),
  -- the link's token is in the mail only; this is its SHA-256
  token_hash bytea not null unique,
  invited_by bigint references app_public.users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by bigint references app_public.users (id) on delete set null,
  withdrawn_at timestamptz
);
-- one open invitation per address and project: a second invite replaces the first
create unique index project_invitations_open_key on app_public.project_invitations (project_id, lower(email))
  where accepted_at is null and withdrawn_at is null;
create index project_invitations_day_idx on app_public.project_invitations (invited_by, created_at);

-- a locked post is now asked for with the action the caller needs (app_private.authorize)
drop function app_private.lock_post(bigint, bigint, bigint);
-- the projects list answers each project with the caller's role in it
drop function app_public.user_projects(bigint);

-- the account that creates a project owns it, whichever door made the row
CREATE OR REPLACE FUNCTION app_private.add_creator_as_owner()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  /* why: the account that creates a project owns it, whichever door made the row (the API, psql, a test) */
  insert into app_public.project_members (project_id, user_id, role) values (new.id, new.user_id, 'owner');
  return null;
end;
$function$;
create trigger _200_creator_owns after insert on app_public.projects
  for each row execute function app_private.add_creator_as_owner();

--! split: 62-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.add_chat_message(p_user_id bigint, p_project_id bigint, p_role text, p_content text)
 RETURNS app_public.chat_messages
 LANGUAGE plpgsql
AS $function$
/* why: the assistant's conversation is kept per project, written by the roles that may use AI */
declare
  v_message app_public.chat_messages;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'ai.use');
  insert into app_public.chat_messages (project_id, user_id, role, content)
  values (p_project_id, p_user_id, p_role, p_content)
  returning * into v_message;
  return v_message;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.ai_project(p_user_id bigint, p_project_id bigint)
 RETURNS app_public.projects
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the project whose voice an AI call writes in, for the roles that may use AI: asked
   before the call is counted or its tokens reserved, so a viewer spends no one's budget */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'ai.use');
  return (select p from app_public.projects p where p.id = p_project_id);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.chat_history(p_user_id bigint, p_project_id bigint, p_page integer, p_limit integer)
 RETURNS TABLE(id bigint, role text, content text, created_at timestamp with time zone, has_more boolean)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: history pages backwards from the newest: page 1 is the latest p_limit messages */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  return query
    with page as (
      select m.id, m.role, m.content, m.created_at from app_public.chat_messages m
      where m.project_id = p_project_id
      order by m.created_at desc, m.id desc
      offset (greatest(p_page, 1) - 1) * p_limit limit p_limit + 1
    )
    select page.id, page.role, page.content, page.created_at, (select count(*) from page) > p_limit
    from page order by page.created_at desc, page.id desc limit p_limit;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_generation_job(p_user_id bigint, p_project_id bigint, p_draft_ids bigint[], p_post_length integer)
 RETURNS app_public.generation_jobs
 LANGUAGE plpgsql
AS $function$
/*
 * why: "generate content" for 1 to drafts_per_generation_max selected drafts of the
 * project: a job row the client polls, and the worker job that fills the drafts, queued in
 * the same transaction. While another job of the project is running it is refused (GJRUN,
 * the detail is that job's id); a job silent for 15 minutes (its worker lost it for good)
 * no longer counts.
 */
declare
  v_ids bigint[];
  v_job app_public.generation_jobs;
  v_running bigint;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'ai.use');
  perform pg_advisory_xact_lock(hashtextextended('generation_job:' || p_project_id, 0));
  select id into v_running from app_public.generation_jobs
  where project_id = p_project_id and status in ('pending', 'processing') and updated_at > now() - interval '15 minutes'
  order by id desc limit 1;
  if v_running is not null then
    raise exception 'Content is already being generated for this project; wait for that job to finish'
      using errcode = 'GJRUN', hint = 'drafts.generationRunning', detail = v_running::text;
  end if;
  select coalesce(array_agg(distinct id), '{}') into v_ids from unnest(p_draft_ids) as id;
  if cardinality(v_ids) = 0 then
    raise exception 'drafts.noSelectedDrafts' using errcode = 'INVAL', hint = 'drafts.noSelectedDrafts';
  end if;
  if cardinality(v_ids) > app_private.drafts_per_generation_max() then
    raise exception 'drafts.tooManyDraftsSelected' using errcode = 'INVAL', hint = 'drafts.tooManyDraftsSelected';
  end if;
  if (select count(*) from app_public.drafts where project_id = p_project_id and id = any(v_ids)) <> cardinality(v_ids) then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  -- keep the user's order of the list
  select array_agg(id order by sort_order, created_at, id) into v_ids
  from app_public.drafts where id = any(v_ids);
  insert into app_public.generation_jobs (project_id, type, data, result)
  values (p_project_id, 'generate_content',
          jsonb_build_object('draftIds', to_jsonb(v_ids), 'postLength', p_post_length),
          jsonb_build_object('progress', jsonb_build_object('completed', 0, 'total', cardinality(v_ids)),
                             'drafts', '{}'::jsonb))
  returning * into v_job;
  -- in the account's AI queue: its jobs run one at a time, beside other accounts' jobs
  perform graphile_worker.add_job('drafts__generate_content', json_build_object('jobId', v_job.id),
    queue_name := app_private.ai_queue(p_user_id), max_attempts := 3);
  return v_job;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.get_generation_job(p_user_id bigint, p_project_id bigint, p_job_id bigint)
 RETURNS app_public.generation_jobs
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the client polls its job; a job of another project is "not found" */
declare
  v_job app_public.generation_jobs;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  select j.* into v_job from app_public.generation_jobs j
  where j.id = p_job_id and j.project_id = p_project_id;
  if not found then
    raise exception 'Job not found' using errcode = 'NTFND', hint = 'jobs.notFound';
  end if;
  return v_job;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.queue_health(p_user_id bigint, p_project_id bigint, p_now timestamp with time zone DEFAULT now())
 RETURNS TABLE(drafts_left integer, runs_dry_at timestamp with time zone, low boolean, posts_per_week integer)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the members' view of the queue's forecast (queue_forecast); a non-member is told "not found" */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  return query select * from app_private.queue_forecast(p_project_id, p_now);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.approver_change_prerequisites(p_user_id bigint, p_project_id bigint, p_handle text)
 RETURNS TABLE(connected_chat_id bigint, channel_link text, approver_user_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: a project with a connected channel may only name a new admin whom Telegram confirms
 * as an administrator of that channel. Answers what to ask Telegram (no row when nothing
 * needs checking: no channel, or the same handle); refuses a handle that has not messaged
 * the bot (ADMNR), as connecting does. Its columns are named as along the publish act
 * (docs/publishing.md "Names along the publish act"): the channel's chat now, and the user
 * who becomes channels.approver_user_id.
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'project.update');
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_channel app_public.channels := app_private.project_channel(p_project_id);
  v_handle text := ltrim(btrim(p_handle), '@');
  v_chat_id bigint;
begin
  if v_channel.id is null or lower(v_handle) = lower(v_project.admin_handle) then
    return;
  end if;
  select a.chat_id into v_chat_id from app_public.admin_chat_ids a where a.admin_handle = lower(v_handle);
  if v_chat_id is null then
    raise exception 'The admin @% has not messaged the bot yet: the admin must message the bot first', v_handle
      using errcode = 'ADMNR', hint = 'channels.adminNotRegistered';
  end if;
  return query select v_channel.chat_id, v_channel.link, v_chat_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.channel_prerequisites(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(admin_handle text, admin_chat_id bigint)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: before asking Telegram anything, check what the database alone can refuse: the
 * member may connect it (NTFND, team.forbidden), it has no channel yet, connected or waiting for its
 * approver (CHLIM; an expired request is no channel), and its admin has
 * messaged the bot (ADMNR, naming the handle). The admin's chat id is their user id,
 * which Telegram is then asked about.
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'channel.manage');
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
  v_chat_id bigint;
begin
  if app_private.live_channel(p_project_id) is not null then
    raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM', hint = 'channels.limitReached';
  end if;
  select a.chat_id into v_chat_id from app_public.admin_chat_ids a where a.admin_handle = lower(v_project.admin_handle);
  if v_chat_id is null then
    raise exception 'The admin @% has not messaged the bot yet: the admin must message the bot first', v_project.admin_handle
      using errcode = 'ADMNR', hint = 'channels.adminNotRegistered';
  end if;
  return query select v_project.admin_handle, v_chat_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_channel(p_user_id bigint, p_project_id bigint, p_channel_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: disconnecting a channel withdraws every approval given for it and revokes its invite
   links (they stay listed); a channel of another project is "not found" */
declare
  v_link text;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'channel.manage');
  select c.link into v_link from app_public.channels c
  where c.id = p_channel_id and c.project_id = p_project_id
  for update of c;
  if not found then
    raise exception 'Channel not found' using errcode = 'NTFND', hint = 'channels.noSuchChannel';
  end if;
  perform app_private.revoke_channel_invite_links(p_channel_id);
  delete from app_public.channels where id = p_channel_id;
  perform app_private.withdraw_approvals(p_project_id, 'posts.error.channelDisconnected', jsonb_build_object('channel', v_link),
    'channelChanged');
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.post_channel_messages(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS TABLE(status text, channel_chat_id bigint, channel_message_ids jsonb, published_links jsonb)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the messages "delete from channel" removes, asked before Telegram is called: only
   a publishing member's (projects.notFound, team.forbidden, posts.notFound), and only while the chat they are
   in is the project's channel (posts.channelChanged) */
declare
  v_post app_public.posts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
  select * into v_post from app_public.posts p where p.id = p_post_id and p.project_id = p_project_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  if v_post.status = 'published' and jsonb_array_length(v_post.channel_message_ids) > 0 then
    perform app_private.assert_post_in_channel(v_post);
  end if;
  return query select v_post.status, v_post.channel_chat_id, v_post.channel_message_ids, v_post.published_links;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.request_channel(p_user_id bigint, p_project_id bigint, p_type text, p_link text, p_chat_id bigint, p_approver_user_id bigint, p_approver_handle text, p_approver_name text)
 RETURNS app_public.channels
 LANGUAGE plpgsql
AS $function$
/*
 * why: stores a channel that Telegram confirmed (the bot may post; the approver is its
 * creator or an administrator who may post) as pending, and asks the approver, pinned by
 * user id, to allow it. Only a connected channel holds its chat, so a pending request never
 * blocks another account; a chat connected anywhere is refused (CHCON). One channel per
 * project is a unique constraint, so of two concurrent adds exactly one wins (CHLIM).
 */
declare
  v_channel app_public.channels;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'channel.manage');
  perform app_private.drop_expired_approver_requests();
  if exists (select 1 from app_public.channels c where c.chat_id = p_chat_id and c.status = 'connected') then
    raise exception '% is already connected in another project or account. It must be disconnected there first.', p_link
      using errcode = 'CHCON', hint = 'channels.alreadyConnected';
  end if;
  begin
    insert into app_public.channels (project_id, type, link, status, config, chat_id,
      approver_user_id, approver_handle, approver_name)
    values (p_project_id, p_type, p_link, 'pending',
            jsonb_build_object('chatId', p_chat_id, 'adminChatId', p_approver_user_id), p_chat_id,
            p_approver_user_id, ltrim(p_approver_handle, '@'), p_approver_name)
    returning * into v_channel;
  exception when unique_violation then
    raise exception 'Channel limit reached: a project has one channel' using errcode = 'CHLIM', hint = 'channels.limitReached';
  end;
  perform app_private.open_approver_request(v_channel.id, p_user_id, 'connect', p_approver_user_id, p_approver_handle, p_approver_name);
  return v_channel;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_content_plan(p_user_id bigint, p_project_id bigint, p_day_of_week integer, p_time text, p_timezone text, p_post_length integer, p_active boolean)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: the role first (NTFND, team.forbidden), then the project's room (QUOTA: a week holds at most
   content_plan_slots_max slots, counted one add at a time), then the slot */
declare
  v_plan app_public.content_plans;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'plans.write');
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

CREATE OR REPLACE FUNCTION app_public.delete_content_plan(p_user_id bigint, p_project_id bigint, p_plan_id bigint)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: removes one slot of the project, and its future posts not yet sent;
   a slot of another project is "not found" */
declare
  v_plan app_public.content_plans;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'plans.write');
  perform app_private.autopilot_remove_slot_posts(c.id)
  from app_public.content_plans c
  where c.id = p_plan_id and c.project_id = p_project_id;
  delete from app_public.content_plans c
  where c.id = p_plan_id and c.project_id = p_project_id
  returning c.* into v_plan;
  if not found then
    raise exception 'Content plan slot not found' using errcode = 'NTFND', hint = 'contentPlans.notFound';
  end if;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_content_plan(p_user_id bigint, p_project_id bigint, p_plan_id bigint, p_changes jsonb)
 RETURNS app_public.content_plans
 LANGUAGE plpgsql
AS $function$
/* why: PATCH semantics on one slot of the project; a slot of another project is "not found".
   A slot switched off or moved (day, time, zone) takes back its future unsent posts; an
   active slot is filled again at once (a new length applies to the posts still to come). */
declare
  v_plan app_public.content_plans;
  v_before app_public.content_plans;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'plans.write');
  select c.* into v_before from app_public.content_plans c
  where c.id = p_plan_id and c.project_id = p_project_id
  for update of c;
  update app_public.content_plans c set
    day_of_week = coalesce((p_changes ->> 'dayOfWeek')::smallint, c.day_of_week),
    time = coalesce(p_changes ->> 'time', c.time),
    timezone = coalesce(p_changes ->> 'timezone', c.timezone),
    post_length = coalesce((p_changes ->> 'postLength')::int, c.post_length),
    active = coalesce((p_changes ->> 'active')::boolean, c.active)
  where c.id = p_plan_id and c.project_id = p_project_id
  returning c.* into v_plan;
  if not found then
    raise exception 'Content plan slot not found' using errcode = 'NTFND', hint = 'contentPlans.notFound';
  end if;
  if not v_plan.active or (v_plan.day_of_week, v_plan.time, v_plan.timezone) is distinct from (v_before.day_of_week, v_before.time, v_before.timezone) then
    perform app_private.autopilot_remove_slot_posts(v_plan.id);
  end if;
  if v_plan.active then
    perform app_private.queue_autopilot_fill(p_project_id);
  end if;
  return v_plan;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.lock_draft(p_user_id bigint, p_project_id bigint, p_draft_id bigint)
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: the draft a member's request changes (edit, delete), locked until the change
   commits, once the role may write drafts; a draft of another project is "not found" */
declare
  v_draft app_public.drafts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  select d.* into v_draft from app_public.drafts d
  where d.id = p_draft_id and d.project_id = p_project_id
  for update of d;
  if not found then
    raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
  end if;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.lock_drafts_order(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: one writer of a project's drafts order at a time (a move, a whole-list reorder; adds
 * take the same row with assert_draft_room), so two tabs' moves apply one after the other.
 * The project row is locked "for no key update": inserts that only reference the project
 * (drafts, posts) are not held up. Only a role that writes drafts reorders them.
 */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  perform 1 from app_public.projects where id = p_project_id for no key update;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.bulk_create_drafts(p_user_id bigint, p_project_id bigint, p_titles text[], p_max_drafts integer DEFAULT NULL::integer)
 RETURNS SETOF app_public.drafts
 LANGUAGE plpgsql
AS $function$
/*
 * why: bulk add (spec §5): lines are trimmed, blank ones ignored, at most bulk_add_lines_max
 * remain, all inserted together (within the project's room) and appended after the existing
 * drafts in the given order.
 */
declare
  v_titles text[];
  v_next int;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  select coalesce(array_agg(btrim(t) order by n), '{}') into v_titles
  from unnest(p_titles) with ordinality as u(t, n)
  where btrim(t) <> '';
  if cardinality(v_titles) = 0 then
    raise exception 'drafts.bulkAddFailed' using errcode = 'INVAL', hint = 'drafts.bulkAddFailed';
  end if;
  if cardinality(v_titles) > app_private.bulk_add_lines_max() then
    raise exception 'drafts.bulkAddMaxLinesError' using errcode = 'INVAL', hint = 'drafts.bulkAddMaxLinesError';
  end if;
  perform app_private.assert_draft_room(p_project_id, cardinality(v_titles), p_max_drafts);
  select coalesce(max(sort_order) + 1, 0) into v_next from app_public.drafts where project_id = p_project_id;
  return query
    insert into app_public.drafts (project_id, title, sort_order)
    select p_project_id, t, v_next + (n - 1)::int from unnest(v_titles) with ordinality as u(t, n)
    returning *;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.create_draft(p_user_id bigint, p_project_id bigint, p_title text, p_content text, p_image_url text, p_order integer, p_max_drafts integer DEFAULT NULL::integer, p_entities jsonb DEFAULT '[]'::jsonb, p_options jsonb DEFAULT '{}'::jsonb, p_image_urls text[] DEFAULT NULL::text[])
 RETURNS app_public.drafts
 LANGUAGE plpgsql
AS $function$
/* why: ownership first (NTFND), the project's room (QUOTA), then the row; order defaults to 0 as in the spec's data */
declare
  v_draft app_public.drafts;
  v_images text[];
begin
  perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  perform app_private.assert_draft_room(p_project_id, 1, p_max_drafts);
  -- an album when one is given, else the one image
  v_images := app_private.assert_project_uploads(p_project_id, coalesce(p_image_urls, array_remove(array[nullif(p_image_url, '')], null)));
  insert into app_public.drafts (project_id, title, content, entities, image_url, image_urls, options, sort_order)
  values (p_project_id, btrim(p_title), coalesce(p_content, ''), coalesce(p_entities, '[]'), v_images[1], v_images,
          coalesce(p_options, '{}'), coalesce(p_order, 0))
  returning * into v_draft;
  return v_draft;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.account_project_overview(p_user_id bigint)
 RETURNS TABLE(project_id bigint, channel_connected boolean, channel_awaiting_handle text, subscribers integer, subscribers_change_7d integer, next_post_at timestamp with time zone, next_post_title text, next_post_recurring boolean, awaiting_approval integer, failed integer, uncertain integer, late_approval integer, late_since timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: every home card's figures in one read (docs/statistics.md, home cards): the
     subscribers now (the running count) and their change since the sample of 7 days ago
     (null when either is unknown), the approver still asked to confirm a channel (a request
     expired is none, as on the channels page), the next post, and what needs the owner. Every
     project the user is a member of; each figure is an index lookup per project, never a scan of its
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
  where p.id in (select m.project_id from app_public.project_members m where m.user_id = p_user_id)
  order by p.created_at desc, p.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.add_invite_link(p_user_id bigint, p_project_id bigint, p_chat_id bigint, p_name text, p_url text, p_max integer)
 RETURNS TABLE(id bigint, name text, url text, joins integer, leaves integer, created_at timestamp with time zone, revoked boolean)
 LANGUAGE plpgsql
AS $function$
/* why: records the link Telegram made, for the channel it was made in; the project's row
   is locked so two requests at once cannot both take the last place */
declare
  v_channel_id bigint;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  perform 1 from app_public.projects pr where pr.id = p_project_id for update;
  select c.id into v_channel_id from app_public.channels c
  where c.project_id = p_project_id and c.status = 'connected' and c.chat_id = p_chat_id;
  if v_channel_id is null then
    raise exception 'Connect a channel before creating invite links' using errcode = 'NOCHN', hint = 'inviteLinks.noChannel';
  end if;
  if (select count(*) from app_public.invite_links l where l.project_id = p_project_id) >= p_max then
    raise exception 'A project can have at most % invite links', p_max using errcode = 'QUOTA', hint = 'inviteLinks.quotaReached';
  end if;
  return query
  insert into app_public.invite_links as l (project_id, channel_id, name, url)
  values (p_project_id, v_channel_id, p_name, p_url)
  returning l.id, l.name, l.url, l.joins, l.leaves, l.created_at, false;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_link_prerequisites(p_user_id bigint, p_project_id bigint, p_max integer)
 RETURNS TABLE(chat_id bigint, channel_link text)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: before Telegram is asked for a link: the member's role may make links, the project's channel is
   connected, and the project has room for one more link (revoked ones count too, so
   making and revoking cannot run up Telegram calls); answers the channel's chat and link */
declare
  v_chat_id bigint;
  v_link text;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  select c.chat_id, c.link into v_chat_id, v_link from app_public.channels c where c.project_id = p_project_id and c.status = 'connected';
  if v_chat_id is null then
    raise exception 'Connect a channel before creating invite links' using errcode = 'NOCHN', hint = 'inviteLinks.noChannel';
  end if;
  if (select count(*) from app_public.invite_links l where l.project_id = p_project_id) >= p_max then
    raise exception 'A project can have at most % invite links', p_max using errcode = 'QUOTA', hint = 'inviteLinks.quotaReached';
  end if;
  return query select v_chat_id, v_link;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_link_to_revoke(p_user_id bigint, p_project_id bigint, p_link_id bigint)
 RETURNS TABLE(chat_id bigint, channel_link text, url text, revoked boolean)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: the link to revoke in Telegram, only the project's own (another's is not found) */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  return query
  select c.chat_id, c.link, l.url, l.revoked_at is not null
  from app_public.invite_links l
  left join app_public.channels c on c.id = l.channel_id -- none once the channel is disconnected (its links were revoked then)
  where l.id = p_link_id and l.project_id = p_project_id;
  if not found then
    raise exception 'Invite link not found' using errcode = 'NTFND', hint = 'inviteLinks.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.revoke_invite_link(p_user_id bigint, p_project_id bigint, p_link_id bigint)
 RETURNS TABLE(id bigint, name text, url text, joins integer, leaves integer, created_at timestamp with time zone, revoked boolean)
 LANGUAGE plpgsql
AS $function$
/* why: a revoked link stays listed with its figures; joins through it still count for it */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'invite_links.manage');
  return query
  update app_public.invite_links l set revoked_at = coalesce(l.revoked_at, now())
  where l.id = p_link_id and l.project_id = p_project_id
  returning l.id, l.name, l.url, l.joins, l.leaves, l.created_at, true;
  if not found then
    raise exception 'Invite link not found' using errcode = 'NTFND', hint = 'inviteLinks.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.request_post_approval(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the Publish button. Only a post in status draft can be sent for approval; content
 * over Telegram's maximum (post_text_max) is refused here, naming the length and the maximum. A
 * post already sent for approval (the automatic request 2 hours before came first) answers
 * as it is: what the user asked for is under way.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.publish');
  v_length int;
begin
  if v_post.is_recurring then
    raise exception 'A recurring series is sent for approval one occurrence at a time' using errcode = 'INVAL', hint = 'schedule.seriesNotPublishable';
  end if;
  if v_post.status = 'scheduled' then
    return v_post;
  end if;
  if v_post.status <> 'draft' then
    raise exception 'Only a post in status draft can be sent for approval' using errcode = 'INVAL', hint = 'schedule.notPlanned';
  end if;
  v_length := length(v_post.content);
  if v_length > app_private.post_text_max() then
    raise exception 'schedule.captionTooLong: %/%', v_length, app_private.post_text_max() using errcode = 'CLONG', hint = 'schedule.captionTooLong';
  end if;
  if app_private.project_channel(p_project_id) is null then
    raise exception 'Connect a channel before publishing' using errcode = 'NOCHN', hint = 'schedule.noChannelToPublish';
  end if;
  update app_public.posts set status = 'scheduled', last_error_code = null, last_error_params = '{}' where id = p_post_id returning * into v_post;
  perform app_private.queue_approval_at(v_post, now());
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
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.publish');
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

CREATE OR REPLACE FUNCTION app_public.resolve_uncertain_post_as_owner(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_in_channel boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the project's publishing members may answer the same question from the post's details
 * (they can look at the channel too). A post no longer uncertain (the admin answered first) is
 * answered as it is, unchanged.
 */
declare
  v_post app_public.posts;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
  perform 1 from app_public.posts po where po.id = p_post_id and po.project_id = p_project_id;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  v_post := app_private.resolve_uncertain(p_post_id, p_in_channel);
  if v_post.id is null then
    select * into v_post from app_public.posts where id = p_post_id;
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.lock_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_action text)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: the post a member's request changes (edit, delete, Publish), locked until the change
 * commits: a non-member is told the project is "not found" (projects.notFound), a role
 * without p_action is refused (team.forbidden), then a post not in the project is "not
 * found" (posts.notFound).
 */
declare
  v_post app_public.posts;
begin
  perform app_private.authorize(p_user_id, p_project_id, p_action);
  select * into v_post from app_public.posts where id = p_post_id and project_id = p_project_id for update;
  if not found then
    raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_delete_series boolean)
 RETURNS SETOF app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: deletes a post (or, for a series or one of its occurrences with p_delete_series,
 * the series and its unpublished occurrences) and every job that would act on it. Answers
 * the deleted rows so the caller can remove their channel messages. A post being sent
 * right now cannot be deleted.
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_series_id bigint;
  v_row app_public.posts;
begin
  -- what reached Telegram (an approver's preview, the channel) is the publishing roles' to take back
  if v_post.status not in ('draft', 'rejected', 'failed') then
    perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
  end if;
  v_series_id := case when v_post.is_recurring then v_post.id else v_post.series_id end;
  for v_row in
    select * from app_public.posts
    where project_id = p_project_id
      and (id = p_post_id
           or (p_delete_series and v_series_id is not null
               and (id = v_series_id or (series_id = v_series_id and status <> 'published'))))
    for update
  loop
    if v_row.status = 'sending' then
      raise exception 'The post is being published right now; try again in a moment' using errcode = 'EDPUB', hint = 'schedule.cannotDeleteSending';
    end if;
    perform app_private.retract_approval(v_row, 'deleted');
    perform app_private.unqueue_post_jobs(v_row.id);
    delete from app_public.posts where id = v_row.id;
    return next v_row;
  end loop;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.schedule_post(p_user_id bigint, p_project_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: creates a post in status draft. One-time: linked to the chosen draft, whose title,
 * content, formatting and image it copies, and its options unless the request gives its
 * own. Recurring: a series with placeholder text whose occurrences take drafts in turn. Past times are refused (the client computes the instant in the
 * project's timezone; the comparison is absolute). A project without a channel plans too:
 * its posts wait for one (claim_post_for_approval, queue_waiting_approvals).
 */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'posts.write');
  v_project app_public.projects := (select p from app_public.projects p where p.id = p_project_id);
  v_draft app_public.drafts;
  v_post app_public.posts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring then
    if not exists (select 1 from app_public.available_series_drafts(p_project_id)) then
      raise exception 'schedule.noDraftsForRecurring' using errcode = 'INVAL', hint = 'schedule.noDraftsForRecurring';
    end if;
    perform app_private.assert_series_end(v_project, p_scheduled_for, p_ends_after, p_ends_on);
    perform 1 from app_public.projects where id = p_project_id for update; -- counted one add at a time
    if (select count(*) from app_public.posts where project_id = p_project_id and is_recurring) >= app_private.series_per_project_max() then
      raise exception 'A project can have at most % recurring series', app_private.series_per_project_max()
        using errcode = 'QUOTA', hint = 'schedule.tooManySeries';
    end if;
    insert into app_public.posts (project_id, title, content, entities, options, scheduled_for, is_recurring, recurring_type,
                                  series_ends_after, series_ends_on)
    values (p_project_id, coalesce(p_title, ''), coalesce(p_content, ''), coalesce(p_entities, '[]'), coalesce(p_options, '{}'),
            p_scheduled_for, true, p_recurring_type, p_ends_after, p_ends_on)
    returning * into v_post;
    perform app_private.queue_series_spawn(v_post, now());
    return v_post;
  end if;
  v_draft := app_private.draft_for_post(p_project_id, p_draft_id, null);
  insert into app_public.posts (project_id, draft_id, title, content, entities, image_url, image_urls, options, scheduled_for)
  values (p_project_id, v_draft.id, v_draft.title, v_draft.content, v_draft.entities, v_draft.image_url, v_draft.image_urls,
          coalesce(p_options, v_draft.options), p_scheduled_for)
  returning * into v_post;
  perform app_private.queue_approval(v_post);
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_post(p_user_id bigint, p_project_id bigint, p_post_id bigint, p_draft_id bigint, p_scheduled_for timestamp with time zone, p_recurring_type text, p_title text, p_content text, p_entities jsonb DEFAULT NULL::jsonb, p_options jsonb DEFAULT NULL::jsonb, p_ends_after integer DEFAULT NULL::integer, p_ends_on date DEFAULT NULL::date)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: editing moves the post's jobs. A published post's time cannot be edited (its text
 * goes to the approver, and only while its chat is the project's channel); one being sent
 * cannot be edited at all. An edited post that was already sent for approval goes back to draft:
 * the admin approved the old version, so they are asked again. An edited series starts
 * again from its new time (and a series that stopped for lack of drafts runs again), with
 * the end the request gives (the occurrences made so far count towards "after N posts";
 * skipped dates stay skipped).
 */
declare
  v_post app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_post_id, 'posts.write');
  v_draft app_public.drafts;
  v_recurring boolean := coalesce(p_recurring_type, 'none') <> 'none';
begin
  if v_post.status = 'published' then
    -- the channel's text is the publishing roles' to change
    perform app_private.authorize(p_user_id, p_project_id, 'posts.publish');
    -- only while it is in the project's channel: the chat's own administrators never
    -- approved a later approver or channel
    perform app_private.assert_post_in_channel(v_post);
    -- its time and recurrence are history; its text, formatting and buttons may change
    -- through the approver (request_post_edit)
    if date_trunc('milliseconds', p_scheduled_for) <> date_trunc('milliseconds', v_post.scheduled_for) or v_recurring
       or v_post.is_recurring then
      raise exception 'cannot edit published' using errcode = 'EDPUB', hint = 'schedule.cannotEditPublished';
    end if;
    return app_private.request_post_edit(v_post, p_content, p_entities, p_options -> 'buttons');
  end if;
  if v_post.status in ('sending', 'uncertain') then
    raise exception 'The post is being published right now and cannot be edited' using errcode = 'EDPUB', hint = 'schedule.cannotEditSending';
  end if;
  if p_scheduled_for <= now() then
    raise exception 'Cannot schedule posts in the past. Please select a future time.' using errcode = 'PASTT', hint = 'schedule.pastTime';
  end if;
  if v_recurring <> v_post.is_recurring then
    raise exception 'A one-time post cannot become recurring or the other way round; delete it and schedule anew'
      using errcode = 'INVAL', hint = 'schedule.cannotChangeRecurrence';
  end if;
  if not v_recurring then
    v_draft := app_private.draft_for_post(p_project_id, p_draft_id, p_post_id);
  else
    perform app_private.assert_series_end(app_public.get_project(p_user_id, p_project_id), p_scheduled_for, p_ends_after, p_ends_on);
  end if;
  perform app_private.retract_approval(v_post, 'edited');
  perform app_private.unqueue_post_jobs(v_post.id);
  update app_public.posts set
    draft_id = case when v_recurring then null else v_draft.id end,
    title = case when v_recurring then coalesce(p_title, title) else v_draft.title end,
    content = case when v_recurring then coalesce(p_content, content) else v_draft.content end,
    entities = case when v_recurring then coalesce(p_entities, case when p_content is null then entities else '[]' end)
                    else v_draft.entities end,
    image_url = case when v_recurring then null else v_draft.image_url end,
    image_urls = case when v_recurring then '{}' else v_draft.image_urls end,
    options = coalesce(p_options, case when v_recurring then options else v_draft.options end),
    scheduled_for = p_scheduled_for,
    recurring_type = coalesce(p_recurring_type, 'none'),
    status = 'draft',
    recurring_last_post = case when v_recurring then null else recurring_last_post end,
    series_ends_after = case when v_recurring then p_ends_after end,
    series_ends_on = case when v_recurring then p_ends_on end,
    approval_preview = '{}',
    last_error_code = null, last_error_params = '{}'
  where id = p_post_id
  returning * into v_post;
  if v_recurring then
    perform app_private.queue_series_spawn(v_post, now());
  else
    perform app_private.queue_approval(v_post);
  end if;
  return v_post;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.write_and_schedule_post(p_user_id bigint, p_project_id bigint, p_scheduled_for timestamp with time zone, p_title text, p_content text, p_entities jsonb, p_options jsonb, p_max_drafts integer)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: write, then schedule, as Telegram's own scheduling does: the schedule form's new
 * post becomes its draft and its one-time post in one transaction, so a refused time leaves
 * no stray draft and no series can take the draft between the two (create_draft checks the
 * member's role and the project's room; schedule_post the time and the draft).
 */
declare
  v_draft app_public.drafts;
begin
  select * into v_draft from app_public.create_draft(p_user_id, p_project_id, p_title, p_content, '', -1, p_max_drafts,
    coalesce(p_entities, '[]'), coalesce(p_options, '{}'), null);
  return app_public.schedule_post(p_user_id, p_project_id, v_draft.id, p_scheduled_for, 'none', null, null, null, p_options);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_project(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: deleting a project removes its channel, drafts, posts, chat, jobs and uploads
 * (cascade), and revokes its invite links in Telegram; their files are deleted by the worker (uploads__delete), and their URLs
 * answer 404 at once since the rows are gone.
 */
declare
  v_keys text[];
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.delete');
  select coalesce(array_agg(key), '{}') into v_keys from app_private.uploads where project_id = p_project_id;
  -- its links go with it, so nobody could revoke them later
  perform app_private.revoke_channel_invite_links(c.id) from app_public.channels c where c.project_id = p_project_id;
  delete from app_public.projects where id = p_project_id;
  if cardinality(v_keys) > 0 then
    perform graphile_worker.add_job('uploads__delete', json_build_object('keys', to_jsonb(v_keys)), max_attempts := 10);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.get_project(p_user_id bigint, p_project_id bigint)
 RETURNS app_public.projects
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: a project as any of its members reads it; another account's project is "not found" */
declare
  v_project app_public.projects;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  select * into v_project from app_public.projects where id = p_project_id;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.member_project(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(project app_public.projects, role text)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: one project as its page reads it, with the caller's role, which the page follows */
declare
  v_role text := app_private.authorize(p_user_id, p_project_id, 'project.read');
begin
  return query select p, v_role from app_public.projects p where p.id = p_project_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_project(p_user_id bigint, p_project_id bigint, p_changes jsonb, p_approver jsonb)
 RETURNS app_public.projects
 LANGUAGE plpgsql
AS $function$
/*
 * why: PATCH semantics: only the keys present in p_changes change. A new admin handle on a
 * project with a connected channel must come with the approver Telegram confirmed for that
 * very chat (p_approver: userId, handle, name, chatId; see approver_change_prerequisites),
 * else nothing changes (APRNV). The new approver is then asked in Telegram, and the old one
 * stays (the handle too) until the new one allows (decide_approver_request); naming the
 * current handle again withdraws that question. A channel still waiting for the old
 * handle's Allow is dropped: it asked someone who is no longer named.
 */
declare
  v_project app_public.projects;
  v_channel app_public.channels;
  v_handle text := ltrim(btrim(p_changes ->> 'adminHandle'), '@');
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.update');
  select * into v_project from app_public.projects where id = p_project_id for update;
  select * into v_channel from app_public.channels where project_id = p_project_id for update;
  if v_handle is not null and v_channel.id is not null then
    perform app_private.drop_expired_approver_requests();
    delete from app_public.approver_requests where channel_id = v_channel.id and kind = 'handover';
    if lower(v_handle) <> lower(v_project.admin_handle) and v_channel.status = 'pending' then
      delete from app_public.channels where id = v_channel.id;
    elsif lower(v_handle) <> lower(v_project.admin_handle) then
      if p_approver is null or lower(ltrim(p_approver ->> 'handle', '@')) <> lower(v_handle)
         or (p_approver ->> 'chatId')::bigint is distinct from v_channel.chat_id then
        raise exception 'The new admin @% is not confirmed as an administrator of %', v_handle, v_channel.link
          using errcode = 'APRNV', hint = 'projects.approverNotConfirmed';
      end if;
      perform app_private.open_approver_request(v_channel.id, p_user_id, 'handover',
        (p_approver ->> 'userId')::bigint, v_handle, p_approver ->> 'name');
      v_handle := null;
    end if;
  end if;
  update app_public.projects p set
    name = coalesce(btrim(p_changes ->> 'name'), p.name),
    description = coalesce(p_changes ->> 'description', p.description),
    writing_style = coalesce(p_changes -> 'writingStyle', p.writing_style),
    admin_handle = coalesce(v_handle, p.admin_handle),
    timezone = coalesce(p_changes ->> 'timezone', p.timezone),
    language = coalesce(p_changes ->> 'language', p.language),
    sources = coalesce(p_changes ->> 'sources', p.sources)
  where p.id = p_project_id
  returning * into v_project;
  return v_project;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.user_projects(p_user_id bigint)
 RETURNS TABLE(project app_public.projects, role text)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the dashboard and sidebar list: every project the account is a member of, with its role there, newest first */
  select p, m.role
  from app_public.project_members m join app_public.projects p on p.id = m.project_id
  where m.user_id = p_user_id
  order by p.created_at desc, p.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.skip_series_occurrence(p_user_id bigint, p_project_id bigint, p_series_id bigint, p_at timestamp with time zone, p_skip boolean)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: one future occurrence of a running series is skipped (it takes no draft, the series
 * goes on), or a skipped one is brought back. Only an occurrence still to be made qualifies:
 * one already made is a post of its own, deleted like any post.
 */
declare
  v_series app_public.posts := app_private.lock_post(p_user_id, p_project_id, p_series_id, 'posts.write');
begin
  if not v_series.is_recurring or v_series.status <> 'draft' then
    raise exception 'Only a running recurring series has occurrences to skip' using errcode = 'INVAL', hint = 'schedule.notARunningSeries';
  end if;
  if p_skip then
    -- checked before stepping: the steps to p_at are the cost of the check below
    if p_at > now() + make_interval(days => app_private.series_horizon_days_max()) then
      raise exception 'Only dates within the next % days can be skipped', app_private.series_horizon_days_max()
        using errcode = 'INVAL', hint = 'schedule.skipBeyondHorizon';
    end if;
    if p_at <= now() or not exists (select 1 from app_private.series_upcoming(v_series, p_at) at where at = p_at) then
      raise exception 'The series has no occurrence still to come at that time' using errcode = 'INVAL', hint = 'schedule.notAnOccurrence';
    end if;
    -- dates gone by no longer count
    v_series.series_skips := array(select s from unnest(v_series.series_skips) s where s > now());
    if cardinality(v_series.series_skips) >= app_private.series_skips_max() then
      raise exception 'A series can have at most % skipped dates', app_private.series_skips_max()
        using errcode = 'QUOTA', hint = 'schedule.tooManySkips';
    end if;
    update app_public.posts set series_skips = array_append(v_series.series_skips, p_at)
    where id = p_series_id returning * into v_series;
  else
    if not p_at = any(v_series.series_skips) then
      raise exception 'The series has no occurrence still to come at that time' using errcode = 'INVAL', hint = 'schedule.notAnOccurrence';
    end if;
    update app_public.posts set series_skips = array_remove(series_skips, p_at) where id = p_series_id returning * into v_series;
  end if;
  perform app_private.queue_series_spawn(v_series, now());
  return v_series;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.sign_in_mails_to(p_email text)
 RETURNS integer
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: an invitation mail counts against the address's sign-in mail limit; the app may
     not read the codes (they are the owner's), so it gets their number in the last 10 minutes */
  select count(*)::int from app_private.sign_in_codes where email = p_email and created_at > now() - interval '10 minutes'
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

CREATE OR REPLACE FUNCTION app_private.assert_owner_remains(p_project_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: a project always has an owner (who else could connect its channel or add people?):
   a change that leaves none is refused; called after the change, under the project's lock */
begin
  if not exists (select 1 from app_public.project_members where project_id = p_project_id and role = 'owner') then
    raise exception 'A project keeps at least one owner' using errcode = 'LSTOW', hint = 'team.lastOwner';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.authorize(p_user_id bigint, p_project_id bigint, p_action text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the one gate of every project-scoped call, beside the rule it guards, so no door
 * (API, bot, a task, psql) can skip it. A non-member is told the project does not exist, as
 * before teams (membership is never revealed); a member whose role lacks the action is
 * refused and nothing changes. The role's actions are app_private.role_actions, their only
 * home. Answers the caller's role, for rules that depend on it (an author's Publish).
 */
declare
  v_role text;
begin
  select role into v_role from app_public.project_members where project_id = p_project_id and user_id = p_user_id;
  if v_role is null then
    raise exception 'Project not found' using errcode = 'NTFND', hint = 'projects.notFound';
  end if;
  if not exists (select 1 from app_private.role_actions where role = v_role and action = p_action) then
    if not exists (select 1 from app_private.role_actions where action = p_action) then
      -- a misspelt action must fail loudly, not refuse everyone quietly
      raise exception 'unknown action %', p_action using hint = 'internal';
    end if;
    raise exception 'Your role in this project does not allow this' using errcode = 'FORBD', hint = 'team.forbidden';
  end if;
  return v_role;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.accept_invitation(p_user_id bigint, p_token text, p_max_members integer)
 RETURNS TABLE(project_id bigint, role text)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the link works once, for the address it was sent to (the signed-in account's e-mail,
 * compared case-insensitively), within 7 days. Someone who is a member already keeps the
 * higher of the two roles: an invitation never demotes.
 */
declare
  v_invitation app_public.project_invitations;
  v_email text := (select lower(email) from app_public.users where id = p_user_id);
  v_role text;
begin
  select * into v_invitation from app_public.project_invitations
  where token_hash = sha256(convert_to(p_token, 'UTF8')) for update;
  if not found or v_invitation.accepted_at is not null or v_invitation.withdrawn_at is not null
     or v_invitation.expires_at <= now() then
    raise exception 'This invitation was used, withdrawn or has expired' using errcode = 'TGONE', hint = 'team.invitationGone';
  end if;
  if lower(v_invitation.email) <> v_email then
    raise exception 'This invitation was sent to another e-mail address' using errcode = 'FORBD', hint = 'team.invitationForAnotherEmail';
  end if;
  perform 1 from app_public.projects where id = v_invitation.project_id for update;
  select m.role into v_role from app_public.project_members m where m.project_id = v_invitation.project_id and m.user_id = p_user_id;
  if v_role is null then
    if (select count(*) from app_public.project_members m where m.project_id = v_invitation.project_id) >= p_max_members then
      raise exception 'A project can have at most % members, invitations included', p_max_members
        using errcode = 'QUOTA', hint = 'team.membersLimit';
    end if;
    insert into app_public.project_members (project_id, user_id, role) values (v_invitation.project_id, p_user_id, v_invitation.role);
    v_role := v_invitation.role;
  elsif array_position(array['viewer', 'author', 'editor', 'owner'], v_invitation.role)
        > array_position(array['viewer', 'author', 'editor', 'owner'], v_role) then
    update app_public.project_members m set role = v_invitation.role
    where m.project_id = v_invitation.project_id and m.user_id = p_user_id;
    v_role := v_invitation.role;
  end if;
  update app_public.project_invitations set accepted_at = now(), accepted_by = p_user_id where id = v_invitation.id;
  return query select v_invitation.project_id, v_role;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.change_member_role(p_user_id bigint, p_project_id bigint, p_member_id bigint, p_role text)
 RETURNS TABLE(user_id bigint, email text, role text, joined_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: an owner gives a member another role; the last owner cannot be demoted (team.lastOwner) */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  perform 1 from app_public.projects where id = p_project_id for update;
  update app_public.project_members m set role = p_role where m.project_id = p_project_id and m.user_id = p_member_id;
  if not found then
    raise exception 'Member not found' using errcode = 'NTFND', hint = 'team.memberNotFound';
  end if;
  perform app_private.assert_owner_remains(p_project_id);
  return query
  select m.user_id, u.email, m.role, m.joined_at
  from app_public.project_members m join app_public.users u on u.id = m.user_id
  where m.project_id = p_project_id and m.user_id = p_member_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.invitation_mail(p_invitation_id bigint)
 RETURNS TABLE(email text, role text, project_name text, language text, inviter_email text, expires_at timestamp with time zone, open boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the invitation mail says, read when it is sent: a withdrawn invitation is not mailed */
  select i.email, i.role, p.name, p.language, u.email, i.expires_at,
         i.accepted_at is null and i.withdrawn_at is null and i.expires_at > now()
  from app_public.project_invitations i
  join app_public.projects p on p.id = i.project_id
  left join app_public.users u on u.id = i.invited_by
  where i.id = p_invitation_id
$function$;

CREATE OR REPLACE FUNCTION app_public.invite_member(p_user_id bigint, p_project_id bigint, p_email text, p_role text, p_token text, p_max_members integer, p_max_per_day integer)
 RETURNS app_public.project_invitations
 LANGUAGE plpgsql
AS $function$
/*
 * why: an owner invites an address with a role; the mail with the link is queued in the same
 * transaction. The token is kept only as its hash. A second invitation to the same address
 * replaces the first (its link stops working). Nobody can use Pressa to mail strangers at
 * volume: an account sends at most p_max_per_day invitations a day, and an address gets no
 * more mail from invitations and sign-in codes together than sign-in allows (3 in 10 minutes).
 */
declare
  v_email text := lower(btrim(p_email));
  v_invitation app_public.project_invitations;
  v_sent int;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  perform 1 from app_public.projects where id = p_project_id for update;
  if exists (select 1 from app_public.project_members m join app_public.users u on u.id = m.user_id
             where m.project_id = p_project_id and lower(u.email) = v_email) then
    raise exception '% is already a member of this project', v_email using errcode = 'INVAL', hint = 'team.alreadyMember';
  end if;
  if (select count(*) from app_public.project_members where project_id = p_project_id)
     + (select count(*) from app_public.project_invitations
        where project_id = p_project_id and accepted_at is null and withdrawn_at is null and expires_at > now()
          and lower(email) <> v_email) >= p_max_members then
    raise exception 'A project can have at most % members, invitations included', p_max_members
      using errcode = 'QUOTA', hint = 'team.membersLimit';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('invitations_by:' || p_user_id, 0));
  select count(*) into v_sent from app_public.project_invitations
  where invited_by = p_user_id and created_at > now() - interval '1 day';
  if v_sent >= p_max_per_day then
    raise exception 'An account can send at most % invitations a day. Please try again later.', p_max_per_day
      using errcode = 'RATEL', hint = 'team.tooManyInvitations',
            detail = (select ceil(extract(epoch from min(created_at) + interval '1 day' - now()))::int
                      from app_public.project_invitations where invited_by = p_user_id and created_at > now() - interval '1 day');
  end if;
  -- the address's mail limit is sign-in's own, taken under sign-in's lock for the address
  perform pg_advisory_xact_lock(hashtextextended('sign_in_code:' || v_email, 0));
  if app_private.sign_in_mails_to(v_email)
     + (select count(*) from app_public.project_invitations where lower(email) = v_email and created_at > now() - interval '10 minutes') >= 3 then
    raise exception 'Too many mails to this address. Please wait 10 minutes and try again.'
      using errcode = 'RATEL', hint = 'team.addressBusy', detail = '600';
  end if;
  update app_public.project_invitations set withdrawn_at = now()
  where project_id = p_project_id and lower(email) = v_email and accepted_at is null and withdrawn_at is null;
  insert into app_public.project_invitations (project_id, email, role, token_hash, invited_by)
  values (p_project_id, v_email, p_role, sha256(convert_to(p_token, 'UTF8')), p_user_id)
  returning * into v_invitation;
  perform graphile_worker.add_job('team__send_invitation',
    json_build_object('invitationId', v_invitation.id, 'token', p_token), max_attempts := 8);
  return v_invitation;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.open_invitations(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, email text, role text, created_at timestamp with time zone, expires_at timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: invitations still waiting for their address, newest first; expired ones are gone for the reader */
  select i.id, i.email, i.role, i.created_at, i.expires_at
  from app_public.project_invitations i
  where i.project_id = p_project_id and i.accepted_at is null and i.withdrawn_at is null and i.expires_at > now()
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by i.created_at desc, i.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.project_members(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(user_id bigint, email text, role text, joined_at timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: members see each other's addresses only inside a project they share; owners first, then by joining */
  select m.user_id, u.email, m.role, m.joined_at
  from app_public.project_members m join app_public.users u on u.id = m.user_id
  where m.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by m.role <> 'owner', m.joined_at, m.user_id
$function$;

CREATE OR REPLACE FUNCTION app_public.remove_member(p_user_id bigint, p_project_id bigint, p_member_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an owner removes a member, or a member leaves; the last owner can do neither. The
 * removed account's next request to the project answers "not found", as every call asks
 * app_private.authorize. Its AI chat with the project stays the project's.
 */
begin
  if p_member_id = p_user_id then
    perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  else
    perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  end if;
  perform 1 from app_public.projects where id = p_project_id for update;
  delete from app_public.project_members m where m.project_id = p_project_id and m.user_id = p_member_id;
  if not found then
    raise exception 'Member not found' using errcode = 'NTFND', hint = 'team.memberNotFound';
  end if;
  perform app_private.assert_owner_remains(p_project_id);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.withdraw_invitation(p_user_id bigint, p_project_id bigint, p_invitation_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: an owner takes an invitation back; its link answers "gone" from then on */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'members.manage');
  update app_public.project_invitations set withdrawn_at = now()
  where id = p_invitation_id and project_id = p_project_id and accepted_at is null and withdrawn_at is null;
  if not found then
    raise exception 'Invitation not found' using errcode = 'NTFND', hint = 'team.invitationNotFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.readable_upload(p_user_id bigint, p_key text)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: an upload is served only to the accounts it belongs to (its project's members, or
     the user who sent a bug report's screenshot) and to admins for a bug report's
     screenshot; answers its content type, or null (the API then answers 404) */
  select u.content_type from app_private.uploads u
  where u.key = p_key and (
    exists (select 1 from app_public.project_members m where m.project_id = u.project_id and m.user_id = p_user_id)
    or (u.project_id is null and u.user_id = p_user_id)
    or (exists (select 1 from app_public.users a where a.id = p_user_id and a.is_admin)
        and exists (select 1 from app_public.bug_reports b where b.screenshot_key = u.key)))
$function$;

CREATE OR REPLACE FUNCTION app_public.record_upload(p_user_id bigint, p_project_id bigint, p_key text, p_content_type text, p_size integer, p_max_bytes bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: an upload belongs to a project whose drafts the user may write (NTFND, team.forbidden otherwise), or to the user
 * alone (a bug report's screenshot). It is recorded before its file is stored, so the
 * account's stored bytes are counted one upload at a time (QUOTA over p_max_bytes).
 */
begin
  if p_project_id is not null then
    perform app_private.authorize(p_user_id, p_project_id, 'drafts.write');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('uploads:' || p_user_id, 0));
  if p_max_bytes is not null
     and (select coalesce(sum(size_bytes), 0) from app_private.uploads where user_id = p_user_id) + p_size > p_max_bytes then
    raise exception 'The images of this account have reached the storage limit. Delete drafts with images you no longer need.'
      using errcode = 'QUOTA', hint = 'uploads.quotaReached';
  end if;
  insert into app_private.uploads (key, project_id, user_id, content_type, size_bytes)
  values (p_key, p_project_id, p_user_id, p_content_type, p_size);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_channels(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, project_id bigint, type text, link text, status text, config jsonb, created_at timestamp with time zone, updated_at timestamp with time zone, chat_id bigint, approver_user_id bigint, approver_handle text, approver_name text, rights_checked_at timestamp with time zone, awaiting_handle text, awaiting_until timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the channels page and the schedule page list them, each with the approver's request
     still waiting on it (a pending channel whose request expired is gone), for any member */
  select c.*, r.approver_handle as awaiting_handle, r.created_at + app_private.approver_request_ttl() as awaiting_until
  from app_public.channels c
  left join app_public.approver_requests r
    on r.channel_id = c.id and r.created_at > now() - app_private.approver_request_ttl()
  where c.project_id = p_project_id and (c.status = 'connected' or r.id is not null)
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by c.created_at, c.id
$function$;

CREATE OR REPLACE FUNCTION app_public.content_plans_version(p_user_id bigint, p_project_id bigint)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the content plan's ETag says; a non-member is refused (404) */
  select coalesce(l.content_plans, 0) from app_public.projects p
  left join app_private.list_versions l on l.project_id = p.id
  where p.id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.project_content_plans(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.content_plans
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the plan's slots in week order (Monday first is the interface's business: 0 is Sunday); any member reads it */
  select c.* from app_public.content_plans c
  where c.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by c.day_of_week, c.time, c.id
$function$;

CREATE OR REPLACE FUNCTION app_public.drafts_version(p_user_id bigint, p_project_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the drafts list's ETag says: its drafts and, since each draft says which post
     holds it, the posts too; a non-member is refused (404) */
  select coalesce(l.drafts, 0) || '.' || coalesce(v.version, 0) from app_public.projects p
  left join app_private.list_versions l on l.project_id = p.id
  left join app_private.posts_versions v on v.project_id = p.id
  where p.id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.project_drafts(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, project_id bigint, title text, content text, entities jsonb, image_url text, image_urls text[], options jsonb, sort_order integer, status text, created_at timestamp with time zone, updated_at timestamp with time zone, scheduled_post_id bigint, held_by_series_id bigint, held_by_plan_id bigint, next_for_series_id bigint)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the drafts page lists unpublished drafts in the user's order (then oldest first),
     each with what holds it, so the owner sees which drafts are free and the count of free
     ones agrees with queue_health (both read available_series_drafts' rule: no live post
     holds it). The live post holding it (posts_one_live_per_draft: at most one), the series
     that post is an occurrence of, or the content-plan slot autopilot filled with it (plan_id); and
     the first free draft names the running series whose next occurrence takes it (the
     rotation in spawn_series_occurrence), so no draft is taken without the owner seeing it */
  with next_series as (
    select s.id from app_public.posts s
    cross join lateral (select x.at from app_private.series_upcoming(s, now() + make_interval(days => app_private.series_horizon_days_max())) x(at)
                        where x.at > now() limit 1) o
    where s.project_id = p_project_id and s.is_recurring and s.status = 'draft'
    order by o.at, s.id limit 1
  ), first_free as (
    select f.id from app_public.available_series_drafts(p_project_id) f limit 1
  )
  select d.id, d.project_id, d.title, d.content, d.entities, d.image_url, d.image_urls, d.options, d.sort_order, d.status,
    d.created_at, d.updated_at, po.id, po.series_id, po.plan_id,
    case when d.id = (select id from first_free) then (select id from next_series) end
  from app_public.drafts d
  left join app_public.posts po on po.draft_id = d.id and po.status not in ('rejected', 'failed')
  where d.project_id = p_project_id and po.status is distinct from 'published'
    and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by d.sort_order, d.created_at, d.id
$function$;

CREATE OR REPLACE FUNCTION app_public.project_invite_links(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, name text, url text, joins integer, leaves integer, created_at timestamp with time zone, revoked boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a project's links, newest first, revoked ones too with their figures (a non-member is
     refused: 404) */
  select l.id, l.name, l.url, l.joins, l.leaves, l.created_at, l.revoked_at is not null
  from app_public.invite_links l
  where l.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by l.id desc
$function$;

CREATE OR REPLACE FUNCTION app_public.posts_version(p_user_id bigint, p_project_id bigint)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  /* why: what the posts lists' ETag says; a non-member is refused (404) */
  select coalesce(v.version, 0) from app_public.projects p
  left join app_private.posts_versions v on v.project_id = p.id
  where p.id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.project_post(p_user_id bigint, p_project_id bigint, p_post_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: one whole post, for the calendar's details dialog (its grid reads a lean view); a
     non-member is refused */
  select po.* from app_public.posts po
  where po.project_id = p_project_id and po.id = p_post_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
$function$;

CREATE OR REPLACE FUNCTION app_public.project_posts(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the calendar's posts (series and occurrences included), for any member */
  select po.* from app_public.posts po
  where po.project_id = p_project_id and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by po.scheduled_for, po.id
$function$;

CREATE OR REPLACE FUNCTION app_public.project_posts_between(p_user_id bigint, p_project_id bigint, p_from timestamp with time zone, p_to timestamp with time zone)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the calendar's month: the posts due in [p_from, p_to), and every series that may
     have occurrences there (begun before p_to and not stopped before p_from), so the grid can
     show its virtual occurrences. Nothing outside the range: which drafts are free is said by
     the drafts list (project_drafts' scheduled_post_id). Only for the project's members. */
  select po.* from app_public.posts po
  where po.id = any(array(
    select id from app_public.posts
    where project_id = p_project_id and scheduled_for >= p_from and scheduled_for < p_to
    union
    select id from app_public.posts
    where project_id = p_project_id and is_recurring and scheduled_for < p_to
      and (status = 'draft' or coalesce(recurring_last_post, scheduled_for) >= p_from)
  ))
  and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by po.scheduled_for, po.id
$function$;

CREATE OR REPLACE FUNCTION app_public.published_posts(p_user_id bigint, p_project_id bigint)
 RETURNS SETOF app_public.posts
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the Published page, newest first */
  select po.* from app_public.posts po
  where po.project_id = p_project_id and po.status = 'published' and app_private.authorize(p_user_id, p_project_id, 'project.read') is not null
  order by po.published_at desc nulls last, po.id desc
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
