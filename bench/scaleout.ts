/*
 * `npm run bench:scaleout` (not part of the tests): the same publish burst through one
 * instance and through two on one PostgreSQL, in the same run. Each instance is `npm start`
 * with PRESSA_PROCESSES=api,worker in its own process (api and worker each their own
 * process again, as start.ts runs them); the bot runs by webhook, Telegram (the local Bot API
 * server, enforcing 30 messages/s per bot and 20/min per channel) pushing its updates
 * through a round-robin load balancer to whichever API.
 *
 * The burst: one account schedules BENCH_POSTS posts (default 300) across BENCH_CHANNELS
 * channels (default 30, each with its own approver, so no channel's 20 a minute is the only
 * bound) through the APIs in turn, all due at one moment; each approver presses Approve on
 * each preview as it arrives. Prints, per layout: posts delivered, 429s, duplicates in the
 * channels, the rate the APIs took the scheduling at, and the sustained publish rate.
 */
import { connect } from "../core/db.ts";
import { BOT_MESSAGES_PER_SECOND } from "../core/telegram/client.ts";
import { startEmbeddedPostgres } from "../scripts/postgres.ts";
import { appRoleUrl, ensureAppRole } from "../sql/app_role.ts";
import { copyDatabase, createDevelopmentDatabases } from "../sql/migrate.ts";
import { startTelegramServer } from "../sandbox/telegram/server.ts";
import { apiClient, roundRobin, startInstance } from "../tests/helpers/instances.ts";
import { buttonData, hasButton } from "../tests/helpers/publishing.ts";
import { codeFrom, startSmtpSink } from "../tests/helpers/smtp.ts";

const POSTS = Number(Deno.env.get("BENCH_POSTS") ?? 300);
const CHANNELS = Number(Deno.env.get("BENCH_CHANNELS") ?? 30);
/** Scheduling requests in flight at once, over all instances. */
const CONCURRENCY = 16;

const dir = await Deno.makeTempDir({ prefix: "pressa-bench-" });
await Deno.chmod(dir, 0o755);
const pg = await startEmbeddedPostgres(dir, () => {});
await ensureAppRole(pg.adminUrl, { password: pg.appPassword });
const TEMPLATE = "scaleout_template";
// the migrations, then the work in progress (current/*.sql, edited sql/functions/) on developers' runs
await createDevelopmentDatabases(pg.adminUrl, TEMPLATE);

type Result = {
  instances: number;
  delivered: number;
  published: number;
  tooMany: number;
  duplicates: number;
  scheduleRate: number;
  publishRate: number;
  lastOutS: number;
  /** Seconds between the last approval and the due time: below 0, the burst was not alone. */
  approvalsLeftS: number;
};

async function burst(instances: number): Promise<Result> {
  const ownerUrl = await copyDatabase(pg.adminUrl, TEMPLATE, `scaleout_${instances}`);
  const sql = connect(ownerUrl, { max: 3 });
  const telegram = await startTelegramServer({ rateLimits: true });
  const smtp = await startSmtpSink();
  const proxy = roundRobin();
  const env = {
    PRESSA_PROCESSES: "api,worker",
    DATABASE_URL: appRoleUrl(ownerUrl, pg.appPassword),
    DATABASE_OWNER_URL: ownerUrl,
    PUBLIC_URL: proxy.url,
    SMTP_URL: smtp.url,
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    TELEGRAM_WEBHOOK_SECRET: crypto.randomUUID().replaceAll("-", ""),
  };
  const started = await Promise.all(Array.from({ length: instances }, (_, i) => startInstance(`bench-${i}`, env)));
  proxy.backends.push(...started.map((instance) => instance.baseUrl));
  const calls = started.map((instance) => apiClient(instance.baseUrl));
  try {
    const email = "scaleout@example.com";
    await calls[0]("POST", "/api/auth/request-otp", { email });
    const code = codeFrom(await smtp.waitForMail(email, 1, 30_000));
    const verified = await calls[0]("POST", "/api/auth/verify-otp", { email, code });
    const cookie = verified.headers.get("set-cookie")!.split(";")[0];
    const headers = { cookie };

    // channels connected as an approver's Allow leaves them (the connect flow is not what is measured)
    const projects: { base: string; approverId: number; chatId: number; drafts: { id: number; title: string }[] }[] = [];
    for (let i = 0; i < CHANNELS; i++) {
      const handle = `scale_approver_${i}`;
      const approver = telegram.addUser({ username: handle, first_name: "Approver", language_code: "en", startedBot: true });
      await sql`select app_public.record_admin_chat(${handle}, ${approver.id})`;
      const channel = telegram.addChannel({ username: `scale_channel_${i}`, title: `Scale ${i}`, owner: approver.id });
      const [project] = await sql<{ id: number }[]>`
        insert into app_public.projects (user_id, name, admin_handle, timezone)
        values (${verified.json.id}, ${`Scale ${i}`}, ${handle}, 'UTC') returning id`;
      await sql`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle, rights_checked_at)
                values (${project.id}, 'telegram', ${`@${channel.username}`}, 'connected', ${sql.json({ chatId: channel.id })},
                        ${channel.id}, ${approver.id}, ${handle}, now())`;
      const base = `/api/projects/${project.id}`;
      const count = Math.floor(POSTS / CHANNELS) + (i < POSTS % CHANNELS ? 1 : 0);
      const drafts: { id: number; title: string }[] = [];
      for (let from = 0; from < count; from += 30) {
        const titles = Array.from({ length: Math.min(30, count - from) }, (_, n) => `burst ${i}.${from + n}`);
        const made = await calls[i % calls.length]("POST", `${base}/drafts/bulk`, { titles }, headers);
        if (made.status !== 201) throw new Error(`drafts: ${made.text}`);
        drafts.push(...made.json);
      }
      projects.push({ base, approverId: approver.id, chatId: channel.id, drafts });
    }

    // Each preview is two messages into its approver's chat plus an edit when approved, all
    // under the bot's 30 a second (~31 s for 300 posts): the burst falls due well after they
    // can all have gone out on a loaded machine, so it is measured alone.
    const dueAt = new Date(Date.now() + 30_000 + POSTS * 250);
    const work = projects.flatMap((p) => p.drafts.map((draft) => ({ p, draft })));
    const posts: { postId: number; p: (typeof projects)[number] }[] = [];
    const scheduleStart = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < work.length) {
        const n = next++;
        const { p, draft } = work[n];
        const call = calls[n % calls.length];
        const created = await call("POST", `${p.base}/posts`, { draftId: draft.id, scheduledFor: dueAt.toISOString() }, headers);
        if (created.status !== 201) throw new Error(`schedule: ${created.text}`);
        const sent = await call("POST", `${p.base}/posts/${created.json.id}/publish`, undefined, headers);
        if (sent.status >= 300) throw new Error(`publish: ${sent.text}`);
        posts.push({ postId: created.json.id, p });
      }
    }));
    const scheduleRate = posts.length / ((performance.now() - scheduleStart) / 1000);

    await Promise.all(projects.map(async (p) => {
      for (const { postId } of posts.filter((post) => post.p === p)) {
        const preview = await telegram.waitFor(() => telegram.messages(p.approverId).find((m) => hasButton(m, "approve", postId)), 120_000);
        for (;;) {
          const [row] = await sql`select approval_preview ? 'chatId' as sent from app_public.posts where id = ${postId}`;
          if (row.sent) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const query = telegram.userPressesButton(p.approverId, p.approverId, preview.message_id, buttonData(preview, "approve", postId));
        await telegram.waitFor(() => telegram.callbackAnswer(query), 30_000);
      }
    }));
    const approvalsLeftS = (dueAt.getTime() - Date.now()) / 1000;

    const ids = posts.map((post) => post.postId);
    // into the channels (the previews carry the same text to the approvers)
    const channelIds = new Set(projects.map((p) => String(p.chatId)));
    const burstSends = () => telegram.requests.filter((r) => r.method === "sendMessage" && r.status === 200 && channelIds.has(String(r.params.chat_id)));
    const deadline = dueAt.getTime() + 180_000;
    while (burstSends().length < POSTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // a late duplicate would arrive now
    const delivered = burstSends();
    const times = delivered.map((r) => r.time);
    const [{ published }] = await sql<{ published: number }[]>`
      select count(*)::int as published from app_public.posts where id = any(${ids}) and status = 'published'`;
    let duplicates = 0;
    for (const p of projects) {
      const seen = new Map<string, number>();
      for (const m of telegram.messages(p.chatId)) seen.set(m.text ?? "", (seen.get(m.text ?? "") ?? 0) + 1);
      for (const n of seen.values()) duplicates += n - 1;
    }
    return {
      instances,
      delivered: new Set(delivered.map((r) => `${r.params.chat_id}:${r.params.text}`)).size,
      published,
      tooMany: telegram.requests.filter((r) => r.status === 429).length,
      duplicates,
      scheduleRate,
      publishRate: delivered.length / ((Math.max(...times) - Math.min(...times)) / 1000),
      lastOutS: (Math.max(...times) - dueAt.getTime()) / 1000,
      approvalsLeftS,
    };
  } finally {
    await Promise.all(started.map((instance) => instance.stop()));
    await proxy.close();
    await sql.end();
    await smtp.close();
    await telegram.close();
  }
}

console.log(`Scale-out benchmark: ${POSTS} posts across ${CHANNELS} channels, due at one moment…`);
const results: Result[] = [];
for (const instances of [1, 2]) {
  results.push(await burst(instances));
  console.log(`  ${instances} instance${instances === 1 ? "" : "s"} done`);
}
const bound = POSTS / BOT_MESSAGES_PER_SECOND;
console.log(`
Scale-out benchmark (${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}; each instance: npm start, PRESSA_PROCESSES=api,worker; webhook bot)
${POSTS} posts across ${CHANNELS} channels scheduled through the API(s) in turn, due at one moment; theoretical bound ${bound.toFixed(1)} s at ${BOT_MESSAGES_PER_SECOND}/s

| instances | delivered | 429s | duplicates | scheduling through the API | last post out after its time | sustained publish rate |
|---|---|---|---|---|---|---|`);
for (const r of results) {
  console.log(
    `| ${r.instances} | ${r.delivered}/${POSTS} (published: ${r.published}) | ${r.tooMany} | ${r.duplicates} | ${r.scheduleRate.toFixed(1)} posts/s | ` +
      `${r.lastOutS.toFixed(1)} s${r.approvalsLeftS > 0 ? "" : ` (approvals ran ${(-r.approvalsLeftS).toFixed(0)} s past the due time)`} | ${r.publishRate.toFixed(1)} posts/s |`,
  );
}
await pg.stop();
await Deno.remove(dir, { recursive: true });
