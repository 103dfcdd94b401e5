/*
 * How the bot gets its updates. Long polling (main/bot.ts) by default; with
 * TELEGRAM_WEBHOOK_SECRET, Telegram pushes them to every API instance's
 * POST /api/telegram/webhook, and each API instance keeps that registration here:
 *
 *   - At start it compares what Telegram reports (getWebhookInfo: URL, allowed updates)
 *     and the digest of the secret registered last (app_private.telegram_webhooks; Telegram
 *     never reads a secret back) with its own, and calls setWebhook only when one differs,
 *     so a restart of N instances costs no setWebhook (Telegram allows one a second).
 *   - Every 10 s it asks getWebhookInfo again. A webhook that is gone (a polling bot was
 *     started and deleted it, someone called deleteWebhook) is registered again. A webhook
 *     that differs is left alone: it was registered by an instance started later (a new
 *     secret or URL being rolled out), and the newest start wins.
 *   - While Telegram reports our URL with no failed delivery in the last 30 s, it records
 *     the bot's heartbeat (`bot:webhook:<host>:<pid>`), so GET /api/health shows the bot
 *     alive in webhook mode as it does for the polling process.
 */
import type { Api } from "grammy";
import type { Sql } from "../db.ts";

/**
 * The updates the bot asks Telegram for, by polling or by webhook alike. Telegram sends
 * `chat_member` and `message_reaction_count` only to bots that ask for them (the channel's
 * statistics); without a list it would keep the last one given.
 */
export const BOT_ALLOWED_UPDATES = [
  "message",
  "callback_query",
  "my_chat_member",
  "chat_member",
  "message_reaction_count",
] as const;

/** Where Telegram posts updates, under PUBLIC_URL. */
export const WEBHOOK_PATH = "/api/telegram/webhook";
/** The header Telegram sends the secret in. */
export const WEBHOOK_SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";

const CHECK_EVERY_MS = 10_000;
/** A delivery Telegram reports as failed within this long makes the bot "down" in health. */
const DELIVERY_ERROR_FRESH_S = 30;

type Log = (level: "info" | "warn", message: string, fields?: Record<string, unknown>) => void;

export type WebhookSettings = { sql: Sql; api: Api; token: string; publicUrl: string; secret: string; log: Log };

/** The bot's id (a token's part before ':'): never store the token itself. */
const botIdOf = (token: string) => token.split(":")[0];

/**
 * The secret's digest as stored: HMAC-SHA-256 keyed by the bot's token, so whoever reads
 * the database (without the token) cannot test guesses of a short secret against it.
 */
export async function webhookSecretDigest(token: string, secret: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(token), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(secret)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item) => b.includes(item));

/**
 * Registers the webhook when Telegram's record of it (getWebhookInfo) or the database's
 * digest of the secret differs from ours. One instance at a time, reading Telegram's record
 * only once it holds the lock: instances started together each found the webhook differing
 * and each called setWebhook, and Telegram answered the second call of that second with a
 * 429 (tests/publishing/two_instances.test.ts). The lock is held for two Telegram calls,
 * at start or when the webhook is gone, never per update.
 */
export async function registerWebhook(settings: WebhookSettings): Promise<"registered" | "unchanged"> {
  const { sql, api, token, publicUrl, secret, log } = settings;
  const url = publicUrl + WEBHOOK_PATH;
  const digest = await webhookSecretDigest(token, secret);
  return await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`telegram_webhook:${botIdOf(token)}`}, 0))`;
    const info = await api.getWebhookInfo();
    const [stored] = await tx<{ digest: string | null }[]>`select app_private.telegram_webhook_secret_digest(${botIdOf(token)}) as digest`;
    if (info.url === url && sameSet(info.allowed_updates ?? [], BOT_ALLOWED_UPDATES) && stored.digest === digest) return "unchanged";
    await api.setWebhook(url, { secret_token: secret, allowed_updates: [...BOT_ALLOWED_UPDATES] });
    await tx`select app_private.record_telegram_webhook(${botIdOf(token)}, ${url}, ${digest})`;
    log("info", "registered the Telegram webhook", { url, previousUrl: info.url || undefined });
    return "registered" as const;
  });
}

/**
 * Keeps the webhook registered and the bot's heartbeat (see the top of this file). `ready`
 * settles after the first check. A failed registration (Telegram or the database away) is
 * logged and tried again at the next check; the API serves meanwhile.
 */
export function keepWebhook(settings: WebhookSettings, checkEveryMs = CHECK_EVERY_MS) {
  const { sql, api, publicUrl, log } = settings;
  const heartbeatId = `bot:webhook:${Deno.hostname()}:${Deno.pid}`;
  let registered = false;
  let checking = false;
  const check = async () => {
    if (checking) return; // a slow Telegram: the previous check is still waiting
    checking = true;
    try {
      let info = await api.getWebhookInfo();
      // after our first registration only a webhook that is gone is ours to restore
      if (!registered || info.url === "") {
        if (await registerWebhook(settings) === "registered" || info.url === "") info = await api.getWebhookInfo();
        registered = true;
      }
      const deliveryFailing = info.last_error_date !== undefined && Date.now() / 1000 - info.last_error_date < DELIVERY_ERROR_FRESH_S;
      if (deliveryFailing) log("warn", "Telegram reports failed webhook deliveries", { lastError: info.last_error_message });
      else if (info.url === publicUrl + WEBHOOK_PATH) await sql`select app_public.record_heartbeat(${[heartbeatId]}::text[])`;
    } catch (error) {
      log("warn", "checking the Telegram webhook failed", { error });
    } finally {
      checking = false;
    }
  };
  const ready = check();
  const timer = setInterval(check, checkEveryMs);
  return { ready, stop: () => clearInterval(timer) };
}
