-- Webhook mode (TELEGRAM_WEBHOOK_SECRET): what the API instances last registered with
-- setWebhook, per bot. Telegram's getWebhookInfo tells the URL and the allowed updates but
-- never the secret, so a keyed digest of the secret is kept here to see that it changed.
create table if not exists app_private.telegram_webhooks (
  bot_id text primary key,
  url text not null,
  secret_digest text not null,
  registered_at timestamptz not null default now()
);
