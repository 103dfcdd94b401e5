--! Previous: sha1:b334e245a8113734b81c133cdce864db7569c24e
--! Hash: sha1:45d9344d34a8158294541aa2764799326e8886e0
--! Message: Drafts say what holds them; posts planned before a channel wait and are asked for on connection; write then schedule in one transaction

--! split: 4-drafts-holders.sql
-- The drafts list says what holds each draft (a series' occurrence, a content-plan slot) and
-- which free draft a series takes next: project_drafts answers more columns.
drop function if exists app_public.project_drafts(bigint, bigint);

--! split: 5-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
  perform app_private.queue_waiting_approvals(v_channel.project_id);
  return query select 'connected'::text, v_channel.link, v_language;
end;
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
  join app_public.projects p on p.id = d.project_id and p.user_id = p_user_id
  left join app_public.posts po on po.draft_id = d.id and po.status not in ('rejected', 'failed')
  where d.project_id = p_project_id and po.status is distinct from 'published'
  order by d.sort_order, d.created_at, d.id
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_waiting_approvals(p_project_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: posts planned before the project had a channel wait (schedule.waitingForChannel);
     once one is connected, those still to come are asked for as any post is (2 hours before,
     or at once). One already past its time keeps its reason: the owner publishes or moves it. */
  with waited as (
    update app_public.posts set last_error_code = null, last_error_params = '{}'
    where project_id = p_project_id and status = 'draft' and not is_recurring
      and last_error_code = 'schedule.waitingForChannel' and scheduled_for > now()
    returning *
  )
  select app_private.queue_approval(w::app_public.posts) from waited w;
$function$;

CREATE OR REPLACE FUNCTION app_public.claim_post_for_approval(p_post_id bigint, p_job_id text)
 RETURNS app_public.post_deliveries
 LANGUAGE plpgsql
AS $function$
/*
 * why: the approval job's guard. An automatic request (2 h before) moves a draft to
 * scheduled; a manual one already did. Answers null when there is nothing to send (the
 * preview went out already, another job is sending it, or the post moved on). Content
 * over Telegram's maximum (post_text_max) fails the post with the reason instead of
 * sending; a project without a channel leaves it a draft waiting for one (queue_waiting_approvals). The claim lets one job
 * send the preview when the automatic request and Publish meet; the same job retried after
 * a crash takes its claim back, and any job may take a claim older than two minutes. The
 * claim records which chat the preview asks about, and the preview's round.
 */
declare
  v_post app_public.posts;
  v_channel app_public.channels;
begin
  select * into v_post from app_public.posts where id = p_post_id and not is_recurring for update;
  if not found or v_post.status not in ('draft', 'scheduled') or v_post.approval_preview ? 'chatId' then
    return null;
  end if;
  if length(v_post.content) > app_private.post_text_max() then
    update app_public.posts set status = 'failed',
      last_error_code = 'schedule.captionTooLong',
      last_error_params = jsonb_build_object('current', length(v_post.content), 'max', app_private.post_text_max())
    where id = p_post_id;
    return null;
  end if;
  if v_post.approval_preview ->> 'claimedBy' is distinct from p_job_id
     and coalesce((v_post.approval_preview ->> 'claimedAt')::timestamptz > now() - interval '2 minutes', false) then
    return null;
  end if;
  v_channel := app_private.project_channel(v_post.project_id);
  if v_channel.id is null then
    -- planned before a channel: it waits, saying so, and is asked for again on connection
    perform app_private.withdraw_approval(p_post_id, 'schedule.waitingForChannel', '{}');
    return null;
  end if;
  -- the round names this preview in its buttons' callback data, so a press counts even before
  -- the preview's message ids are recorded (decide_post); a new claim is a new round
  update app_public.posts set status = 'scheduled', approval_chat_id = v_channel.chat_id,
    approval_preview = jsonb_build_object('claimedAt', now(), 'claimedBy', p_job_id,
      'round', floor(extract(epoch from clock_timestamp()) * 1000000)::bigint)
  where id = p_post_id;
  return (select d from app_public.post_deliveries d where d.post_id = p_post_id);
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
  v_project app_public.projects := app_public.get_project(p_user_id, p_project_id);
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

CREATE OR REPLACE FUNCTION app_public.write_and_schedule_post(p_user_id bigint, p_project_id bigint, p_scheduled_for timestamp with time zone, p_title text, p_content text, p_entities jsonb, p_options jsonb, p_max_drafts integer)
 RETURNS app_public.posts
 LANGUAGE plpgsql
AS $function$
/*
 * why: write, then schedule, as Telegram's own scheduling does: the schedule form's new
 * post becomes its draft and its one-time post in one transaction, so a refused time leaves
 * no stray draft and no series can take the draft between the two (create_draft checks the
 * project's owner and its room; schedule_post the time and the draft).
 */
declare
  v_draft app_public.drafts;
begin
  select * into v_draft from app_public.create_draft(p_user_id, p_project_id, p_title, p_content, '', -1, p_max_drafts,
    coalesce(p_entities, '[]'), coalesce(p_options, '{}'), null);
  return app_public.schedule_post(p_user_id, p_project_id, v_draft.id, p_scheduled_for, 'none', null, null, null, p_options);
end;
$function$;
