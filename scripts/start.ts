/*
 * `npm start`: the whole product on one machine.
 *   1. PostgreSQL: DATABASE_URL when set, otherwise embedded PostgreSQL under DATA_DIR.
 *   2. Migrations (graphile-worker's schema, then ours), as the database's owner:
 *      DATABASE_OWNER_URL, else DATABASE_URL; embedded, the superuser. None when
 *      DATABASE_URL is the app role alone: another step migrates (compose.yaml's migrate).
 *   3. The SPA is built when web/dist is missing or older than its sources.
 *   4. Three processes: api (PORT), worker, and the bot when TELEGRAM_BOT_TOKEN is set.
 *      PRESSA_SANDBOX=1 (`npm run demo`, docs/sandbox.md) first starts the Telegram sandbox, a
 *      local Bot API server with a simulated channel and admin, and points all three at it;
 *      never with a public PUBLIC_URL.
 *      A process that dies is restarted; Ctrl-C stops them all, then the database. They
 *      connect with DATABASE_URL; embedded, as the app role (sql/app_role.ts), which owns
 *      nothing and may not change the schema.
 * The database and the processes run in sessions of their own (scripts/session.ts): a
 * terminal's Ctrl-C reaches only this script, which alone decides the order of the stop.
 */
import { readConfig, sandboxRequested } from "../core/config.ts";
import { jsonLog } from "../core/log.ts";
import { sandboxProblem } from "../core/startup_checks.ts";
import { type Sandbox, SANDBOX_ADMIN, SANDBOX_CHANNEL, startSandbox } from "../sandbox/sandbox.ts";
import { APP_ROLE, appRoleUrl } from "../sql/app_role.ts";
import { ensureDatabase, migrateDatabase } from "../sql/migrate.ts";
import { UnsupportedPostgres } from "../sql/pg_versions.ts";
import { buildWebIfStale } from "./web_build.ts";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./postgres.ts";
import { endsWithParent, inOwnSession } from "./session.ts";

const log = jsonLog("start");
const config = readConfig();
const root = new URL("..", import.meta.url).pathname;
const sandboxOn = sandboxRequested();
if (sandboxOn && sandboxProblem(config.publicUrl)) {
  // before the database or anything else: nothing of the sandbox may come up on a public address
  log("error", `npm start refuses to start: ${sandboxProblem(config.publicUrl)}`);
  Deno.exit(2);
}
/** The sandbox's database and uploads stay apart from a real bot's: its channel exists nowhere else. */
const dataDir = sandboxOn && !Deno.env.get("DATA_DIR")?.trim() ? `${config.dataDir}/sandbox` : config.dataDir;
let sandbox: Sandbox | undefined;
/** What the processes get besides the environment: the database, and in the sandbox its Telegram. */
const processEnv: Record<string, string> = { DATA_DIR: dataDir };

type Managed = { name: string; script: string; child?: Deno.ChildProcess };
const processes: Managed[] = [];
let database: Promise<EmbeddedPostgres> | undefined;
let databaseUrl = config.databaseUrl;
let ownerUrl = config.databaseOwnerUrl ?? databaseUrl;
let stopping = false;

/**
 * graphile-migrate keeps its connection pool open 200 ms past the migrations and exits this
 * whole process (code 1) if the server closes that pool first: the database stops no sooner.
 */
const MIGRATION_POOL_LINGERS_MS = 250;
let migrationsEndedAt = 0;

async function startUp() {
  if (config.databaseOwnerUrl && !databaseUrl) {
    throw new Error("DATABASE_OWNER_URL is set without DATABASE_URL: set DATABASE_URL to the app role's URL (docs/trust-model.md \"Least privilege\")");
  }
  if (!databaseUrl) {
    database = startEmbeddedPostgres(dataDir, (m) => log("info", m));
    const embedded = await database;
    ownerUrl = await ensureDatabase(embedded.adminUrl, "pressa");
    databaseUrl = appRoleUrl(ownerUrl, embedded.appPassword);
    log("info", `embedded PostgreSQL is running; data in ${embedded.clusterDir}`, {
      psql: `psql '${ownerUrl}'`,
    });
  } else if (ownerUrl === databaseUrl && decodeURIComponent(new URL(databaseUrl).username) === APP_ROLE) {
    // an instance of several (compose.yaml): the owner's password stays with the one step that migrates
    log("info", `DATABASE_URL is ${APP_ROLE} and DATABASE_OWNER_URL is not set: no migrations here; run \`deno task migrate\` as the owner first (docs/trust-model.md "Least privilege")`);
    ownerUrl = undefined;
  } else if (ownerUrl === databaseUrl) {
    log("info", "DATABASE_OWNER_URL is not set: the API, the worker and the bot run as the database's owner, who may change the schema (docs/trust-model.md \"Least privilege\")");
  }
  // Ctrl-C while a step runs lets that step end, but no further step begins.
  if (stopping) return;
  if (ownerUrl) {
    try {
      // makes the app role DATABASE_URL names, with its password, before the grants to it
      await migrateBesideOthers(ownerUrl, databaseUrl!);
    } finally {
      migrationsEndedAt = Date.now();
    }
  }
  if (stopping) return;
  await buildWebIfStale(root, log);

  if (sandboxOn) {
    sandbox = await startSandbox();
    Object.assign(processEnv, {
      TELEGRAM_BOT_TOKEN: sandbox.token,
      TELEGRAM_API_ROOT: sandbox.apiRoot,
      // the sandbox's bot polls, as a bot on a developer's machine does
      TELEGRAM_WEBHOOK_SECRET: "",
      PRESSA_SANDBOX_URL: sandbox.controlUrl,
    });
    if (config.telegramBotToken) log("info", "TELEGRAM_BOT_TOKEN is ignored: the Telegram sandbox is on");
    log("info", `Telegram sandbox: a local Bot API server at ${sandbox.apiRoot} with the channel @${SANDBOX_CHANNEL.username} ` +
      `and its admin @${SANDBOX_ADMIN.username}; open ${config.publicUrl}/sandbox (docs/sandbox.md)`);
  }
  const botToken = sandbox?.token ?? config.telegramBotToken;
  const webhookSecret = sandbox ? undefined : config.telegramWebhookSecret;
  // PRESSA_PROCESSES picks this instance's share; the others run elsewhere on the same database
  if (config.processes.has("api")) processes.push({ name: "api", script: "main/api.ts" });
  if (config.processes.has("worker")) processes.push({ name: "worker", script: "main/worker.ts" });
  if (!config.processes.has("bot")) log("info", "PRESSA_PROCESSES leaves out the bot: it is not started here");
  else if (botToken && !webhookSecret) processes.push({ name: "bot", script: "main/bot.ts" });
  else if (botToken) log("info", "TELEGRAM_WEBHOOK_SECRET is set: the API handles the bot's updates; no polling bot is started");
  else log("info", "TELEGRAM_BOT_TOKEN is not set: the bot is not started and channels cannot be connected");
  log("info", `running ${processes.map((p) => p.name).join(", ") || "nothing but the database"} (PRESSA_PROCESSES)`);
  if (stopping) return;
  processes.forEach(launch);
}

/**
 * Instances started together each migrate. graphile-migrate lets one hold its lock and fails
 * the others at once ("Failed to get exclusive lock"), which stopped a second instance started
 * beside the first (bench/scaleout.ts): they wait for it instead, then find nothing to do.
 */
async function migrateBesideOthers(owner: string, app: string) {
  for (let attempt = 1;; attempt++) {
    try {
      return await migrateDatabase(owner, app);
    } catch (error) {
      if (!String(error).includes("Failed to get exclusive lock") || attempt === 240 || stopping) throw error;
      if (attempt === 1) log("info", "another instance is migrating the database; waiting for it");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

function launch(p: Managed) {
  const argv = inOwnSession(endsWithParent([Deno.execPath(), "run", "-A", p.script], "SIGTERM"));
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: root,
    env: { ...processEnv, DATABASE_URL: databaseUrl! },
    stdin: "null",
  }).spawn();
  p.child = child;
  child.status.then((status) => {
    if (stopping) return;
    log("error", `${p.name} exited with code ${status.code}; restarting in 1 s`);
    setTimeout(() => !stopping && launch(p), 1000);
  });
}

/** SIGTERM lets a process finish what it is doing (the worker its running jobs). */
async function stopProcess({ name, child }: Managed) {
  if (!child) return;
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, 15_000);
  await child.status;
  clearTimeout(timer);
  log("info", `${name} stopped`);
}

async function stopDatabase() {
  const embedded = await database?.catch(() => undefined);
  if (!embedded) return;
  const lingering = migrationsEndedAt + MIGRATION_POOL_LINGERS_MS - Date.now();
  if (lingering > 0) await new Promise((resolve) => setTimeout(resolve, lingering));
  log("info", "stopping the database");
  await embedded.stop();
  log("info", "database stopped");
}

async function shutdown() {
  if (stopping) return;
  stopping = true;
  log("info", "stopping: api, worker and bot first, then the database");
  // A step under way (a migration, the web build) ends before the database goes.
  await startup.catch(() => {});
  await Promise.all(processes.map(stopProcess));
  await sandbox?.close();
  await stopDatabase();
  log("info", "stopped");
  Deno.exit(0);
}

const startup = startUp();
// SIGHUP too: a closed terminal no longer reaches the processes in their own sessions.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) Deno.addSignalListener(signal, shutdown);
await startup.catch(async (error) => {
  if (stopping) return; // the stop was asked for; shutdown() finishes it
  await stopDatabase();
  if (!(error instanceof UnsupportedPostgres)) throw error;
  // not a crash: a plain line saying what to change, and the exit code of a refused setting
  log("error", `npm start refuses to start: ${error.message}`);
  Deno.exit(2);
});
