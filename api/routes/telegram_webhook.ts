/*
 * POST /api/telegram/webhook: Telegram pushes the bot's updates here in webhook mode
 * (TELEGRAM_WEBHOOK_SECRET; core/telegram/webhook.ts registers it). Any API instance
 * handles any update with the bot's own features (the bot is built by bot/bot.ts and given
 * to createApp), through grammY's webhook adapter for Hono.
 *
 * - Only Telegram knows the secret: a request without the matching header is refused (401
 *   JSON) before anything is read or run.
 * - Telegram's request is answered within ANSWER_WITHIN_MS even when the handler is slower
 *   (a Telegram call waiting out a 429, updates of one chat queued behind each other): the
 *   handler goes on in the background. A slow request would hold one of Telegram's
 *   connections to us, and one it gives up on is delivered again.
 * - An update may still arrive twice (Telegram retries one that got no 2xx, e.g. when an
 *   instance died mid-request). That is harmless: every decision the bot makes is a guarded
 *   SQL transition (`decide_post` … `where status = 'scheduled'` and the preview's own
 *   message; `record_admin_chat` is an upsert), so the second delivery changes nothing and
 *   the admin is told the press is outdated.
 */
import { webhookCallback } from "grammy";
import { Hono } from "hono";
import { ApiError } from "../../core/errors.ts";
import { sameSecret } from "../../core/secrets.ts";
import { WEBHOOK_SECRET_HEADER } from "../../core/telegram/webhook.ts";
import type { ApiDeps } from "../deps.ts";
import type { AppEnv } from "../env.ts";

/** Telegram's request is answered by then at the latest; the handler may go on after it. */
export const ANSWER_WITHIN_MS = 3_000;

export function telegramWebhookRoutes({ telegramWebhook, log }: ApiDeps) {
  const routes = new Hono<AppEnv>();
  if (!telegramWebhook) return routes; // long polling: there is no such route
  const { bot, secret, answerWithinMs = ANSWER_WITHIN_MS } = telegramWebhook;
  const handle = webhookCallback(bot, "hono", {
    secretToken: secret,
    timeoutMilliseconds: answerWithinMs,
    onTimeout: () => log("warn", "a bot update took longer than Telegram's request; answered, still handling it", { answerWithinMs }),
  });
  return routes.post("/", async (c) => {
    if (!sameSecret(c.req.header(WEBHOOK_SECRET_HEADER), secret)) throw new ApiError("telegram.webhookSecretWrong");
    let update: unknown;
    try {
      update = await c.req.json(); // kept by Hono for the adapter's own read
    } catch {
      throw new ApiError("request.malformedJson");
    }
    if (typeof update !== "object" || update === null || !Number.isSafeInteger((update as { update_id?: unknown }).update_id)) {
      throw new ApiError("request.notJsonObject");
    }
    return await handle(c);
  });
}
