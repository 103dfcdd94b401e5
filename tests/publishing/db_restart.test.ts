/*
 * The database goes away in the middle of a publishing burst and comes back 12 s later,
 * as a managed PostgreSQL does when it restarts or fails over. The product's real
 * processes (the API, the worker and the polling bot, each its own Deno process) keep
 * running through it and recover by themselves: the same PIDs serve, publish and answer
 * afterwards (two workers, as instances sharing the database would run). Every post ends published exactly once, or uncertain (then in the channel
 * at most once) when the outage caught its send; none is left behind. While the database
 * is gone the API answers 503 JSON at once instead of hanging.
 *
 * This file runs its own PostgreSQL (the run's shared cluster serves every other file).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type EmbeddedPostgres, freePort, startEmbeddedPostgres } from "../../scripts/postgres.ts";
import { appRoleUrl, ensureAppRole } from "../../sql/app_role.ts";
import { createDevelopmentDatabases } from "../../sql/migrate.ts";
import { approvalPreview, buttonData, buttonsOf, hasButton, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

const PROJECTS = 3;
const POSTS_PER_PROJECT = 10;
const DOWN_FOR_MS = 12_000;

let dir: string;
let pg: EmbeddedPostgres;
let stack: Stack;
const processes: { name: string; child: ReturnType<Stack["spawnProcess"]>; exited?: Deno.CommandStatus }[] = [];
let apiUrl: string;

function spawn(name: string, entry: "main/worker.ts" | "main/api.ts" | "main/bot.ts", env: Record<string, string> = {}) {
  const child = stack.spawnProcess(entry, { env, log: true });
  const entryRow: (typeof processes)[number] = { name, child };
  child.status.then((status) => (entryRow.exited = status));
  processes.push(entryRow);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${logs()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  dir = await Deno.makeTempDir({ prefix: "pressa-db-restart-" });
  await Deno.chmod(dir, 0o755); // reachable by the postgres system user when run as root
  pg = await startEmbeddedPostgres(dir, () => {});
  await ensureAppRole(pg.adminUrl, { password: pg.appPassword });
  const { url } = await createDevelopmentDatabases(pg.adminUrl, "pressa");
  stack = await startStack({ telegram: true, worker: false, database: { ownerUrl: url, appUrl: appRoleUrl(url, pg.appPassword) } });
  // two workers, as instances share one database: the first back must not take the other's work
  spawn("worker 1", "main/worker.ts");
  spawn("worker 2", "main/worker.ts");
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  spawn("api", "main/api.ts", { PORT: String(port), PUBLIC_URL: apiUrl });
  // processes take a while to start on a busy machine; sign-in mail needs the workers
  await until("both workers beat", async () => {
    const [{ pools }] = await stack.sql`select count(*)::int as pools from app_private.worker_heartbeats
                                        where worker_id not like 'bot:%' and seen_at > now() - interval '5 seconds'`;
    return pools === 8; // four runners' pools per worker (tasks/worker.ts)
  });
  await until("the API listens", () => fetch(`${apiUrl}/api/health`).then((r) => r.status === 200, () => false));
}, 180_000);

afterAll(async () => {
  for (const { child, exited } of processes) {
    if (!exited) {
      child.kill("SIGKILL");
      await child.status;
    }
  }
  await stack?.close();
  await pg?.stop();
  await Deno.remove(dir, { recursive: true }).catch(() => {});
});

type P = Awaited<ReturnType<typeof projectWithChannel>>;

/** The admin presses a button of the bot's message; answers the bot's answer (the bot process handles it). */
async function press(p: P, messageId: number, data: string, timeoutMs = 15_000) {
  const query = stack.telegram!.userPressesButton(p.admin.id, p.admin.id, messageId, data);
  return await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(query), timeoutMs);
}

/** A request to the API process, timed. */
async function apiCall(method: string, path: string, cookie?: string, body?: unknown) {
  const started = Date.now();
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), ms: Date.now() - started };
}

/** The processes' logs, for a failure's message. */
const logs = () => processes.map(({ name, child }) => `--- ${name}\n${child.output()}`).join("\n");

test("PostgreSQL stops mid-burst and comes back: every process recovers by itself, nothing is sent twice or lost", async () => {
  const projects: P[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const drafts = Array.from({ length: POSTS_PER_PROJECT }, (_, n) => `burst ${i}-${n}`);
    projects.push(await projectWithChannel(stack, { drafts: [...drafts, `after ${i}`] }));
  }
  // from here on the bot process answers the admins (the setup's presses had a bot of their own)
  spawn("bot", "main/bot.ts");
  // every post falls due at one time, once all are approved: a burst
  const dueAt = new Date(Date.now() + 45_000).toISOString();
  const posts: { p: P; id: number; text: string }[] = [];
  for (const p of projects) {
    for (const draft of p.drafts.slice(0, POSTS_PER_PROJECT)) {
      const created = await stack.call("POST", `${p.base}/posts`, { draftId: draft.id, scheduledFor: dueAt, isRecurring: false }, p.cookie);
      expect(created.status, created.text).toBe(201);
      expect((await stack.call("POST", `${p.base}/posts/${created.json.id}/publish`, undefined, p.cookie)).status).toBe(200);
      posts.push({ p, id: created.json.id, text: draft.title });
    }
  }
  for (const { p, id } of posts) {
    const preview = await approvalPreview(stack, p, id, 40_000);
    expect((await press(p, preview.message_id, buttonData(preview, "approve", id))).text).toBeDefined();
  }
  const statuses = async () =>
    new Map((await stack.sql<{ id: number; status: string }[]>`
      select id, status from app_public.posts where id = any(${posts.map((p) => p.id)}::bigint[])`).map((r) => [r.id, r.status]));
  expect([...(await statuses()).values()].every((s) => s === "approved")).toBe(true);
  // Telegram holds each channel send a moment, so the outage finds sends in flight; the
  // first it holds through the whole outage: its worker lives and learns the outcome after
  const telegram = stack.telegram!;
  telegram.failNext("sendMessage", { delayMs: DOWN_FOR_MS + 10_000 });
  telegram.failNext("sendMessage", { delayMs: 2_000 }, posts.length - 1);
  const inChannels = () => projects.reduce((n, p) => n + telegram.messages(p.channel.id).length, 0);
  await telegram.waitFor(() => inChannels() >= 3, 90_000);

  const channelIds = new Set(projects.map((p) => String(p.channel.id)));
  const heldSends = () =>
    telegram.requests.filter((r) => r.method === "sendMessage" && channelIds.has(String(r.params.chat_id)) && r.status === undefined).length;
  const inFlightAtStop = heldSends();
  const channelSends = telegram.requests.filter((r) => r.method === "sendMessage" && channelIds.has(String(r.params.chat_id)));
  const heldThrough = posts.find((post) => post.text === channelSends[0].params.text)!;
  await pg.stop();
  const stoppedAt = Date.now();
  const { cookie } = projects[0];
  // the API process answers at once, in the product's error shape
  const down = await apiCall("GET", "/api/projects", cookie);
  expect(down.status).toBe(503);
  expect(down.json.code).toBe("server.databaseUnavailable");
  expect(typeof down.json.message).toBe("string");
  expect(down.ms).toBeLessThan(3_000);
  // what a load balancer asks (no session)
  const health = await apiCall("GET", "/api/health");
  expect(health.status).toBe(503);
  expect(health.json.code).toBe("health.databaseUnreachable");
  // a user writes to the bot meanwhile: the update fails (it cannot be recorded), the bot goes on
  const newcomer = telegram.addUser({ username: `late_${Date.now().toString(36)}`, first_name: "Late", language_code: "en" });
  telegram.userSends(newcomer.id, "/start");
  const sentBeforeRestart = inChannels();
  await new Promise((r) => setTimeout(r, DOWN_FOR_MS - (Date.now() - stoppedAt)));
  await pg.start();

  // Every post settles: published, or uncertain when the outage caught its send (the
  // worker's own rule for a send whose outcome it could not record). None is left
  // approved, sending or scheduled.
  const unsettled = async () => [...(await statuses()).entries()].filter(([, s]) => s !== "published" && s !== "uncertain");
  await expect.poll(async () => (await unsettled()).length, { timeout: 90_000, interval: 500 }).toBe(0).catch(async (error) => {
    const jobs = await stack.sql`select task_identifier, locked_by, locked_at, attempts, last_error, run_at from graphile_worker.jobs`;
    throw new Error(`${error.message}\nunsettled: ${JSON.stringify(await unsettled())}\njobs: ${JSON.stringify(jobs)}\n${logs()}`);
  });
  await new Promise((r) => setTimeout(r, 2_000)); // a late duplicate would show by now
  const final = await statuses();
  for (const { p, id, text } of posts) {
    const copies = telegram.messages(p.channel.id).filter((m) => m.text === text).length;
    if (final.get(id) === "published") expect(copies, `${text} is published`).toBe(1);
    else expect(copies, `${text} is uncertain`).toBeLessThanOrEqual(1);
  }
  expect(sentBeforeRestart).toBeGreaterThanOrEqual(3);
  // the outage did catch sends in Telegram's hands, whose outcome the worker could not record
  expect(inFlightAtStop).toBeGreaterThan(0);
  // the send Telegram held through the outage: its live worker recorded it, no one else took it
  expect(final.get(heldThrough.id), logs()).toBe("published");
  const askedAbout = (p: P, id: number) => telegram.messages(p.admin.id).some((m) => buttonsOf(m).includes(`inchannel:${id}`));
  expect(askedAbout(heldThrough.p, heldThrough.id), "its admin was never told it may not be out").toBe(false);
  // as after a crash, the admin is asked about each uncertain post
  for (const { p, id } of posts.filter(({ id }) => final.get(id) === "uncertain")) {
    await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => buttonsOf(m).includes(`inchannel:${id}`)), 20_000);
  }

  // the same processes carry on: none exited
  expect(processes.filter((p) => p.exited).map((p) => `${p.name} exited ${p.exited!.code}`), logs()).toEqual([]);
  // the API serves again
  const again = await apiCall("GET", "/api/projects", cookie);
  expect(again.status).toBe(200);
  expect(again.json.length).toBeGreaterThan(0);
  // the bot answers that user's /start now
  telegram.userSends(newcomer.id, "/start");
  const welcome = await telegram.waitFor(() => telegram.messages(newcomer.id).find((m) => m.text?.startsWith("Done!")), 15_000);
  expect(welcome).toBeDefined();
  // the worker takes new jobs: a post scheduled now (through the API process) is previewed,
  // approved (the bot) and published once
  const p = projects[0];
  const draft = p.drafts[POSTS_PER_PROJECT];
  const created = await apiCall("POST", `${p.base}/posts`, p.cookie, { draftId: draft.id, scheduledFor: new Date(Date.now() + 3_000).toISOString() });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  expect((await apiCall("POST", `${p.base}/posts/${created.json.id}/publish`, p.cookie)).status).toBe(200);
  const preview = await approvalPreview(stack, p, created.json.id, 30_000);
  expect(hasButton(preview, "approve", created.json.id)).toBe(true);
  await press(p, preview.message_id, buttonData(preview, "approve", created.json.id));
  await telegram.waitFor(() => telegram.messages(p.channel.id).some((m) => m.text === draft.title), 30_000);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(telegram.messages(p.channel.id).filter((m) => m.text === draft.title)).toHaveLength(1);
  expect(processes.filter((p) => p.exited).map((p) => p.name)).toEqual([]);
}, 400_000);
