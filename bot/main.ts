/* The bot process: long polling with @grammyjs/runner, updates of one chat in order. */
import { run } from "@grammyjs/runner";
import { readConfig } from "../core/config.ts";
import { connect } from "../core/db.ts";
import { jsonLog } from "../core/log.ts";
import { refuseToStartOnProblems } from "../core/startup_checks.ts";
import { telegramCallCounts } from "../core/telegram/call_counts.ts";
import { databaseBudget } from "../core/telegram/send_budget.ts";
import { createBot } from "./bot.ts";

const config = readConfig();
const log = jsonLog("bot");
if (!config.databaseUrl || !config.telegramBotToken) {
  log("error", "the bot needs DATABASE_URL and TELEGRAM_BOT_TOKEN");
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
log("info", `bot @${bot.botInfo.username} polling ${config.telegramApiRoot}`);
const runner = run(bot);

// Liveness for GET /api/health: the bot says it is polling every 10 s.
const beat = () =>
  sql`select app_public.record_heartbeat(${[`bot:${Deno.pid}`]}::text[])`.catch((error) => log("warn", "bot heartbeat failed", { error }));
await beat();
const heartbeat = setInterval(beat, 10_000);

async function shutdown() {
  log("info", "bot stopping");
  clearInterval(heartbeat);
  if (runner.isRunning()) await runner.stop();
  await calls.stop();
  await sql.end({ timeout: 5 });
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", shutdown);
Deno.addSignalListener("SIGTERM", shutdown);
