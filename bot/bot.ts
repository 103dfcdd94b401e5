/*
 * The Telegram bot: features are Composers installed here, under one error boundary.
 * main/bot.ts runs it with @grammyjs/runner; tests create it against the local Bot API.
 */
import { sequentialize } from "@grammyjs/runner";
import { Bot } from "grammy";
import { rateLimitTransformer, TELEGRAM_CLIENT } from "../core/telegram/client.ts";
import { approval } from "./features/approval.ts";
import { approverRequests } from "./features/approver_requests.ts";
import { registration } from "./features/registration.ts";
import type { BotDeps } from "./deps.ts";
import { memberUpdateWriter, stats } from "./features/stats.ts";

export function createBot(token: string, deps: BotDeps) {
  const bot = new Bot(token, { client: { ...TELEGRAM_CLIENT, apiRoot: deps.apiRoot } });
  bot.api.config.use(rateLimitTransformer({ log: (message, fields) => deps.log("warn", message, fields), budget: deps.budget, calls: deps.calls }));
  const failed = (err: { ctx: { update: { update_id: number } }; error: unknown }) =>
    deps.log("error", "bot update failed", { updateId: err.ctx.update.update_id, error: err.error });
  // A channel's member and reaction updates are written in batches, never queued per chat
  // in front of an admin's press (bot/features/stats.ts).
  const members = memberUpdateWriter(deps.sql, deps.log);
  bot.errorBoundary(failed).use(stats(deps, members));
  // Updates of one chat are handled in order (the runner handles chats concurrently).
  bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.errorBoundary(failed).use(approval(deps), approverRequests(deps), registration(deps));
  /** Resolves once every member update handled so far is in the database (before the pool closes). */
  return Object.assign(bot, { statisticsWritten: members.idle });
}
