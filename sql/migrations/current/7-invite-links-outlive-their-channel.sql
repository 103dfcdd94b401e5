-- A channel's invite links outlive its disconnection: they are revoked in Telegram and stay
-- listed (revoked, with their figures) and counted against the project's limit
-- (app_private.revoke_channel_invite_links). Before, the channel's delete cascaded to them, so
-- people kept joining through links nobody could see, and the limit started over.
alter table app_public.invite_links alter column channel_id drop not null;
alter table app_public.invite_links drop constraint if exists invite_links_channel_id_fkey;
alter table app_public.invite_links add constraint invite_links_channel_id_fkey
  foreign key (channel_id) references app_public.channels(id) on delete set null;
