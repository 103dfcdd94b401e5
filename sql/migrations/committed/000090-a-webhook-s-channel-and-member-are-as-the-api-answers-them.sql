--! Previous: sha1:385dd95a11e9ab819a6f7f203abbd3e807724221
--! Hash: sha1:045fc95f8a460114b372773d8ab2a8c467ac2f6a
--! Message: A webhook's channel and member are as the API answers them

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
