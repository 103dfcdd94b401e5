-- The named approver confirms in Telegram (README "Trust model"): a connect request or a
-- handle change is a pending request until the approver presses Allow in the bot.

-- Only a confirmed connection holds the chat: pending requests for the same chat coexist.
alter table app_public.channels drop constraint if exists channels_chat_id_key;
create unique index if not exists channels_connected_chat_key on app_public.channels (chat_id) where status = 'connected';
create index if not exists channels_chat_id_idx on app_public.channels (chat_id);

create table if not exists app_public.approver_requests (
  id bigint generated always as identity primary key,
  channel_id bigint not null references app_public.channels (id) on delete cascade,
  -- the account asking, named (masked) in the approver's message
  user_id bigint not null references app_public.users (id) on delete cascade,
  -- connect: the pending channel becomes connected; handover: a connected channel's approver moves
  kind text not null check (kind in ('connect', 'handover')),
  approver_user_id bigint not null,
  approver_handle text not null,
  approver_name text,
  -- the bot's message carrying the buttons (presses count only there), once sent
  message_id bigint,
  asked_at timestamptz,
  created_at timestamptz not null default now(),
  constraint approver_requests_one_per_channel unique (channel_id),
  constraint approver_requests_one_per_approver_account unique (approver_user_id, user_id)
);
create index if not exists approver_requests_created_at_idx on app_public.approver_requests (created_at);
create index if not exists approver_requests_user_id_idx on app_public.approver_requests (user_id);

-- An approver's "Deny and block": that account's requests to them are refused for good.
create table if not exists app_public.approver_blocks (
  approver_user_id bigint not null,
  user_id bigint not null references app_public.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (approver_user_id, user_id)
);
create index if not exists approver_blocks_user_id_idx on app_public.approver_blocks (user_id);

-- Channels left pending by migration 000013 have nobody to confirm them: they hold nothing now.
delete from app_public.channels c
where c.status = 'pending' and not exists (select 1 from app_public.approver_requests r where r.channel_id = c.id);

-- add_channel stored a channel as connected at once; request_channel replaces it.
drop function if exists app_public.add_channel(bigint, bigint, text, text, bigint, bigint, text, text);

-- project_channels now answers each channel with the request waiting on it.
drop function if exists app_public.project_channels(bigint, bigint);
