/*
 * The graphile-worker runner with every task of the product. main/worker.ts runs it as a
 * process; tests run the same runner in-process against their own database.
 *
 * Three runners share the process: AI jobs (slow, many provider calls each) run in their
 * own with a small concurrency, so sign-in mail, approval previews and publishing never
 * wait behind them for a free slot (graphile-worker hands a runner only the jobs of the
 * tasks it knows); sign-in mail has a runner of its own (MAIL_CONCURRENCY) and an SMTP
 * connection of its own, so no burst of another account's work can hold its slots and no
 * other mail queues ahead of a code someone is waiting for. Within the AI runner each account's jobs are one named queue
 * (app_private.ai_queue), so an account holds at most one AI slot, however many projects
 * and jobs it has, and another account's job starts in the next slot that frees. A job
 * queued without a queue name (before queues were per account) still runs here.
 *
 * Liveness: every few seconds the process writes a heartbeat for its graphile-worker ids
 * and recovers what dead workers left behind (their locked jobs, their posts in
 * `sending`; see app_public.recover_from_dead_workers). graphile-worker alone would keep
 * a dead worker's jobs locked for hours.
 *
 * The database going away (a restart, a failover) does not end the process: graphile-worker
 * keeps polling and listens again once it is back, our pool reconnects on its next query.
 * What the outage cut short is recovered by the heartbeat once the database answers again
 * (app_public.recover_from_live_workers): graphile-worker records a job's end without
 * waiting for it, so an end the database missed leaves the job locked by this live process,
 * and a send whose outcome could not be recorded leaves its post in `sending`. The process
 * tells which jobs it runs and which posts it sends; the rest under its ids is released.
 * (Without this, in tests/publishing/db_restart.test.ts, 16 of 30 due posts sat `approved`
 * behind their project's publishing queue, still locked for a job whose end was lost; one stayed
 * `sending`: for the hours graphile-worker waits, and the 10 minutes of the dead-worker rule.)
 */
import type { Api } from "grammy";
import type { Ai } from "../core/ai/client.ts";
import { EventEmitter } from "node:events";
import { Logger, run, type Runner, type TaskList, type WorkerEvents } from "graphile-worker";
import type { Config } from "../core/config.ts";
import { connect, isDatabaseUnreachable, type Sql } from "../core/db.ts";
import type { Log } from "../core/log.ts";
import type { FileStorage } from "../core/storage.ts";
import { fillPlan } from "./content_plans__fill.ts";
import { fillAllPlans } from "./content_plans__fill_all.ts";
import { generateContent } from "./drafts__generate_content.ts";
import { createMailer, type Mailer } from "./mailer.ts";
import { sendNotification } from "./notifications__send.ts";
import { applyEdit } from "./posts__apply_edit.ts";
import { writeAutopilotPost } from "./posts__autopilot_content.ts";
import { notifyAdmin } from "./posts__notify_admin.ts";
import { remindApprover } from "./posts__remind_approver.ts";
import { sendEditApproval } from "./posts__send_edit_approval.ts";
import { pinPost } from "./posts__pin.ts";
import { removeAd } from "./posts__remove_ad.ts";
import { sendToChannel } from "./posts__publish.ts";
import { retractApproval } from "./posts__retract_approval.ts";
import { sendApproval } from "./posts__send_approval.ts";
import { askApprover } from "./approver_requests__ask.ts";
import { spawnOccurrence } from "./posts__spawn_occurrence.ts";
import { cleanupSessions } from "./sessions__cleanup.ts";
import { sendSignInCode } from "./sign_in_codes__send.ts";
import { sendInvitation } from "./team__send_invitation.ts";
import { deliverWebhook } from "./webhooks__deliver.ts";
import { queueSubscriberSamples } from "./channels__queue_subscriber_samples.ts";
import { sampleSubscribers } from "./channels__sample_subscribers.ts";
import { revokeInviteLink } from "./invite_links__revoke.ts";
import { pruneStats } from "./stats__prune.ts";
import { cleanupUploads } from "./uploads__cleanup.ts";
import { deleteUploads } from "./uploads__delete.ts";
import { queueWeeklySummaries } from "./weekly_summaries__queue.ts";
import { sendWeeklySummary } from "./weekly_summaries__send.ts";

/** ≤ 500 ms so a job due at a time starts within half a second of it. */
export const POLL_INTERVAL_MS = 500;
export const HEARTBEAT_INTERVAL_MS = 2_000;
/** A worker silent this long is dead: its jobs are unlocked, its sends become uncertain. */
export const DEAD_WORKER_AFTER = "10 seconds";
/**
 * A job this live process locked but does not run, or a post it marked `sending` but does
 * not send, this long ago: the database lost the end of it. Longer than any gap between
 * graphile-worker's lock and its job:start event, or begin_sending and its answer.
 */
export const UNTRACKED_AFTER = "10 seconds";
/** Slots for everything but AI jobs: mail, previews, publishing, cleanup. */
export const CONCURRENCY = 10;
/** Slots for AI jobs; each holds a provider call for seconds to minutes, at most one per account. */
export const AI_CONCURRENCY = 2;
/**
 * Slots for sign-in mail alone. A person waits at the sign-in form for it, and no act of
 * another account may hold it back: in the shared runner a burst of messages to one
 * approver's chat, each waiting its turn of Telegram's one a second, or a Monday's weekly
 * summaries, took every slot there (a channel deleted with 50 previews out delayed another
 * account's code by 44.8 s).
 */
export const MAIL_CONCURRENCY = 2;
/**
 * Webhook deliveries at once. They wait on other people's servers (10 s at most a try), in a
 * runner of their own, so publishing, mail and AI never wait for them; each account's
 * endpoints run in two queues of their own (app_private.webhook_queue), so one account's dead
 * receivers hold at most 2 of these slots (bench:fairness "webhooks").
 */
export const WEBHOOK_CONCURRENCY = 16;

/**
 * graphile-worker attaches the whole job to its log lines; payloads can hold secrets (a
 * sign-in code until it is mailed), so only the job's identity goes to the log.
 */
export function safeLogFields(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!meta) return {};
  const { job, ...rest } = meta as { job?: { id?: string; task_identifier?: string; attempts?: number } };
  return job ? { ...rest, job: { id: job.id, task: job.task_identifier, attempts: job.attempts } } : rest;
}

export type WorkerHandle = { runners: Runner[]; stop(): Promise<void> };

export type WorkerDeps = { storage: FileStorage; telegram?: Api; ai?: Ai };

/**
 * The tasks queued by time alone, never by add_job (the worker's crontab). The autopilot
 * pass keeps the next 7 days filled as time moves on and drafts arrive.
 */
export const CRONTAB = [
  "17 3 * * * sessions__cleanup",
  "42 * * * * uploads__cleanup",
  "7 * * * * content_plans__fill_all",
  // every connected channel's hourly subscriber sample, spread over the hour (docs/statistics.md)
  "3 * * * * channels__queue_subscriber_samples",
  "29 4 * * * stats__prune",
  // the weekly summaries due: Monday from 09:00 in each project's timezone (docs/autopilot-and-ai.md "Notifications")
  "11 * * * * weekly_summaries__queue",
];

/**
 * Every task, by identifier: each is tasks/<identifier>.ts (tests/tasks_registry.test.ts
 * pairs them with the identifiers SQL queues). AI jobs run in a runner of their own.
 */
export function taskLists(
  sql: Sql,
  mailer: Mailer,
  config: Pick<Config, "publicUrl" | "limits" | "webhooksAllowPrivate">,
  deps: WorkerDeps,
  /** The posts this process is sending now (for recover_from_live_workers). */
  sendingPosts = new Map<number, number>(),
  /** Sign-in codes' own SMTP connection: the shared mailer pools one, where codes would queue behind other mail. */
  signInMailer: Mailer = mailer,
) {
  const signInTasks: TaskList = {
    sign_in_codes__send: sendSignInCode(signInMailer, sql),
  };
  const tasks: TaskList = {
    uploads__delete: deleteUploads(deps.storage),
    sessions__cleanup: cleanupSessions(sql),
    uploads__cleanup: cleanupUploads(sql, deps.storage),
    approver_requests__ask: askApprover(sql, deps.telegram),
    posts__send_approval: sendApproval(sql, deps.telegram, deps.storage),
    posts__publish: sendToChannel(sql, deps.telegram, deps.storage, sendingPosts),
    posts__notify_admin: notifyAdmin(sql, deps.telegram),
    posts__remind_approver: remindApprover(sql, deps.telegram),
    posts__pin: pinPost(sql, deps.telegram),
    posts__remove_ad: removeAd(sql, deps.telegram),
    posts__send_edit_approval: sendEditApproval(sql, deps.telegram, deps.storage),
    posts__apply_edit: applyEdit(sql, deps.telegram),
    posts__retract_approval: retractApproval(deps.telegram),
    posts__spawn_occurrence: spawnOccurrence(sql),
    notifications__send: sendNotification(sql, mailer, config.publicUrl),
    // mail like notifications: bounded per account (INVITATIONS_PER_DAY) and per address
    team__send_invitation: sendInvitation(sql, mailer, config.publicUrl),
    content_plans__fill: fillPlan(sql),
    content_plans__fill_all: fillAllPlans(sql),
    channels__sample_subscribers: sampleSubscribers(sql, deps.telegram),
    channels__queue_subscriber_samples: queueSubscriberSamples(sql),
    invite_links__revoke: revokeInviteLink(deps.telegram),
    stats__prune: pruneStats(sql),
    weekly_summaries__queue: queueWeeklySummaries(sql),
    weekly_summaries__send: sendWeeklySummary(sql, mailer, config.publicUrl),
  };
  // webhook deliveries wait on other people's servers (10 s at most each): a runner of their own
  const webhookTasks: TaskList = {
    webhooks__deliver: deliverWebhook(sql, { allowPrivate: config.webhooksAllowPrivate }),
  };
  const aiTasks: TaskList = {
    drafts__generate_content: generateContent(sql, deps.ai, config.limits),
    posts__autopilot_content: writeAutopilotPost(sql, deps.ai, config.limits),
  };
  return { tasks, aiTasks, signInTasks, webhookTasks };
}

export async function startWorker(connectionString: string, config: Config, log: Log, deps: WorkerDeps): Promise<WorkerHandle> {
  const mailer = createMailer(config, log);
  const signInMailer = createMailer(config, log);
  // The tasks' and the heartbeat's connections: the same client, row shape and types as the API's.
  const sql = connect(connectionString, { max: CONCURRENCY + AI_CONCURRENCY + MAIL_CONCURRENCY + WEBHOOK_CONCURRENCY + 1 });
  // what this process is doing now, for recover_from_live_workers
  const runningJobs = new Set<string>();
  const sendingPosts = new Map<number, number>();
  const { tasks, aiTasks, signInTasks, webhookTasks } = taskLists(sql, mailer, config, deps, sendingPosts, signInMailer);
  // Our own emitter, listened to before run() creates its pools, so no id is missed.
  // graphile-worker locks a job (and its named queue) with its *pool's* id, not the id of
  // the worker running it: the pool's id is what the heartbeat must keep alive, or every
  // job running longer than DEAD_WORKER_AFTER was taken from its live worker and run again.
  const events: WorkerEvents = new EventEmitter();
  const poolIds = new Set<string>();
  events.on("pool:create", ({ workerPool }) => void poolIds.add(workerPool.id));
  events.on("pool:release", ({ workerPool }) => void poolIds.delete(workerPool.id));
  events.on("job:start", ({ job }) => void runningJobs.add(job.id));
  events.on("job:complete", ({ job }) => void runningJobs.delete(job.id));
  // graphile-worker records a job's end (and failure) without awaiting it: with the database
  // gone that promise rejects with nobody to catch it, and Deno ends a process on an
  // unhandled rejection. Such an end is recovered once the database is back (see above);
  // any other unhandled rejection still ends the process.
  const onUnhandledRejection = (event: PromiseRejectionEvent) => {
    if (!isDatabaseUnreachable(event.reason)) return;
    event.preventDefault();
    log("warn", "the database was unreachable for graphile-worker; recovered once it is back", { error: event.reason });
  };
  globalThis.addEventListener("unhandledrejection", onUnhandledRejection);
  const logger = new Logger(() => (level, message, meta) => {
    if (level === "debug") return;
    log(level === "warning" ? "warn" : level === "error" ? "error" : "info", message, safeLogFields(meta));
  });
  const common = { connectionString, events, pollInterval: POLL_INTERVAL_MS, noHandleSignals: true, logger };
  const runners = [
    await run({
      ...common,
      taskList: tasks,
      concurrency: CONCURRENCY,
      crontab: CRONTAB.join("\n"),
    }),
    // No cron of their own (the first runner has it): said outright, or graphile-worker looks
    // for a crontab file and logs "cron is disabled", which reads as if the hourly jobs were off.
    await run({ ...common, taskList: aiTasks, concurrency: AI_CONCURRENCY, parsedCronItems: [] }),
    await run({ ...common, taskList: signInTasks, concurrency: MAIL_CONCURRENCY, parsedCronItems: [] }),
    await run({ ...common, taskList: webhookTasks, concurrency: WEBHOOK_CONCURRENCY, parsedCronItems: [] }),
  ];

  // After the database was out of reach, every other worker's heartbeat is as old as the
  // outage, though they live: the silence was the database's. This process judges no one
  // dead until they have had a whole window to beat again (a process that comes back
  // first would otherwise take their running jobs and turn their sends uncertain).
  let beatFailed = false;
  let judgeOthersFrom = 0;
  const beat = async () => {
    try {
      if (poolIds.size > 0) await sql`select app_public.record_heartbeat(${[...poolIds]}::text[])`;
      if (beatFailed) {
        beatFailed = false;
        judgeOthersFrom = Date.now() + Number.parseInt(DEAD_WORKER_AFTER) * 1000;
      }
      if (Date.now() >= judgeOthersFrom) {
        const [{ n }] = await sql<{ n: number }[]>`select app_public.recover_from_dead_workers(${DEAD_WORKER_AFTER}::interval) as n`;
        if (n > 0) log("warn", `${n} post(s) left in sending by a dead worker are now uncertain`);
      }
      if (poolIds.size > 0) {
        const [{ lost }] = await sql<{ lost: number }[]>`
          select app_public.recover_from_live_workers(${[...poolIds]}::text[], ${[...runningJobs]}::bigint[],
            ${[...sendingPosts.keys()]}::bigint[], ${UNTRACKED_AFTER}::interval) as lost`;
        if (lost > 0) log("warn", `${lost} post(s) whose send the database lost track of are now uncertain`);
      }
    } catch (err) {
      beatFailed = true;
      log("error", "heartbeat failed", { error: err });
    }
  };
  const heartbeat = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  await beat();

  return {
    runners,
    async stop() {
      clearInterval(heartbeat);
      globalThis.removeEventListener("unhandledrejection", onUnhandledRejection);
      // graphile-worker lets running jobs finish before resolving.
      await Promise.all(runners.map((runner) => runner.stop()));
      await sql.end({ timeout: 5 });
      mailer.close();
      signInMailer.close();
    },
  };
}
