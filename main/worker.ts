/* The worker process: runs queued jobs until SIGINT/SIGTERM, letting running jobs finish. */
import "../core/quiet_deprecations.ts"; // first: before any library loads
import { createAi } from "../core/ai/client.ts";
import { readConfig } from "../core/config.ts";
import { connect } from "../core/db.ts";
import { jsonLog } from "../core/log.ts";
import { refuseToStartOnProblems } from "../core/startup_checks.ts";
import { createStorage } from "../core/storage.ts";
import { createTelegramApi } from "../core/telegram/client.ts";
import { telegramCallCounts } from "../core/telegram/call_counts.ts";
import { databaseBudget } from "../core/telegram/send_budget.ts";
import { startWorker } from "../tasks/worker.ts";

const config = readConfig();
const log = jsonLog("worker");
if (!config.databaseUrl) {
  log("error", "DATABASE_URL is not set; start everything with `npm start`, or set it to run the worker alone");
  Deno.exit(2);
}
// e.g. no SMTP_URL with a public PUBLIC_URL: the worker would write sign-in codes to the log
refuseToStartOnProblems(config, log, "worker");
// Telegram's limits are counted in the database, with every other worker's, the API's and
// the bot's messages: one round trip per message, on connections of their own so a send
// never queues behind the heartbeat's or a job's queries.
const budgetSql = connect(config.databaseUrl, { max: 2 });
// counted for GET /metrics, in batches (never a round trip per call)
const telegramCalls = config.telegramBotToken ? telegramCallCounts(budgetSql, { log: (message, fields) => log("warn", message, fields) }) : undefined;
const telegram = createTelegramApi(config.telegramBotToken, config.telegramApiRoot, {
  log: (message, fields) => log("warn", message, fields),
  calls: telegramCalls,
  budget: config.telegramBotToken ? databaseBudget(budgetSql, config.telegramBotToken, (message, fields) => log("warn", message, fields)) : undefined,
});
// The first call to Telegram pays for a cold HTTP client (~20–50 ms here); made now, it is
// not a message that arrives late, bunched with the ones after it.
telegram?.getMe().catch((error) => log("warn", "Telegram did not answer getMe at start", { error }));
const worker = await startWorker(config.databaseUrl, config, log, {
  storage: await createStorage(config),
  telegram,
  ai: createAi(config.openai),
});
log("info", "worker started");

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  log("info", "worker stopping; running jobs finish first");
  await worker.stop();
  await telegramCalls?.stop();
  await budgetSql.end({ timeout: 5 });
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", shutdown);
Deno.addSignalListener("SIGTERM", shutdown);
await Promise.all(worker.runners.map((runner) => runner.promise));
