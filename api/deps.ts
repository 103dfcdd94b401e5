import type { Api, Bot } from "grammy";
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
   * Webhook mode (TELEGRAM_WEBHOOK_SECRET): the bot (bot/bot.ts createBot) whose updates
   * POST /api/telegram/webhook handles, the secret Telegram sends, and how long Telegram's
   * request may wait for a handler (default ANSWER_WITHIN_MS). Absent: long polling.
   */
  telegramWebhook?: { bot: Bot; secret: string; answerWithinMs?: number };
  /** The AI; absent when OPENAI_* is not configured. */
  ai?: Ai;
  /** Built SPA to serve; absent in API-only tests. */
  webDist?: string;
};
