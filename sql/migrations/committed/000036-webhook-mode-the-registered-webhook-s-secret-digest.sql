--! Previous: sha1:3334c34958c24e5fcee1238269077318fe031089
--! Hash: sha1:543fafd7567e1371d83892d1d607f8320cc4ed7d
--! Message: Webhook mode: the registered webhook's secret digest

--! split: 7-webhook.sql
-- Webhook mode (TELEGRAM_WEBHOOK_SECRET): what the API instances last registered with
-- setWebhook, per bot. Telegram's getWebhookInfo tells the URL and the allowed updates but
-- never the secret, so a keyed digest of the secret is kept here to see that it changed.
create table if not exists app_private.telegram_webhooks (
  bot_id text primary key,
  url text not null,
  secret_digest text not null,
  registered_at timestamptz not null default now()
);

--! split: 8-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.telegram_webhook_secret_digest(p_bot_id text)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  /* why: Telegram never reads back a webhook's secret, so an API instance compares its own
     secret's digest with the one registered last to know whether setWebhook is needed */
  select secret_digest from app_private.telegram_webhooks where bot_id = p_bot_id
$function$;

CREATE OR REPLACE FUNCTION app_private.record_telegram_webhook(p_bot_id text, p_url text, p_secret_digest text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: after a successful setWebhook, the next instance to start finds the same secret
     registered and leaves Telegram alone (one setWebhook a second is allowed) */
  insert into app_private.telegram_webhooks (bot_id, url, secret_digest, registered_at)
  values (p_bot_id, p_url, p_secret_digest, now())
  on conflict (bot_id) do update
    set url = excluded.url, secret_digest = excluded.secret_digest, registered_at = excluded.registered_at
$function$;
