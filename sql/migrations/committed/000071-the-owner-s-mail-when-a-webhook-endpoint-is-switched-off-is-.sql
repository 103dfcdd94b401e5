--! Previous: sha1:aab7cfdb5b33b6ac703980cbe75f76ec8fd901e5
--! Hash: sha1:9b57893d0aaca979d265dfbe13981f4438d4eab1
--! Message: The owner's mail when a webhook endpoint is switched off is a kind notifications_sent accepts

--! split: 70-webhook-mail.sql
-- the owner's mail when a webhook endpoint is switched off is one more kind of owner mail
alter table app_private.notifications_sent drop constraint notifications_sent_kind_check;
alter table app_private.notifications_sent add constraint notifications_sent_kind_check
  check (kind in ('queueLow', 'postFailed', 'postRejected', 'channelLost', 'webhookDisabled'));
