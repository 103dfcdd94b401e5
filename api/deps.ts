import type { Api } from "grammy";
import type { Update } from "grammy/types";
import type { Ai } from "../core/ai/client.ts";
import type { Config } from "../core/config.ts";
import type { Sql } from "../core/db.ts";
import type { Log } from "../core/log.ts";
import type { FileStorage } from "../core/storage.ts";

/** What the API needs from the outside world; tests build it the same way main.ts does. */
export type ApiDeps = {
  sql: Sql;
  config: Config;
  log: Log;
  storage: FileStorage;
  /** The bot's Bot API client; absent when TELEGRAM_BOT_TOKEN is not set. */
  telegram?: Api;
  /**
   * Webhook mode (TELEGRAM_WEBHOOK_SECRET): the secret Telegram sends, and where an update
   * POST /api/telegram/webhook received goes: stored before the answer, handled after it (the
   * bot's update inbox, composed in main/api.ts). Absent: long polling.
   */
  telegramWebhook?: { secret: string; receive(update: Update): Promise<void> };
  /** The AI; absent when OPENAI_* is not configured. */
  ai?: Ai;
  /** Built SPA to serve; absent in API-only tests. */
  webDist?: string;
};
