--! Previous: sha1:45d9344d34a8158294541aa2764799326e8886e0
--! Hash: sha1:e2246e3328fc653b6fcd124e82fe56722ea6d311
--! Message: The inbox's prune reads the old end of handled_at (partial index); the approver change's check names its chats as the publish act does

--! split: 2-handled-updates-index-and-one-name-per-chat.sql
-- Every process claims stored Telegram updates every 2 s, and each claim prunes the handled
-- ones older than a day (app_public.claim_telegram_updates): without an index on handled_at
-- that prune read every handled row of the last day on each claim. This partial index makes
-- it a short read of the old end only; the waiting rows have their own (telegram_updates_waiting).
create index if not exists telegram_updates_handled on app_private.telegram_updates (handled_at)
  where handled_at is not null;

-- One name per thing (docs/publishing.md "Names along the publish act"): channel_chat_id is
-- the chat a post went to, so the approver change's check names the channel's chat now
-- connected_chat_id, and the new approver approver_user_id, as channels does. A changed
-- return type needs the old function dropped; sql/functions/channels.sql creates it again.
drop function if exists app_public.approver_change_prerequisites(bigint, bigint, text);

--! split: 3-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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

CREATE OR REPLACE FUNCTION app_public.claim_telegram_updates(p_claimer text, p_limit integer)
 RETURNS TABLE(update_id bigint, body jsonb)
 LANGUAGE plpgsql
AS $function$
/*
 * why: one process handles an update. It takes the stored updates nobody handles, oldest
 * first: unclaimed ones, and ones whose claimer has held them past a minute (it died
 * mid-handling; the handlers are guarded, so a slow one handled twice changes nothing).
 * Others' drains skip what is taken. Handled updates older than a day are pruned as it goes,
 * a hundred at most per claim, read by the partial index telegram_updates_handled (every
 * process claims every 2 s, so the prune must not read the day's handled rows).
 */
begin
  delete from app_private.telegram_updates t
  where t.update_id in (select d.update_id from app_private.telegram_updates d
                        where d.handled_at < now() - interval '1 day' limit 100);
  return query
  update app_private.telegram_updates t set claimed_by = p_claimer, claimed_at = now()
  where t.update_id in (
    select w.update_id from app_private.telegram_updates w
    where w.handled_at is null and (w.claimed_at is null or w.claimed_at < now() - interval '1 minute')
    order by w.update_id limit p_limit
    for update skip locked)
  returning t.update_id, t.body;
end;
$function$;
