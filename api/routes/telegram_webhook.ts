/*
 * POST /api/telegram/webhook: Telegram pushes the bot's updates here in webhook mode
 * (TELEGRAM_WEBHOOK_SECRET; core/telegram/webhook.ts registers it).
 *
 * - Only Telegram knows the secret: a request without the matching header is refused (401
 *   JSON) before anything is read or run.
 * - The update is stored in PostgreSQL before Telegram gets its 200, and handled after it by
 *   whichever instance claims it (the bot's update inbox, given as deps.telegramWebhook): an
 *   instance killed between the two leaves it stored, and another instance's drain handles it.
 *   Telegram's request waits only for the store, never for a handler (a Telegram call waiting
 *   out a 429, updates of one chat queued behind each other).
 * - An update Telegram delivers twice (no 2xx, e.g. an instance died mid-request) is stored
 *   once and handled once.
 */
import { Hono } from "hono";
import type { Update } from "grammy/types";
import { ApiError } from "../../core/errors.ts";
import { sameSecret } from "../../core/secrets.ts";
import { WEBHOOK_SECRET_HEADER } from "../../core/telegram/webhook.ts";
import type { ApiDeps } from "../deps.ts";
import type { AppEnv } from "../env.ts";

export function telegramWebhookRoutes({ telegramWebhook }: ApiDeps) {
  const routes = new Hono<AppEnv>();
  if (!telegramWebhook) return routes; // long polling: there is no such route
  const { secret, receive } = telegramWebhook;
  return routes.post("/", async (c) => {
    if (!sameSecret(c.req.header(WEBHOOK_SECRET_HEADER), secret)) throw new ApiError("telegram.webhookSecretWrong");
    let update: unknown;
    try {
      update = await c.req.json();
    } catch {
      throw new ApiError("request.malformedJson");
    }
    if (typeof update !== "object" || update === null || !Number.isSafeInteger((update as { update_id?: unknown }).update_id)) {
      throw new ApiError("request.notJsonObject");
    }
    await receive(update as Update);
    return c.body(null, 200);
  });
}
