/*
 * GET /metrics: Prometheus text for operators, behind METRICS_TOKEN (docs/operating.md "Metrics").
 * Everything but the HTTP durations comes from PostgreSQL in one call
 * (app_public.read_metrics), so every API instance answers the same numbers; the HTTP
 * durations are this process's own and carry its `api_instance` label.
 */
import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { sameSecret } from "../../core/secrets.ts";
import { EXPOSITION_CONTENT_TYPE, Exposition, type HistogramSeries, type LocalHistogram } from "../../core/metrics.ts";
import { answer, notFound } from "../errors.ts";

/**
 * The metrics read gets this long (or the API's own statement_timeout, if shorter): a
 * scrape answers without the database's series rather than holding a connection.
 */
export const METRICS_QUERY_TIMEOUT_MS = 2_000;

type Histogram = { bounds: number[]; buckets: number[]; sum: number; count: number };
type DatabaseMetrics = {
  jobs: { task: string; waiting: number; scheduled: number; running: number; failed: number; failing: number; oldestWaitingSeconds: number }[];
  histograms: Record<string, Histogram>;
  telegramCalls: { method: string; result: string; calls: number }[];
  aiTokensToday: number;
  aiTokensAllDays: number;
};

/** The bearer token of an Authorization header, compared in constant time (core/secrets.ts). */
function tokenMatches(header: string | undefined, token: string): boolean {
  return sameSecret(/^Bearer (.+)$/i.exec(header?.trim() ?? "")?.[1] ?? "", token);
}

export function metricsRoutes({ sql, config, log }: ApiDeps, httpDurations: LocalHistogram) {
  const timeoutMs = config.apiStatementTimeoutMs > 0 ? Math.min(config.apiStatementTimeoutMs, METRICS_QUERY_TIMEOUT_MS) : METRICS_QUERY_TIMEOUT_MS;
  // scrapes that arrive together (several Prometheus servers) share one read
  let reading: Promise<DatabaseMetrics> | undefined;
  const read = () =>
    reading ??= sql.begin(async (tx) => {
      await tx.unsafe(`set local statement_timeout = ${timeoutMs}`);
      const [{ metrics }] = await tx<{ metrics: DatabaseMetrics }[]>`select app_public.read_metrics() as metrics`;
      return metrics;
    }).finally(() => (reading = undefined));

  return new Hono<AppEnv>().get("/", async (c) => {
    if (!config.metricsToken) return notFound(c);
    if (!tokenMatches(c.req.header("authorization"), config.metricsToken)) {
      return answer(c, new ApiError("metrics.tokenRequired"), { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    let db: DatabaseMetrics | undefined;
    try {
      db = await read();
    } catch (error) {
      log("warn", "metrics: the database's series could not be read", { requestId: c.get("requestId"), error });
    }
    const out = new Exposition();
    out.gauge("pressa_metrics_database_up", "1 when this scrape read the database's series, 0 when it could not (they are left out)", [
      { value: db ? 1 : 0 },
    ]);
    if (db) databaseSeries(out, db);
    out.histogram(
      "pressa_http_request_duration_seconds",
      "Time to answer an HTTP request, by route pattern; per API process (api_instance), since it started",
      httpDurations.series(),
    );
    return c.body(out.text(), 200, { "Content-Type": EXPOSITION_CONTENT_TYPE, "Cache-Control": "no-store" });
  });
}

function databaseSeries(out: Exposition, db: DatabaseMetrics) {
  const states = ["waiting", "scheduled", "running", "failed"] as const;
  out.gauge(
    "pressa_jobs",
    "Jobs in graphile-worker's queue by task and state: waiting (due, not yet taken), scheduled (due later, retries in backoff included), running, failed (out of attempts)",
    db.jobs.flatMap((j) => states.map((state) => ({ labels: { task: j.task, state }, value: j[state] }))),
  );
  out.gauge(
    "pressa_jobs_failing",
    "Jobs whose last attempt failed and that will be tried again (or are being tried now)",
    db.jobs.map((j) => ({ labels: { task: j.task }, value: j.failing })),
  );
  out.gauge(
    "pressa_jobs_oldest_waiting_seconds",
    "Age of the oldest waiting job by task: seconds since its run_at passed; 0 when none waits",
    db.jobs.map((j) => ({ labels: { task: j.task }, value: j.oldestWaitingSeconds })),
  );
  const histogram = (name: string): HistogramSeries[] => (db.histograms[name] ? [db.histograms[name]] : []);
  out.histogram(
    "pressa_publish_lateness_seconds",
    "Seconds from a post's scheduled time to its publication, every post published since metrics began",
    histogram("publish_lateness_seconds"),
  );
  out.histogram(
    "pressa_sign_in_mail_delay_seconds",
    "Seconds from a sign-in code's request to its mail handed to SMTP",
    histogram("sign_in_mail_delay_seconds"),
  );
  out.counter(
    "pressa_telegram_calls_total",
    "Bot API calls of every process by method and result: ok, rate_limited (429), refused (another error), unreachable (no answer)",
    db.telegramCalls.map((t) => ({ labels: { method: t.method, result: t.result }, value: t.calls })),
  );
  out.gauge("pressa_ai_tokens_today", "AI tokens every account together spent this UTC day", [{ value: db.aiTokensToday }]);
  out.counter("pressa_ai_tokens_total", "AI tokens every account together spent, all days", [{ value: db.aiTokensAllDays }]);
}
