/*
 * The Telegram bot: features are Composers installed here, under one error boundary.
 * bot/main.ts runs it with @grammyjs/runner; tests create it against the local Bot API.
 */
import { sequentialize } from "@grammyjs/runner";
import { Bot } from "grammy";
import type { Sql } from "../core/db.ts";
import type { Log } from "../core/log.ts";
import { rateLimitTransformer, TELEGRAM_CLIENT } from "../core/telegram/client.ts";
import type { CallCounter } from "../core/telegram/call_counts.ts";
import type { SendBudget } from "../core/telegram/send_budget.ts";
import { approval } from "./features/approval.ts";
import { approverRequests } from "./features/approver_requests.ts";
import { registration } from "./features/registration.ts";
import { stats } from "./features/stats.ts";

export type BotDeps = {
  sql: Sql;
  log: Log;
  apiRoot: string;
  /** Where the bot's messages count against Telegram's limits (bot/main.ts: the shared one); default this process. */
  budget?: SendBudget;
  /** Where its Telegram calls are counted for GET /metrics (bot/main.ts: the shared counters). */
  calls?: CallCounter;
};

export function createBot(token: string, deps: BotDeps) {
  const bot = new Bot(token, { client: { ...TELEGRAM_CLIENT, apiRoot: deps.apiRoot } });
  bot.api.config.use(rateLimitTransformer({ log: (message, fields) => deps.log("warn", message, fields), budget: deps.budget, calls: deps.calls }));
  // Updates of one chat are handled in order (the runner handles chats concurrently).
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.errorBoundary((err) => {
    deps.log("error", "bot update failed", { updateId: err.ctx.update.update_id, error: err.error });
  }).use(stats(deps), approval(deps), approverRequests(deps), registration(deps));
  return bot;
}
