/*
 * What the bot's features are given. In a module of its own, so bot.ts (which composes the
 * features) and each feature (which needs the deps) do not import each other.
 */
import type { Sql } from "../core/db.ts";
import type { Log } from "../core/log.ts";
import type { CallCounter } from "../core/telegram/call_counts.ts";
import type { SendBudget } from "../core/telegram/send_budget.ts";

export type BotDeps = {
  sql: Sql;
  log: Log;
  apiRoot: string;
  /** Where the bot's messages count against Telegram's limits (main/bot.ts: the shared one); default this process. */
  budget?: SendBudget;
  /** Where its Telegram calls are counted for GET /metrics (main/bot.ts: the shared counters). */
  calls?: CallCounter;
};
