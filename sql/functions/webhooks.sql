-- The webhooks functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.channel_json(p_channel app_public.channels)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a channel as the API answers it (toChannel in api/routes/channels.ts: the spec's
     config, the approver Telegram confirmed, the approver still awaited), for a webhook's
     event; tests/api/webhook_events.test.ts holds the two equal */
  select jsonb_build_object('id', p_channel.id, 'projectId', p_channel.project_id, 'type', p_channel.type,
    'link', p_channel.link, 'status', p_channel.status,
    'config', coalesce(p_channel.config, '{}'::jsonb)
      || case when p_channel.chat_id is null then '{}'::jsonb else jsonb_build_object('chatId', p_channel.chat_id) end
      || case when p_channel.approver_user_id is null then '{}'::jsonb else jsonb_build_object('adminChatId', p_channel.approver_user_id) end,
    'approver', case when p_channel.status = 'connected' and p_channel.approver_user_id is not null and p_channel.approver_handle is not null
      then jsonb_build_object('handle', p_channel.approver_handle, 'name', p_channel.approver_name) end,
    'awaiting', coalesce(
      (select jsonb_build_object('handle', r.approver_handle, 'until', app_private.stats_iso(r.created_at + app_private.approver_request_ttl()))
       from app_public.approver_requests r
       where r.channel_id = p_channel.id and r.created_at > now() - app_private.approver_request_ttl() limit 1),
      case when p_channel.status = 'pending' and p_channel.approver_handle is not null
        then jsonb_build_object('handle', p_channel.approver_handle,
          'until', app_private.stats_iso(p_channel.created_at + app_private.approver_request_ttl())) end),
    'createdAt', app_private.stats_iso(p_channel.created_at))
$function$;

CREATE OR REPLACE FUNCTION app_private.draft_json(p_draft app_public.drafts)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a draft as the API's write answers it (api/routes/drafts.ts toDraft), for a webhook's
     draft.created; tests/api/webhook_events.test.ts holds the two equal */
  select jsonb_build_object('id', p_draft.id, 'projectId', p_draft.project_id, 'title', p_draft.title, 'content', p_draft.content,
    'entities', p_draft.entities, 'imageUrl', p_draft.image_url, 'imageUrls', to_jsonb(p_draft.image_urls), 'options', p_draft.options,
    'ad', p_draft.ad, 'order', p_draft.sort_order, 'status', p_draft.status, 'createdAt', app_private.stats_iso(p_draft.created_at))
$function$;

CREATE OR REPLACE FUNCTION app_private.post_json(p_post app_public.posts)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a post as the API answers it, for a webhook's event: its state when the event
     happened. Key for key and value for value what api/post_columns.ts POST_COLUMNS selects
     and the API prints (times as Date#toJSON prints them); tests/api/webhook_events.test.ts
     holds the two equal */
  select jsonb_build_object('id', p_post.id, 'projectId', p_post.project_id, 'draftId', p_post.draft_id, 'seriesId', p_post.series_id,
    'title', p_post.title, 'content', p_post.content, 'entities', p_post.entities, 'imageUrl', p_post.image_url,
    'imageUrls', to_jsonb(p_post.image_urls), 'options', p_post.options, 'status', p_post.status,
    'createdAt', app_private.stats_iso(p_post.created_at), 'scheduledFor', app_private.stats_iso(p_post.scheduled_for),
    'isRecurring', p_post.is_recurring, 'recurringType', p_post.recurring_type,
    'recurringLastPost', app_private.stats_iso(p_post.recurring_last_post), 'approvalMessageIds', p_post.approval_preview,
    'publishedLinks', p_post.published_links, 'publishedAt', app_private.stats_iso(p_post.published_at),
    'lastErrorCode', p_post.last_error_code, 'lastErrorParams', p_post.last_error_params,
    'editedAt', app_private.stats_iso(p_post.edited_at), 'pendingEdit', p_post.pending_edit, 'planId', p_post.plan_id,
    'awaitingText', p_post.awaiting_text, 'endsAfter', p_post.series_ends_after, 'endsOn', p_post.series_ends_on::text,
    'occurrencesMade', p_post.series_made, 'createdBy', p_post.created_by, 'reviewAuthorId', p_post.review_author_id,
    'reviewAuthorEmail', (select u.email from app_public.users u where u.id = p_post.review_author_id),
    'reviewPublish', p_post.review_publish, 'returnedAt', app_private.stats_iso(p_post.returned_at),
    'ad', app_private.post_ad(p_post.ad, p_post.ad_removed_at),
    'adState', app_private.ad_state(p_post.ad, p_post.published_at, p_post.scheduled_for, p_post.ad_removed_at, p_post.ad_removal_reminded_at),
    'channelChanged', app_private.post_channel_changed(p_post.project_id, p_post.status, p_post.channel_chat_id, p_post.approved_chat_id),
    'skippedOccurrences', to_jsonb(array(select app_private.stats_iso(s) from unnest(p_post.series_skips) s order by s)))
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_webhook_deliveries()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
/*
 * why: a webhook event is written in the same transaction as the act, since it is made from
 * the act's own activity entry: one delivery per endpoint of the project that wants it,
 * queued by queue_webhook_delivery (a post's after its earlier ones). The object is as it is
 * right after the act (a deleted post as it was just before).
 */
declare
  v_type text := app_private.webhook_event_type(new.action);
  v_data jsonb;
  v_hook record;
  v_delivery app_public.webhook_deliveries;
begin
  if v_type is null or not exists (select 1 from app_public.webhooks w where w.project_id = new.project_id
                                   and w.disabled_at is null and v_type = any (w.events)) then
    return null;
  end if;
  v_data := jsonb_build_object('projectId', new.project_id) || case new.target_type
    when 'post' then jsonb_build_object('post', coalesce(
      (select app_private.post_json(p) from app_public.posts p where p.id = new.target_id),
      jsonb_build_object('id', new.target_id) || new.details))
    when 'draft' then jsonb_build_object('draft', coalesce(
      (select app_private.draft_json(d) from app_public.drafts d where d.id = new.target_id),
      jsonb_build_object('id', new.target_id) || new.details))
    when 'channel' then jsonb_build_object('channel', coalesce(
      (select app_private.channel_json(c) from app_public.channels c where c.id = new.target_id),
      jsonb_build_object('id', new.target_id, 'link', new.details ->> 'channel')))
    -- a member as the members list answers them
    when 'member' then jsonb_build_object('member', coalesce(
      (select jsonb_build_object('userId', m.user_id, 'email', u.email, 'role', m.role, 'joinedAt', app_private.stats_iso(m.joined_at))
       from app_public.project_members m join app_public.users u on u.id = m.user_id
       where m.project_id = new.project_id and m.user_id = new.target_id),
      jsonb_build_object('userId', new.target_id, 'email', new.details ->> 'email', 'role', new.details ->> 'role')))
    else '{}'::jsonb end;
  for v_hook in
    select w.id from app_public.webhooks w
    where w.project_id = new.project_id and w.disabled_at is null and v_type = any (w.events)
  loop
    insert into app_public.webhook_deliveries (webhook_id, message_id, event_type, payload, post_id)
    values (v_hook.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), v_type,
            jsonb_build_object('type', v_type, 'timestamp', app_private.stats_iso(new.at), 'data', v_data),
            case when new.target_type = 'post' then new.target_id end)
    returning * into v_delivery;
    perform app_private.queue_webhook_delivery(v_delivery);
  end loop;
  return null;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_webhook_delivery(p_delivery app_public.webhook_deliveries, p_afresh boolean DEFAULT false)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: when a delivery gets its job, called when one is made and when one ends (delivered,
 * or failed after its last try). A post's events go in the order they happened, so of a
 * post's deliveries to one endpoint only the earliest still pending has a job; the next is
 * queued when it ends, either way: a delivery that failed every try holds back the later
 * ones no longer (they go, in order). Waiting costs no try, and a waiting delivery has no job
 * that could run out of tries. Any other event goes at once. Each job runs in its account's
 * queue for that endpoint (webhook_queue), so a receiver that hangs holds back only its own
 * account's deliveries.
 * graphile-worker retries a failed try after exp(n) s (n: tries so far), so 10 tries span
 * about 3.6 hours, the first retry within seconds (DESIGN.md: >= 5 over >= 1 hour, the first
 * within 60 s). The lock orders this with a concurrent end or event of the same post, which
 * could otherwise each miss the other's row and leave the next delivery without a job.
 * p_afresh (an endpoint switched on again): the job replaces any left from while it was off,
 * which sends nothing and may be running now, past its check, about to end.
 */
declare
  v_next bigint := p_delivery.id;
begin
  if p_delivery.post_id is not null then
    perform pg_advisory_xact_lock(hashtextextended('webhook_delivery:' || p_delivery.webhook_id || ':' || p_delivery.post_id, 0));
    select d.id into v_next from app_public.webhook_deliveries d
    where d.webhook_id = p_delivery.webhook_id and d.post_id = p_delivery.post_id and d.status = 'pending'
    order by d.id limit 1;
  elsif p_delivery.status <> 'pending' then
    v_next := null;
  end if;
  if v_next is not null then
    -- the earliest pending may have its job already (queued, retrying or running): kept as it
    -- is, but when the endpoint comes back on
    perform graphile_worker.add_job('webhooks__deliver', json_build_object('deliveryId', v_next),
      queue_name := app_private.webhook_queue(p_delivery.webhook_id), max_attempts := 10,
      job_key := 'webhook_delivery:' || v_next, job_key_mode := case when p_afresh then 'replace' else 'unsafe_dedupe' end);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_private.resume_webhook(p_webhook_id bigint)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: an endpoint switched on again (a redelivery, a new address) sends what was still
     pending when it was switched off, whose jobs end sending nothing while it is off: each
     post's earliest pending delivery and every other pending one get a fresh job, by the one
     rule (queue_webhook_delivery) */
  select count(app_private.queue_webhook_delivery(d, true)) from app_public.webhook_deliveries d
  where d.webhook_id = p_webhook_id and d.status = 'pending'
$function$;

CREATE OR REPLACE FUNCTION app_private.url_origin(p_url text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: where a URL goes and nothing it carries: its scheme and host (and port), without the
     credentials, path, query or fragment a secret could hide in, and "/…" to say there is more */
  select regexp_replace(substring(p_url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*'), '//[^@/]*@', '//') || '/…'
$function$;

CREATE OR REPLACE FUNCTION app_private.webhook_event_type(p_action text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the activity actions a webhook can subscribe to, by their event's name (DESIGN.md "Webhooks") */
  select case p_action
    when 'post.approvalRequested' then 'post.approval_requested'
    when 'post.inReview' then 'post.in_review'
    when 'post.scheduled' then p_action when 'post.approved' then p_action when 'post.rejected' then p_action
    when 'post.published' then p_action when 'post.failed' then p_action when 'post.edited' then p_action
    when 'post.deleted' then p_action when 'draft.created' then p_action when 'channel.connected' then p_action
    when 'member.joined' then p_action
  end
$function$;

CREATE OR REPLACE FUNCTION app_private.webhook_queue(p_webhook_id bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the graphile-worker queue an endpoint's deliveries run in, one at a time: one of two
     per account (the account that carries the project), the endpoint always in the same one.
     A receiver that hangs holds a slot 10 s at a time, so an account's endpoints, however
     many and however dead, hold at most two of the webhook runner's slots, and every other
     account's deliveries keep theirs; an endpoint's own deliveries still go in order */
  select 'webhook:account:' || p.user_id || ':' || (w.id % 2)
  from app_public.webhooks w join app_public.projects p on p.id = w.project_id where w.id = p_webhook_id
$function$;

CREATE OR REPLACE FUNCTION app_public.assert_webhooks_manager(p_user_id bigint, p_project_id bigint)
 RETURNS void
 LANGUAGE sql
 STABLE
AS $function$
  /* why: the role is weighed before an address is looked up in DNS, so a role that may not
     add or change an endpoint learns nothing about addresses (and makes no lookups) */
  select null::void from app_private.authorize(p_user_id, p_project_id, 'webhooks.manage')
$function$;

CREATE OR REPLACE FUNCTION app_public.create_webhook(p_user_id bigint, p_project_id bigint, p_url text, p_events text[], p_secret text, p_max integer)
 RETURNS TABLE(id bigint, url text, events text[], created_at timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/* why: owners and editors add an endpoint; its secret is kept from the app role (the
   delivery task reads it through webhook_delivery_to_send); a project has at most p_max */
#variable_conflict use_column
declare
  v_id bigint;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'webhooks.manage');
  perform 1 from app_public.projects where projects.id = p_project_id for update;
  if (select count(*) from app_public.webhooks w where w.project_id = p_project_id) >= p_max then
    raise exception 'A project can have at most % webhooks', p_max using errcode = 'QUOTA', hint = 'webhooks.quotaReached';
  end if;
  insert into app_public.webhooks (project_id, url, events, created_by) values (p_project_id, p_url, p_events, p_user_id)
  returning webhooks.id into v_id;
  insert into app_private.webhook_secrets (webhook_id, secret) values (v_id, p_secret);
  return query select w.id, w.url, w.events, w.created_at from app_public.webhooks w where w.id = v_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_webhook(p_user_id bigint, p_project_id bigint, p_webhook_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: an endpoint removed takes its deliveries with it; jobs still queued find nothing to send */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'webhooks.manage');
  delete from app_public.webhooks where id = p_webhook_id and project_id = p_project_id;
  if not found then
    raise exception 'Webhook not found' using errcode = 'NTFND', hint = 'webhooks.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.project_webhooks(p_user_id bigint, p_project_id bigint)
 RETURNS TABLE(id bigint, url text, events text[], created_at timestamp with time zone, disabled_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the endpoints of a project, never their secret. Every member reads the page (a viewer
 * reads every page of the project), but a webhook's URL is often a secret of its own (an
 * automation service's hook URL lets whoever knows it start the flow), so only the roles that
 * manage webhooks read it whole; the others read where it goes (app_private.url_origin).
 */
declare
  v_whole boolean := exists (select 1 from app_private.role_actions a
    where a.role = app_private.authorize(p_user_id, p_project_id, 'project.read') and a.action = 'webhooks.manage');
begin
  return query select w.id, case when v_whole then w.url else app_private.url_origin(w.url) end, w.events, w.created_at, w.disabled_at
  from app_public.webhooks w where w.project_id = p_project_id order by w.id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.prune_webhook_deliveries()
 RETURNS integer
 LANGUAGE sql
AS $function$
  /* why: the delivery log is for looking back over recent sends and redelivering them; after
     30 days a finished delivery is only weight (a busy project writes one per event per
     endpoint). A delivery still pending is kept whatever its age: its retries own it */
  with gone as (
    delete from app_public.webhook_deliveries
    where created_at < now() - interval '30 days' and status <> 'pending'
    returning 1)
  select count(*)::int from gone
$function$;

CREATE OR REPLACE FUNCTION app_public.record_webhook_attempt(p_delivery_id bigint, p_ok boolean, p_status integer, p_error text, p_final boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: each try is counted with its answer's status; the last failed try fails the delivery;
   a delivery that ends lets its post's next one go (queue_webhook_delivery); an endpoint
   whose deliveries have failed for 3 days is switched off (its owner sees it in the list and
   the activity), so a dead receiver stops costing tries */
declare
  v_delivery app_public.webhook_deliveries;
  v_hook app_public.webhooks;
begin
  update app_public.webhook_deliveries set attempts = attempts + 1, last_status = p_status, last_error = left(p_error, 500),
    status = case when p_ok then 'delivered' when p_final then 'failed' else 'pending' end,
    delivered_at = case when p_ok then now() end
  where id = p_delivery_id
  returning * into v_delivery;
  if not found then
    return;
  end if;
  if v_delivery.status <> 'pending' then
    perform app_private.queue_webhook_delivery(v_delivery);
  end if;
  if p_ok then
    return;
  end if;
  select * into v_hook from app_public.webhooks where id = v_delivery.webhook_id;
  if v_hook.disabled_at is null
     and not exists (select 1 from app_public.webhook_deliveries d where d.webhook_id = v_hook.id
                     and d.status = 'delivered' and d.delivered_at > now() - interval '3 days')
     and exists (select 1 from app_public.webhook_deliveries d where d.webhook_id = v_hook.id
                 and d.status <> 'delivered' and d.created_at < now() - interval '3 days') then
    update app_public.webhooks set disabled_at = now() where id = v_hook.id;
    perform app_private.log_activity(v_hook.project_id, 'webhook.disabled', 'webhook', v_hook.id,
      jsonb_build_object('url', v_hook.url), null);
    perform app_private.notify_owner(v_hook.project_id, 'webhookDisabled', null);
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.redeliver_webhook(p_user_id bigint, p_project_id bigint, p_webhook_id bigint, p_delivery_id bigint)
 RETURNS TABLE(id bigint, event_type text, status text, attempts integer, last_status integer, created_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: a delivery sent again at once, under its own webhook-id, whatever became of it; an
   endpoint switched off for failing comes back on with it */
#variable_conflict use_column
begin
  perform app_private.authorize(p_user_id, p_project_id, 'webhooks.manage');
  update app_public.webhook_deliveries d set status = 'pending'
  from app_public.webhooks w
  where d.id = p_delivery_id and d.webhook_id = p_webhook_id and w.id = d.webhook_id and w.project_id = p_project_id;
  if not found then
    raise exception 'Delivery not found' using errcode = 'NTFND', hint = 'webhooks.deliveryNotFound';
  end if;
  perform graphile_worker.add_job('webhooks__deliver', json_build_object('deliveryId', p_delivery_id),
    queue_name := app_private.webhook_queue(p_webhook_id), max_attempts := 10, job_key := 'webhook_delivery:' || p_delivery_id,
    job_key_mode := 'replace');
  update app_public.webhooks set disabled_at = null where webhooks.id = p_webhook_id and disabled_at is not null;
  if found then
    perform app_private.resume_webhook(p_webhook_id);
  end if;
  return query select d.id, d.event_type, d.status, d.attempts, d.last_status, d.created_at
  from app_public.webhook_deliveries d where d.id = p_delivery_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.update_webhook(p_user_id bigint, p_project_id bigint, p_webhook_id bigint, p_url text, p_events text[])
 RETURNS TABLE(id bigint, url text, events text[], created_at timestamp with time zone, disabled_at timestamp with time zone)
 LANGUAGE plpgsql
AS $function$
/* why: an endpoint's address or events change in place (its secret and log stay); only the
   fields given change; a new address starts afresh, switched on, with what was pending */
#variable_conflict use_column
declare
  v_switched_on boolean;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'webhooks.manage');
  select w.disabled_at is not null and p_url is not null and p_url <> w.url into v_switched_on
  from app_public.webhooks w where w.id = p_webhook_id and w.project_id = p_project_id for update;
  if not found then
    raise exception 'Webhook not found' using errcode = 'NTFND', hint = 'webhooks.notFound';
  end if;
  update app_public.webhooks w set url = coalesce(p_url, w.url), events = coalesce(p_events, w.events),
    disabled_at = case when p_url is not null and p_url <> w.url then null else w.disabled_at end
  where w.id = p_webhook_id;
  if v_switched_on then
    perform app_private.resume_webhook(p_webhook_id);
  end if;
  return query select w.id, w.url, w.events, w.created_at, w.disabled_at from app_public.webhooks w where w.id = p_webhook_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.webhook_delivery_log(p_user_id bigint, p_project_id bigint, p_webhook_id bigint, p_limit integer)
 RETURNS TABLE(id bigint, event_type text, status text, attempts integer, last_status integer, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/* why: an endpoint's deliveries, newest first, as the delivery log shows them to every member
   (they name events and answers, never the URL or the secret) */
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  if not exists (select 1 from app_public.webhooks w where w.id = p_webhook_id and w.project_id = p_project_id) then
    raise exception 'Webhook not found' using errcode = 'NTFND', hint = 'webhooks.notFound';
  end if;
  return query select d.id, d.event_type, d.status, d.attempts, d.last_status, d.created_at
  from app_public.webhook_deliveries d where d.webhook_id = p_webhook_id order by d.id desc limit p_limit;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.webhook_delivery_to_send(p_delivery_id bigint)
 RETURNS TABLE(url text, secret text, message_id text, event_type text, payload jsonb)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: what the delivery task sends and signs; nothing for a delivery done or gone, or an
     endpoint switched off. Its job exists only once it may go (queue_webhook_delivery) */
  select w.url, s.secret, d.message_id, d.event_type, d.payload
  from app_public.webhook_deliveries d
  join app_public.webhooks w on w.id = d.webhook_id and w.disabled_at is null
  join app_private.webhook_secrets s on s.webhook_id = w.id
  where d.id = p_delivery_id and d.status = 'pending'
$function$;
