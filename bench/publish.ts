/*
 * `npm run bench:publish` (not part of the tests): how close publishing comes to
 * Telegram's limits. 1,000 approved posts across 100 channels fall due in the same
 * minute; the local Bot API server enforces Telegram's limits (30 messages/s per bot,
 * 20/min per channel) and answers 429 beyond them. Then single posts with nothing else
 * due, to see the lag of one post.
 *
 * Prints: lag from scheduledFor to Telegram receiving the message (p50/p99/max), the
 * sustained send rate against the 30/s ceiling, the time of the last post against the
 * theoretical bound, how many 429s Telegram answered, and what the shared send budget
 * costs (database calls per message, their server time and round trip).
 *
 * WORKERS=2 runs two worker processes (default 1); they share Telegram's limits through
 * the database (core/telegram/send_budget.ts).
 */
import { connect } from "../core/db.ts";
import { BOT_MESSAGES_PER_SECOND } from "../core/telegram/client.ts";
import { databaseBudget } from "../core/telegram/send_budget.ts";
import { startEmbeddedPostgres } from "../scripts/postgres.ts";
import { createDevelopmentDatabases } from "../sql/migrate.ts";
import { startTelegramServer } from "../sandbox/telegram/server.ts";

const POSTS = Number(Deno.env.get("BENCH_POSTS") ?? 1000);
const CHANNELS = Number(Deno.env.get("BENCH_CHANNELS") ?? 100);
const SINGLES = 20;
const WORKERS = Number(Deno.env.get("WORKERS") ?? 1);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (n: number) => `${Math.round(n)} ms`;

const dir = await Deno.makeTempDir({ prefix: "pressa-bench-" });
await Deno.chmod(dir, 0o755);
const pg = await startEmbeddedPostgres(dir, () => {});
// the migrations, then the work in progress (current/*.sql, edited sql/functions/) on developers' runs
const { url } = await createDevelopmentDatabases(pg.adminUrl, "bench");
const sql = connect(url, { max: 5 });
// the budget's calls and their time in the server, from the workers' connections (opened later)
await sql.unsafe("alter database bench set track_functions = 'pl'");
const telegram = await startTelegramServer({ rateLimits: true });

console.log(`Setting up ${CHANNELS} channels and ${POSTS} posts…`);
const [user] = await sql`insert into app_public.users (email) values ('bench@example.com') returning id`;
const projects: { id: number; chatId: number }[] = [];
const benchAdmin = telegram.addUser({ username: "bench_admin", first_name: "Bench", startedBot: true });
for (let i = 0; i < CHANNELS; i++) {
  const channel = telegram.addChannel({ username: `bench_channel_${i}`, title: `Bench ${i}`, owner: benchAdmin.id });
  const [project] = await sql<{ id: number }[]>`
    insert into app_public.projects (user_id, name, admin_handle) values (${user.id}, ${`Bench ${i}`}, 'bench_admin') returning id`;
  // connected as the approver's Allow leaves it, its rights confirmed (the run is well within the 10 minutes they are trusted)
  await sql`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle, rights_checked_at)
            values (${project.id}, 'telegram', ${`@bench_channel_${i}`}, 'connected', ${sql.json({ chatId: channel.id })},
                    ${channel.id}, ${benchAdmin.id}, 'bench_admin', now())`;
  projects.push({ id: project.id, chatId: channel.id });
}

async function approvedPosts(count: number, at: Date, label: string, firstChannel = 0) {
  const rows = Array.from({ length: count }, (_, i) => ({
    project_id: projects[(firstChannel + i) % projects.length].id,
    title: `${label} ${i}`,
    content: `${label} ${i}`,
    scheduled_for: at,
    status: "approved",
    approved_chat_id: projects[(firstChannel + i) % projects.length].chatId,
  }));
  const inserted = await sql<{ id: number }[]>`insert into app_public.posts ${sql(rows)} returning id`;
  // queued as an admin's approval queues them (one queue per project's channel)
  await sql`select app_private.queue_publication(id, ${at}) from unnest(${inserted.map((r) => r.id)}::bigint[]) as id`;
  return inserted.map((r) => r.id);
}

// Each worker runs as its own process, as in production (`npm start`), so the local Bot
// API server in this process measures arrival times without sharing their event loop.
const workers = Array.from({ length: WORKERS }, () =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../main/worker.ts", import.meta.url).pathname],
    env: { DATABASE_URL: url, TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot, DATA_DIR: dir },
    stdin: "null",
    stdout: "null",
    stderr: Deno.env.get("BENCH_DEBUG") ? "inherit" : "null",
  }).spawn()
);
await new Promise((r) => setTimeout(r, 1500 + 500 * WORKERS));

// The round trip of one budget call from another process while the workers send: a probe
// bot of its own (so it takes nothing from theirs), 10 calls a second.
const probeSql = connect(url, { max: 1 });
await probeSql.unsafe("set track_functions = 'none'"); // its calls stay out of the workers' count
const probe = databaseBudget(probeSql, "1:probe");
const probeTrips: number[] = [];
let probing = true;
const probeLoop = (async () => {
  while (probing) {
    const t = performance.now();
    await probe.reserve(undefined);
    probeTrips.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
})();

// Burst: everything due at once.
const due = new Date(Date.now() + 5_000);
await approvedPosts(POSTS, due, "burst");
const sends = () => telegram.requests.filter((r) => r.method === "sendMessage" && String(r.params.text).startsWith("burst"));
const deadline = Date.now() + 180_000;
while (sends().filter((r) => r.status === 200).length < POSTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
const delivered = sends().filter((r) => r.status === 200);
const tooMany = telegram.requests.filter((r) => r.status === 429).length;
if (Deno.env.get("BENCH_DEBUG")) {
  for (const r of telegram.requests.filter((x) => x.status === 429)) {
    const inWindow = telegram.requests.filter((x) => x.status === 200 && x.method === "sendMessage" && x.time > r.time - 1000 && x.time <= r.time);
    console.log("429", r.method, r.params.chat_id, r.time - due.getTime(), "ok in previous second:", inWindow.length);
  }
}
const lags = delivered.map((r) => r.time - due.getTime());
const last = Math.max(...lags);
const bound = (POSTS / BOT_MESSAGES_PER_SECOND) * 1000;
const rate = delivered.length / ((Math.max(...delivered.map((r) => r.time)) - Math.min(...delivered.map((r) => r.time))) / 1000);
const [{ published }] = await sql`select count(*)::int as published from app_public.posts where status = 'published' and title like 'burst%'`;
probing = false;
await probeLoop;
const burstTrips = probeTrips.splice(0);

// Single posts with nothing else due.
const singleLags: number[] = [];
for (let i = 0; i < SINGLES; i++) {
  const at = new Date(Date.now() + 1_500);
  await approvedPosts(1, at, `single-${i}`, i); // a different channel each time: 20/min per channel
  const found = await telegram.waitFor(() => telegram.requests.find((r) => r.method === "sendMessage" && r.params.text === `single-${i} 0` && r.status === 200), 10_000);
  singleLags.push(found.time - at.getTime());
  await new Promise((r) => setTimeout(r, 200));
}

console.log(`
Publishing benchmark (${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}, ${WORKERS} worker process${WORKERS === 1 ? "" : "es"})
Burst: ${POSTS} posts across ${CHANNELS} channels due at the same moment
  delivered            ${delivered.length}/${POSTS} (published in the database: ${published})
  429 answers          ${tooMany}   (target: 0)
  lag p50 / p99 / max  ${ms(percentile(lags, 50))} / ${ms(percentile(lags, 99))} / ${ms(last)}
  last post out        ${(last / 1000).toFixed(1)} s; theoretical bound ${(bound / 1000).toFixed(1)} s at ${BOT_MESSAGES_PER_SECOND}/s (${((last / bound - 1) * 100).toFixed(1)}% over; target ≤ 10%)
  sustained send rate  ${rate.toFixed(1)} messages/s = ${((rate / BOT_MESSAGES_PER_SECOND) * 100).toFixed(0)}% of the bot-wide limit (target ≥ 90%)
Single post, nothing else due (${SINGLES} runs)
  lag p50 / p99 / max  ${ms(percentile(singleLags, 50))} / ${ms(percentile(singleLags, 99))} / ${ms(Math.max(...singleLags))}   (target p99 ≤ 1000 ms)
`);

// CPU each worker process used (Linux): both took part when WORKERS=2
const cpuSeconds = (pid: number) => {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / 100).toFixed(1); // utime + stime, in ticks of 10 ms
  } catch {
    return "?";
  }
};
const workerCpu = workers.map((worker) => cpuSeconds(worker.pid)).join(" / ");
for (const worker of workers) worker.kill("SIGTERM");
await Promise.all(workers.map((worker) => worker.status));
// the workers' budget calls, flushed to the statistics as their connections closed
await new Promise((r) => setTimeout(r, 500));
const [budgetCalls] = await sql<{ calls: number; selfMs: number }[]>`
  select calls::int, self_time as self_ms from pg_stat_user_functions where schemaname = 'app_private' and funcname = 'reserve_telegram_send'`;
const messagesSent = telegram.requests.filter((r) => /^(send|copy|forward|edit)/.test(r.method)).length;
console.log(`Shared send budget (app_private.reserve_telegram_send)
  calls / messages sent ${budgetCalls?.calls ?? 0} / ${messagesSent} (one per message, one more for a message whose moment passed before it could go)
  time in PostgreSQL    ${budgetCalls ? ((budgetCalls.selfMs ?? 0) / budgetCalls.calls).toFixed(2) : "?"} ms per call
  worker CPU            ${workerCpu} s (per process, whole run)
  round trip            p50 ${percentile(burstTrips, 50).toFixed(2)} ms, p99 ${percentile(burstTrips, 99).toFixed(2)} ms during the burst (${burstTrips.length} calls from a third process)
`);
await probeSql.end();
await sql.end();
await telegram.close();
await pg.stop();
await Deno.remove(dir, { recursive: true });
