/*
 * `npm run bench:fairness` (not part of the tests): does one account's burst delay anyone
 * else? Account A schedules 500 posts inside the approval window through the API, so all
 * 500 previews fall due at once for one approver, whose private chat Telegram lets the bot
 * write about once a second. Meanwhile account B requests sign-in codes and has approved
 * posts falling due. The API and the worker run as their own processes, as `npm start`
 * runs them, against the real database, a real SMTP server and the local Bot API server.
 *
 * Prints B's mail delay (request → delivered; target ≤ 2 s) and B's post lateness
 * (scheduled time → Telegram has it; target ≤ 5 s), each over several tries, and A's
 * preview throughput while it lasts.
 * Knobs: BENCH_POSTS (500), BENCH_TRIES (5), WORKERS (worker processes, 1).
 */
import { connect } from "../core/db.ts";
import { freePort, startEmbeddedPostgres } from "../scripts/postgres.ts";
import { createDevelopmentDatabases } from "../sql/migrate.ts";
import { startTelegramServer } from "../tests/doubles/telegram/server.ts";
import { startSmtpSink } from "../tests/helpers/smtp.ts";

const POSTS = Number(Deno.env.get("BENCH_POSTS") ?? 500);
const TRIES = Number(Deno.env.get("BENCH_TRIES") ?? 5);
const WORKERS = Number(Deno.env.get("WORKERS") ?? 1);

const dir = await Deno.makeTempDir({ prefix: "pressa-bench-fair-" });
await Deno.chmod(dir, 0o755);
const pg = await startEmbeddedPostgres(dir, () => {});
const { url } = await createDevelopmentDatabases(pg.adminUrl, "bench");
const sql = connect(url, { max: 4 });
const telegram = await startTelegramServer();
const smtp = await startSmtpSink();

console.log(`Setting up accounts A (${POSTS} drafts) and B…`);
const [a, b] = await sql<{ id: number }[]>`
  insert into app_public.users (email) values ('a@example.com'), ('b@example.com') returning id`;
async function projectOf(userId: number, name: string) {
  const admin = telegram.addUser({ username: `${name}_admin`, first_name: name, startedBot: true });
  const channel = telegram.addChannel({ username: `${name}_channel`, title: name, owner: admin.id });
  const [project] = await sql<{ id: number }[]>`
    insert into app_public.projects (user_id, name, admin_handle) values (${userId}, ${name}, ${admin.username!}) returning id`;
  await sql`select app_public.record_admin_chat(${admin.username!}, ${admin.id})`;
  // connected as a confirmed connection stores it (its rights confirmed: the run is well within the 10 minutes they are trusted)
  await sql`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle, rights_checked_at)
            values (${project.id}, 'telegram', ${`@${channel.username}`}, 'connected', ${sql.json({ chatId: channel.id })},
                    ${channel.id}, ${admin.id}, ${admin.username!}, now())`;
  return { id: project.id, chatId: channel.id, adminId: admin.id };
}
const projectA = await projectOf(a.id, "burst");
const projectB = await projectOf(b.id, "victim");
const drafts = await sql<{ id: number }[]>`
  insert into app_public.drafts (project_id, title, content, sort_order)
  select ${projectA.id}, 'Burst ' || i, 'Burst post ' || i, i from generate_series(1, ${POSTS}) i returning id`;

// A's session, made the way sign-in makes it
const token = "f".repeat(32);
const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
const sessionId = Array.from(new Uint8Array(digest), (x) => x.toString(16).padStart(2, "0")).join("");
await sql`insert into app_private.sessions (id, user_id, expires_at) values (${sessionId}, ${a.id}, now() + interval '1 day')`;

const port = await freePort();
const base = `http://localhost:${port}`;
const env = {
  DATABASE_URL: url, PORT: String(port), DATA_DIR: dir, SMTP_URL: smtp.url,
  TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot,
};
const spawn = (path: string) =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(path, import.meta.url).pathname],
    env, stdin: "null", stdout: "null", stderr: Deno.env.get("BENCH_DEBUG") ? "inherit" : "null",
  }).spawn();
const processes = [spawn("../main/api.ts"), ...Array.from({ length: WORKERS }, () => spawn("../main/worker.ts"))];
for (let i = 0; i < 100; i++) {
  if (await fetch(`${base}/api/health`).then((r) => (r.body?.cancel(), r.ok), () => false)) break;
  await new Promise((r) => setTimeout(r, 200));
}
await new Promise((r) => setTimeout(r, 1500)); // the worker's pools start

const call = (method: string, path: string, body?: unknown, cookie?: string) =>
  fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", origin: base, ...(cookie ? { cookie: `pressa_session=${cookie}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, text: await r.text() }));

const previewsOfA = () => telegram.messages(projectA.adminId).filter((m) => JSON.stringify(m.reply_markup ?? {}).includes("approve:"));

console.log(`A schedules ${POSTS} posts inside the approval window (10 requests at a time)…`);
const burstStart = performance.now();
let next = 0;
const scheduled: number[] = [];
await Promise.all(Array.from({ length: 10 }, async () => {
  while (next < drafts.length) {
    const draft = drafts[next++];
    const at = new Date(Date.now() + 30 * 60_000 + next * 5_000).toISOString();
    const res = await call("POST", `/api/projects/${projectA.id}/posts`, { draftId: draft.id, scheduledFor: at, isRecurring: false }, token);
    if (res.status !== 201) throw new Error(`schedule: ${res.status} ${res.text}`);
    scheduled.push(JSON.parse(res.text).id);
  }
}));
const scheduleSeconds = (performance.now() - burstStart) / 1000;

const mailDelays: number[] = [];
const lateness: number[] = [];
for (let i = 0; i < TRIES; i++) {
  // B's approved post, due 3 s from now, queued as an approval queues it
  const due = new Date(Date.now() + 3_000);
  const [post] = await sql<{ id: number }[]>`
    insert into app_public.posts (project_id, title, content, scheduled_for, status, approved_chat_id)
    values (${projectB.id}, ${`B ${i}`}, ${`B's post ${i}`}, ${due}, 'approved', ${projectB.chatId}) returning id`;
  await sql`select app_private.queue_publication(${post.id}, ${due})`;
  // B asks for a sign-in code meanwhile
  const email = `b${i}@example.com`;
  const asked = performance.now();
  const res = await call("POST", "/api/auth/request-otp", { email });
  if (res.status !== 200) throw new Error(`request-otp: ${res.status} ${res.text}`);
  await smtp.waitForMail(email, 1, 120_000);
  mailDelays.push(performance.now() - asked);
  const sent = await telegram.waitFor(
    () => telegram.requests.find((r) => r.method === "sendMessage" && r.params.text === `B's post ${i}` && r.status === 200),
    120_000,
  );
  lateness.push(sent.time - due.getTime());
  await new Promise((r) => setTimeout(r, 2_000));
}
const measuredFor = (performance.now() - burstStart) / 1000;
const previews = previewsOfA().length;

for (const p of processes) p.kill("SIGKILL");
await Promise.all(processes.map((p) => p.status));
await sql.end();
await smtp.close();
await telegram.close();
await pg.stop();
await Deno.remove(dir, { recursive: true }).catch(() => {});

const max = (values: number[]) => Math.max(...values);
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const ms = (n: number) => `${Math.round(n)} ms`;
console.log(`
Fairness benchmark (${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}, ${WORKERS} worker process${WORKERS === 1 ? "" : "es"})
A: ${POSTS} posts scheduled inside the approval window in ${scheduleSeconds.toFixed(1)} s (${(POSTS / scheduleSeconds).toFixed(0)} requests/s)
B, ${TRIES} tries while A's previews go out:
  sign-in mail delay   median ${ms(median(mailDelays))}, max ${ms(max(mailDelays))}   (target ≤ 2000 ms)
  post lateness        median ${ms(median(lateness))}, max ${ms(max(lateness))}   (target ≤ 5000 ms)
A's previews: ${previews} of ${POSTS} delivered in ${measuredFor.toFixed(0)} s = ${(previews / measuredFor * 60).toFixed(1)} per minute
  (Telegram takes about one message a second into one private chat; a preview is two messages)
`);
Deno.exit(max(mailDelays) <= 2000 && max(lateness) <= 5000 ? 0 : 1);
