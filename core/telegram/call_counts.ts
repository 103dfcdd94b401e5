/*
 * Telegram calls by method and result, for GET /metrics. Every call of the API, the
 * workers and the bot passes rateLimitTransformer (client.ts), which counts it here in
 * memory; every few seconds the process adds what it counted to the shared counters in
 * PostgreSQL in one statement (app_public.add_telegram_call_metrics), so whichever API
 * instance is scraped reports every process's calls, and a call never waits on the
 * database for its count. A batch that cannot be written is kept for the next one.
 */
import type { Sql } from "../db.ts";

export type CallResult = "ok" | "rate_limited" | "refused" | "unreachable";

export interface CallCounter {
  count(method: string, result: CallResult): void;
}

export type CallCounts = CallCounter & {
  /** Writes what was counted since the last batch; resolves when it is in the database. */
  flush(): Promise<void>;
  /** Stops the timer after a last flush. */
  stop(): Promise<void>;
};

/** Seconds of counts a process may hold back: a scrape sees a call at most this late. */
export const FLUSH_INTERVAL_MS = 5_000;

export function telegramCallCounts(
  sql: Sql,
  options: { intervalMs?: number; log?: (message: string, fields?: Record<string, unknown>) => void } = {},
): CallCounts {
  let pending = new Map<string, number>();
  let warnedAt = 0;
  let writing: Promise<void> = Promise.resolve();

  const write = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const methods: string[] = [], results: string[] = [], calls: number[] = [];
    for (const [key, n] of batch) {
      const [method, result] = key.split("\n");
      methods.push(method);
      results.push(result);
      calls.push(n);
    }
    try {
      await sql`select app_public.add_telegram_call_metrics(${methods}::text[], ${results}::text[], ${calls}::bigint[])`;
    } catch (error) {
      for (const [key, n] of batch) pending.set(key, (pending.get(key) ?? 0) + n);
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        options.log?.("Telegram call counts could not be written; kept for the next batch", { error });
      }
    }
  };
  // one batch at a time, so two never add the same counts
  const flush = () => (writing = writing.then(write));

  const timer = setInterval(flush, options.intervalMs ?? FLUSH_INTERVAL_MS);
  // the counts never keep a process (or a test) alive
  Deno.unrefTimer(timer);

  return {
    count(method, result) {
      const key = `${method}\n${result}`;
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
