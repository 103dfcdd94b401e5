/*
 * The API process: serves the API and the built SPA on PORT, and in webhook mode hosts the bot
 * too. main/ is the composition root: each file builds one process from api/, tasks/, bot/ and
 * core/, so none of those folders imports another (tests/imports.test.ts). DATABASE_URL must point
 * at a migrated database.
 */
import "../core/quiet_deprecations.ts"; // first: before any library loads
import { createAi } from "../core/ai/client.ts";
// in webhook mode this process runs the bot's features on the updates Telegram pushes
import type { Update } from "grammy/types";
import { createBot } from "../bot/bot.ts";
import { updateInbox } from "../bot/inbox.ts";
import { createApp } from "../api/app.ts";
import { readConfig } from "../core/config.ts";
import { API_CONNECT_TIMEOUT_SECONDS, connect } from "../core/db.ts";
import { jsonLog } from "../core/log.ts";
import { refuseToStartOnProblems } from "../core/startup_checks.ts";
import { createStorage } from "../core/storage.ts";
import { createTelegramApi } from "../core/telegram/client.ts";
import { telegramCallCounts } from "../core/telegram/call_counts.ts";
import { databaseBudget } from "../core/telegram/send_budget.ts";
import { keepWebhook } from "../core/telegram/webhook.ts";

const config = readConfig();
const log = jsonLog("api");
if (!config.databaseUrl) {
  log("error", "DATABASE_URL is not set; start everything with `npm start`, or set it to run the API alone");
  Deno.exit(2);
}
// e.g. no SMTP_URL with a public PUBLIC_URL: sign-in codes would end up in the log
refuseToStartOnProblems(config, log, "API");
/**
 * Few connections, each carrying several queries in flight (postgres.js pipelines when all
 * are busy): in bench:api on 2 cores, 4–5 connections served the posts list ~25% faster than
 * 10, with a lower p99 (fewer PostgreSQL backends competing for the cores). Transactions
 * hold a connection to themselves, so keep them short.
 */
const POOL_SIZE = 5;
// The API's pool alone: the worker's jobs and the migrations may rightly run longer.
const sql = connect(config.databaseUrl, {
  max: POOL_SIZE,
  statementTimeoutMs: config.apiStatementTimeoutMs,
  connectTimeoutSeconds: API_CONNECT_TIMEOUT_SECONDS,
});
const storage = await createStorage(config);
const warn = (message: string, fields?: Record<string, unknown>) => log("warn", message, fields);
// counted for GET /metrics with every other process's calls, in batches
const telegramCalls = config.telegramBotToken ? telegramCallCounts(sql, { log: warn }) : undefined;
// Telegram's limits counted with the workers' and the bot's messages
const budget = config.telegramBotToken ? databaseBudget(sql, config.telegramBotToken, warn) : undefined;
const telegram = createTelegramApi(config.telegramBotToken, config.telegramApiRoot, { log: warn, calls: telegramCalls, budget });
// Webhook mode: Telegram pushes the bot's updates to this instance (and to every other one).
const webhookMode = config.telegramBotToken && telegram && config.telegramWebhookSecret
  ? { token: config.telegramBotToken, api: telegram, secret: config.telegramWebhookSecret }
  : undefined;
// Each update is stored before Telegram's 200 and handled by whichever instance claims it.
const bot = webhookMode && createBot(webhookMode.token, { sql, log: jsonLog("bot"), apiRoot: config.telegramApiRoot, budget, calls: telegramCalls });
if (bot) await bot.init();
const inbox = bot && updateInbox(bot, sql, jsonLog("bot"), `api:${Deno.hostname()}:${Deno.pid}`);
inbox?.start();
const telegramWebhook = webhookMode && inbox && { secret: webhookMode.secret, receive: (update: Update) => inbox.receive([update]) };
const app = createApp({
  sql,
  config,
  log,
  storage,
  telegram,
  telegramWebhook,
  ai: createAi(config.openai),
  webDist: new URL("../web/dist", import.meta.url).pathname,
});
const webhook = webhookMode && keepWebhook({ sql, ...webhookMode, publicUrl: config.publicUrl, log });

const server = Deno.serve({
  port: config.port,
  hostname: "0.0.0.0",
  reusePort: Deno.args.includes("--reuse-port"),
  onListen: ({ port }) => log("info", `listening on ${config.publicUrl} (port ${port})`),
}, app.fetch);

async function shutdown() {
  log("info", "shutting down");
  webhook?.stop();
  await server.shutdown();
  await inbox?.stop();
  // member updates Telegram was already told were received
  if (bot) await bot.statisticsWritten();
  await telegramCalls?.stop();
  await sql.end({ timeout: 5 });
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", shutdown);
Deno.addSignalListener("SIGTERM", shutdown);
