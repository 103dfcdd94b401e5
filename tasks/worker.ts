/*
 * The graphile-worker runner with every task of the product. tasks/main.ts runs it as a
 * process; tests run the same runner in-process against their own database.
 */
import { Logger, run, type Runner, type TaskList } from "graphile-worker";
import type { Config } from "../api/config.ts";
import type { Log } from "../api/log.ts";
import type { FileStorage } from "../api/storage.ts";
import { createMailer } from "./mailer.ts";
import { cleanupUploads } from "./uploads__cleanup.ts";
import { sendSignInCode } from "./sign_in_codes__send.ts";

/** ≤ 500 ms so a job due at a time starts within half a second of it. */
export const POLL_INTERVAL_MS = 500;

/**
 * graphile-worker attaches the whole job to its log lines; payloads can hold secrets (a
 * sign-in code until it is mailed), so only the job's identity goes to the log.
 */
export function safeLogFields(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!meta) return {};
  const { job, ...rest } = meta as { job?: { id?: string; task_identifier?: string; attempts?: number } };
  return job ? { ...rest, job: { id: job.id, task: job.task_identifier, attempts: job.attempts } } : rest;
}

export type WorkerHandle = { runner: Runner; stop(): Promise<void> };

export async function startWorker(
  connectionString: string,
  config: Config,
  log: Log,
  deps: { storage: FileStorage },
): Promise<WorkerHandle> {
  const mailer = createMailer(config, log);
  const taskList: TaskList = {
    sign_in_codes__send: sendSignInCode(mailer),
    sessions__cleanup: async (_payload, helpers) => {
      await helpers.query("select app_public.delete_expired_sign_in_state()");
    },
    uploads__cleanup: cleanupUploads(deps.storage),
  };
  const runner = await run({
    connectionString,
    taskList,
    concurrency: 5,
    pollInterval: POLL_INTERVAL_MS,
    noHandleSignals: true,
    crontab: ["17 3 * * * sessions__cleanup", "42 * * * * uploads__cleanup"].join("\n"),
    logger: new Logger(() => (level, message, meta) => {
      if (level === "debug") return;
      log(level === "warning" ? "warn" : level === "error" ? "error" : "info", message, safeLogFields(meta));
    }),
  });
  return {
    runner,
    async stop() {
      // graphile-worker lets running jobs finish before resolving.
      await runner.stop();
      mailer.close();
    },
  };
}
