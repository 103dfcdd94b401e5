-- Feed time of an ad (docs/ads-removal.md): when the owner and the approver were last told
-- the bot may not delete the ad's messages (null: not told, or the right came back), so a
-- removal retried every few minutes tells them once, not at every try.
alter table app_public.posts add column if not exists ad_removal_blocked_at timestamptz;
