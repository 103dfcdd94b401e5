/*
 * `npm start`: the whole product on one machine.
 *   1. PostgreSQL: DATABASE_URL when set, otherwise embedded PostgreSQL under DATA_DIR.
 *   2. Migrations (graphile-worker's schema, then ours).
 *   3. The SPA is built when web/dist is missing or older than its sources.
 *   4. Three processes: api (PORT), worker, and the bot when TELEGRAM_BOT_TOKEN is set.
 *      A process that dies is restarted; Ctrl-C stops them all, then the database.
 */
import { readConfig } from "../api/config.ts";
import { jsonLog } from "../api/log.ts";
import { ensureDatabase, migrateDatabase } from "../sql/migrate.ts";
import { buildWebIfStale } from "./web_build.ts";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./postgres.ts";

const log = jsonLog("start");
const config = readConfig();
const root = new URL("..", import.meta.url).pathname;

let embedded: EmbeddedPostgres | undefined;
let databaseUrl = config.databaseUrl;
if (!databaseUrl) {
  embedded = await startEmbeddedPostgres(config.dataDir, (m) => log("info", m));
  databaseUrl = await ensureDatabase(embedded.adminUrl, "pressa");
  log("info", `embedded PostgreSQL is running; data in ${embedded.clusterDir}`, {
    psql: `psql '${databaseUrl}'`,
  });
}
await migrateDatabase(databaseUrl);
await buildWebIfStale(root, log);

type Managed = { name: string; script: string; child?: Deno.ChildProcess };
const processes: Managed[] = [
  { name: "api", script: "api/main.ts" },
  { name: "worker", script: "tasks/main.ts" },
];
if (config.telegramBotToken) processes.push({ name: "bot", script: "bot/main.ts" });
else log("info", "TELEGRAM_BOT_TOKEN is not set: the bot is not started and channels cannot be connected");

let stopping = false;

function launch(p: Managed) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", p.script],
    cwd: root,
    env: { DATABASE_URL: databaseUrl! },
    stdin: "null",
  }).spawn();
  p.child = child;
  child.status.then((status) => {
    if (stopping) return;
    log("error", `${p.name} exited with code ${status.code}; restarting in 1 s`);
    setTimeout(() => !stopping && launch(p), 1000);
  });
}
processes.forEach(launch);

async function shutdown() {
  if (stopping) return;
  stopping = true;
  log("info", "stopping: api, worker and bot first, then the database");
  await Promise.all(processes.map(async ({ child }) => {
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
  }));
  await embedded?.stop();
  log("info", "stopped");
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", shutdown);
Deno.addSignalListener("SIGTERM", shutdown);
