/*
 * The bot process: long polling into the update inbox (bot/inbox.ts: each update stored before
 * Telegram is told it arrived, then handled), updates of one chat in order. In
 * webhook mode (TELEGRAM_WEBHOOK_SECRET) the API instances handle the updates and this
 * process refuses to start: polling would delete the webhook (and Telegram answers
 * getUpdates with 409 while one is set).
 */
import "../core/quiet_deprecations.ts"; // first: before any library loads
import { readConfig } from "../core/config.ts";
import { connect } from "../core/db.ts";
import { jsonLog } from "../core/log.ts";
import { refuseToStartOnProblems } from "../core/startup_checks.ts";
import { telegramCallCounts } from "../core/telegram/call_counts.ts";
import { databaseBudget } from "../core/telegram/send_budget.ts";
import { BOT_ALLOWED_UPDATES, WEBHOOK_PATH } from "../core/telegram/webhook.ts";
import { createBot } from "../bot/bot.ts";
import { pollUpdates, updateInbox } from "../bot/inbox.ts";

const config = readConfig();
const log = jsonLog("bot");
if (!config.databaseUrl || !config.telegramBotToken) {
  log("error", "the bot needs DATABASE_URL and TELEGRAM_BOT_TOKEN");
  Deno.exit(2);
}
if (config.telegramWebhookSecret) {
  log(
    "error",
    `TELEGRAM_WEBHOOK_SECRET is set: Telegram sends the bot's updates to the API (${config.publicUrl}${WEBHOOK_PATH}), ` +
      "so no polling bot runs. Start the API instead, or unset TELEGRAM_WEBHOOK_SECRET to poll.",
  );
  Deno.exit(2);
}
// the product as a whole refuses such a configuration (the API and the worker say why too)
refuseToStartOnProblems(config, log, "bot");
const sql = connect(config.databaseUrl, { max: 5 });
// its edits and answers count against Telegram's limits with the workers' and the API's messages
const budget = databaseBudget(sql, config.telegramBotToken, (message, fields) => log("warn", message, fields));
// counted for GET /metrics, in batches
const calls = telegramCallCounts(sql, { log: (message, fields) => log("warn", message, fields) });
const bot = createBot(config.telegramBotToken, { sql, log, apiRoot: config.telegramApiRoot, budget, calls });
await bot.init();
// A webhook left by an earlier webhook-mode run makes Telegram refuse getUpdates (409) and
// the runner would retry forever; its pending updates are kept and polled instead.
const { url: webhookUrl } = await bot.api.getWebhookInfo();
if (webhookUrl) {
  await bot.api.deleteWebhook();
  log("info", "deleted the Telegram webhook of an earlier webhook-mode run; polling now", { webhookUrl });
}
log("info", `bot @${bot.botInfo.username} polling ${config.telegramApiRoot}`);
const inbox = updateInbox(bot, sql, log, `bot:${Deno.hostname()}:${Deno.pid}`);
// what an earlier process stored and did not handle is handled first
inbox.start();
const runner = pollUpdates(bot, inbox, log, BOT_ALLOWED_UPDATES);

// Liveness for GET /api/health: the bot says it is polling every 10 s.
const beat = () =>
  sql`select app_public.record_heartbeat(${[`bot:${Deno.pid}`]}::text[])`.catch((error) => log("warn", "bot heartbeat failed", { error }));
await beat();
const heartbeat = setInterval(beat, 10_000);

async function shutdown() {
  log("info", "bot stopping");
  clearInterval(heartbeat);
  if (runner.isRunning()) await runner.stop();
  await inbox.stop();
  await bot.statisticsWritten();
  await calls.stop();
  await sql.end({ timeout: 5 });
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", shutdown);
Deno.addSignalListener("SIGTERM", shutdown);
