/*
 * `npm run bench:stats` (not part of the tests): does a flood of channel member updates
 * slow an admin's Approve? The real bot process (main/bot.ts, long polling, asking for
 * chat_member) against the real database and the local Bot API server. 10,000 people join
 * a connected channel at once (a Telegram backlog of `chat_member` updates); meanwhile the
 * admin presses Approve on waiting posts, one every PRESS_EVERY_MS, and we time each press
 * until the bot's answer. The same presses without the flood give the baseline.
 *
 * Prints the member updates handled per second and the approval answer latency (p50/max)
 * during the flood against without it.
 * Knobs: BENCH_UPDATES (10000), BENCH_PRESSES (40 per phase), PRESS_EVERY_MS (100).
 */
import { Api } from "grammy";
import { connect } from "../core/db.ts";
import { startEmbeddedPostgres } from "../scripts/postgres.ts";
import { createDevelopmentDatabases } from "../sql/migrate.ts";
import { startTelegramServer } from "../sandbox/telegram/server.ts";

const UPDATES = Number(Deno.env.get("BENCH_UPDATES") ?? 10_000);
const PRESSES = Number(Deno.env.get("BENCH_PRESSES") ?? 40);
const PRESS_EVERY_MS = Number(Deno.env.get("PRESS_EVERY_MS") ?? 100);

const dir = await Deno.makeTempDir({ prefix: "pressa-bench-stats-" });
await Deno.chmod(dir, 0o755);
const pg = await startEmbeddedPostgres(dir, () => {});
const { url } = await createDevelopmentDatabases(pg.adminUrl, "bench");
const sql = connect(url, { max: 4 });
const telegram = await startTelegramServer();
const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });

console.log(`Setting up a connected channel and ${PRESSES * 2} posts waiting for approval…`);
const [user] = await sql<{ id: number }[]>`insert into app_public.users (email) values ('owner@example.com') returning id`;
const admin = telegram.addUser({ username: "bench_admin", first_name: "Admin", startedBot: true });
const channel = telegram.addChannel({ username: "bench_channel", title: "Bench", owner: admin.id, memberCount: 100_000 });
const [project] = await sql<{ id: number }[]>`
  insert into app_public.projects (user_id, name, admin_handle) values (${user.id}, 'Bench', ${admin.username!}) returning id`;
await sql`select app_public.record_admin_chat(${admin.username!}, ${admin.id})`;
await sql`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle, rights_checked_at)
          values (${project.id}, 'telegram', '@bench_channel', 'connected', ${sql.json({ chatId: channel.id })},
                  ${channel.id}, ${admin.id}, ${admin.username!}, now())`;
await sql`select app_public.record_subscriber_sample(c.id, 100000) from app_public.channels c where c.chat_id = ${channel.id}`;

/** A post waiting for approval with its preview's buttons in the admin's chat, as posts__send_approval leaves it. */
async function waitingPost(n: number) {
  const [post] = await sql<{ id: number }[]>`
    insert into app_public.posts (project_id, title, content, status, scheduled_for, approval_chat_id)
    values (${project.id}, ${`Post ${n}`}, 'text', 'scheduled', now() + interval '1 day', ${channel.id}) returning id`;
  const preview = await api.sendMessage(admin.id, `Post ${n}`, {
    reply_markup: { inline_keyboard: [[{ text: "Approve", callback_data: `approve:${post.id}` }]] },
  });
  await sql`update app_public.posts set approval_preview = ${sql.json({ chatId: admin.id, buttonsMessageId: preview.message_id })}
            where id = ${post.id}`;
  return { postId: post.id, messageId: preview.message_id };
}
const posts: { postId: number; messageId: number }[] = [];
for (let n = 1; n <= PRESSES * 2; n++) posts.push(await waitingPost(n));
const people = Array.from({ length: UPDATES }, (_, i) => telegram.addUser({ first_name: `Reader ${i}` }).id);

const bot = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("../main/bot.ts", import.meta.url).pathname],
  env: { DATABASE_URL: url, TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot },
  stdin: "null", stdout: "null", stderr: Deno.env.get("BENCH_DEBUG") ? "inherit" : "null",
}).spawn();
await telegram.waitFor(() => telegram.requests.some((r) => r.method === "getUpdates"), 30_000);

/** Presses Approve on `batch`, one every PRESS_EVERY_MS, while `going()` holds; answers each press → answer time. */
async function pressAll(batch: typeof posts, going: () => boolean = () => true) {
  const latencies: number[] = [];
  for (const post of batch) {
    if (!going()) break;
    const started = performance.now();
    const query = telegram.userPressesButton(admin.id, admin.id, post.messageId, `approve:${post.postId}`);
    const answer = await telegram.waitFor(() => telegram.callbackAnswer(query), 30_000);
    if (!answer.text?.startsWith("✅") && !answer.text?.includes("Approved") && !answer.text?.includes("Одобрен")) {
      // any answer counts as answered; a stale one would mean the bench is broken
      if (answer.show_alert) throw new Error(`the press was refused: ${answer.text}`);
    }
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, PRESS_EVERY_MS));
  }
  return latencies;
}

console.log(`Baseline: ${PRESSES} presses without the flood…`);
const baseline = await pressAll(posts.slice(0, PRESSES));

console.log(`Flood: ${UPDATES} joins arrive at once; ${PRESSES} presses meanwhile…`);
const recorded = async () => (await sql<{ n: number }[]>`select count(*)::int as n from app_private.member_events`)[0].n;
const floodStarted = performance.now();
let lastJoin = 0;
for (const person of people) lastJoin = telegram.userJoins(channel.id, person)!.update_id;
// when the bot's getUpdates first asks past the backlog: it has fetched all of it
let fetchedMs = 0;
void telegram.waitFor(() => telegram.requests.some((r) => r.method === "getUpdates" && Number(r.params.offset) > lastJoin), 120_000)
  .then(() => (fetchedMs = performance.now() - floodStarted));
let floodDone = false;
let floodMs = 0;
const watcher = (async () => {
  while ((await recorded()) < UPDATES) await new Promise((r) => setTimeout(r, 20));
  floodMs = performance.now() - floodStarted;
  floodDone = true;
})();
const during = await pressAll(posts.slice(PRESSES), () => !floodDone);
await watcher;

const [{ subscribers }] = await sql<{ subscribers: number }[]>`select subscribers from app_private.channel_stats`;
const approved = (await sql<{ n: number }[]>`select count(*)::int as n from app_public.posts where status = 'approved'`)[0].n;
bot.kill("SIGTERM");
await bot.status;
await sql.end();
await telegram.close();
await pg.stop();
await Deno.remove(dir, { recursive: true }).catch(() => {});

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value: number) => `${value.toFixed(0)} ms`;
console.log(`
member updates: ${UPDATES} fetched by the bot in ${(fetchedMs / 1000).toFixed(1)} s, recorded in ${(floodMs / 1000).toFixed(1)} s = ${(UPDATES / (floodMs / 1000)).toFixed(0)} updates/s; subscribers 100000 → ${subscribers}
approval answer without the flood: p50 ${ms(pct(baseline, 50))}, max ${ms(Math.max(...baseline))} (${baseline.length} presses)
approval answer during the flood:  p50 ${ms(pct(during, 50))}, max ${ms(Math.max(...during))} (${during.length} presses)
posts approved: ${approved}`);
Deno.exit(subscribers === 100_000 + UPDATES && approved === baseline.length + during.length ? 0 : 1);
