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
