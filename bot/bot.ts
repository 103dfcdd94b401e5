/*
 * The Telegram bot: features are Composers installed here, under one error boundary.
 * bot/main.ts runs it with @grammyjs/runner; tests create it against the local Bot API.
 */
import { sequentialize } from "@grammyjs/runner";
import { Bot } from "grammy";
import { rateLimitTransformer, TELEGRAM_CLIENT } from "../core/telegram/client.ts";
import { approval } from "./features/approval.ts";
import { approverRequests } from "./features/approver_requests.ts";
import { registration } from "./features/registration.ts";
import type { BotDeps } from "./deps.ts";

export function createBot(token: string, deps: BotDeps) {
  const bot = new Bot(token, { client: { ...TELEGRAM_CLIENT, apiRoot: deps.apiRoot } });
  bot.api.config.use(rateLimitTransformer({ log: (message, fields) => deps.log("warn", message, fields), budget: deps.budget, calls: deps.calls }));
  // Updates of one chat are handled in order (the runner handles chats concurrently).
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.errorBoundary((err) => {
    deps.log("error", "bot update failed", { updateId: err.ctx.update.update_id, error: err.error });
  }).use(approval(deps), approverRequests(deps), registration(deps));
  return bot;
}
