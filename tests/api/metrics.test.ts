/*
 * GET /metrics as an operator's Prometheus and as a stranger see it: the token is required,
 * every series reports what the product did (a sign-in, a publication through a 429, AI
 * tokens, queued and failed jobs, HTTP requests by route), and the text parses as strict
 * exposition format.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app.ts";
import { silentLog } from "../../core/log.ts";
import { Exposition, LocalHistogram } from "../../core/metrics.ts";
import { approvalPreview, buttonData, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

const TOKEN = "scrape-secret-of-the-operator-1234567890";

type Series = { name: string; labels: Record<string, string>; value: number };
type Family = { name: string; type: string; help: string; series: Series[] };

/**
 * A strict reader of the text format: every family has HELP then TYPE before its samples;
 * names and label names follow the rules; a sample belongs to the family declared last
 * (histograms: _bucket, _sum, _count); a histogram's buckets per label set have ascending
 * `le` ending in +Inf, never decreasing counts, and +Inf equals _count. Throws on anything else.
 */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  if (!text.endsWith("\n")) throw new Error("the text must end with a newline");
  let current: Family | undefined;
  const METRIC = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
  for (const line of text.slice(0, -1).split("\n")) {
    if (line.startsWith("# HELP ")) {
      const [, name, help] = /^# HELP (\S+) (.*)$/.exec(line) ?? [];
      if (!name || !METRIC.test(name)) throw new Error(`bad HELP line: ${line}`);
      if (families.has(name)) throw new Error(`${name} declared twice`);
      current = { name, type: "", help, series: [] };
      families.set(name, current);
      continue;
    }
    if (line.startsWith("# TYPE ")) {
      const [, name, type] = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line) ?? [];
      if (!current || name !== current.name || current.type) throw new Error(`TYPE without its HELP: ${line}`);
      current.type = type;
      continue;
    }
    if (line.startsWith("#") || line === "") throw new Error(`unexpected line: ${JSON.stringify(line)}`);
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`bad sample line: ${line}`);
    const [, name, , labelText, valueText] = match;
    if (!current?.type) throw new Error(`sample before its family: ${line}`);
    const suffixes = current.type === "histogram" ? ["_bucket", "_sum", "_count"] : [""];
    if (!suffixes.some((s) => name === current!.name + s)) throw new Error(`${name} outside its family ${current.name}`);
    const labels: Record<string, string> = {};
    if (labelText) {
      const pair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\n"])*)"(,|$)/y;
      let at = 0;
      while (at < labelText.length) {
        pair.lastIndex = at;
        const m = pair.exec(labelText);
        if (!m) throw new Error(`bad labels: ${line}`);
        if (m[1] in labels) throw new Error(`label ${m[1]} twice: ${line}`);
        labels[m[1]] = m[2].replace(/\\(.)/g, (_, c) => (c === "n" ? "\n" : c));
        at = pair.lastIndex;
      }
    }
    const value = valueText === "+Inf" ? Infinity : valueText === "-Inf" ? -Infinity : valueText === "NaN" ? NaN : Number(valueText);
    if (valueText !== "NaN" && Number.isNaN(value)) throw new Error(`bad value: ${line}`);
    if (current.type === "counter" && !(value >= 0)) throw new Error(`negative counter: ${line}`);
    current.series.push({ name, labels, value });
  }
  for (const family of families.values()) {
    if (!family.type) throw new Error(`${family.name} has no TYPE`);
    if (family.type === "histogram") checkHistogram(family);
  }
  return families;
}

function checkHistogram(family: Family) {
  const groups = new Map<string, Series[]>();
  for (const s of family.series) {
    const { le, ...rest } = s.labels;
    if ((s.name === `${family.name}_bucket`) !== (le !== undefined)) throw new Error(`${s.name}: le only on buckets`);
    const key = JSON.stringify(Object.entries(rest).sort());
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  for (const [key, series] of groups) {
    const buckets = series.filter((s) => s.name.endsWith("_bucket"));
    const bounds = buckets.map((b) => (b.labels.le === "+Inf" ? Infinity : Number(b.labels.le)));
    if (bounds.some(Number.isNaN)) throw new Error(`${family.name}${key}: le not a number`);
    if (bounds.at(-1) !== Infinity) throw new Error(`${family.name}${key}: no +Inf bucket`);
    for (let i = 1; i < bounds.length; i++) {
      if (!(bounds[i] > bounds[i - 1])) throw new Error(`${family.name}${key}: le not ascending`);
      if (buckets[i].value < buckets[i - 1].value) throw new Error(`${family.name}${key}: bucket counts decrease`);
    }
    const count = series.find((s) => s.name === `${family.name}_count`);
    const sum = series.find((s) => s.name === `${family.name}_sum`);
    if (!count || !sum) throw new Error(`${family.name}${key}: _sum or _count missing`);
    if (count.value !== buckets.at(-1)!.value) throw new Error(`${family.name}${key}: +Inf is not _count`);
  }
}

/** The value of `name` with exactly these labels (undefined when absent). */
function valueOf(families: Map<string, Family>, family: string, name: string, labels: Record<string, string> = {}) {
  const matches = families.get(family)?.series.filter((s) =>
    s.name === name && Object.keys(s.labels).length === Object.keys(labels).length &&
    Object.entries(labels).every(([k, v]) => s.labels[k] === v)
  ) ?? [];
  if (matches.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} appears ${matches.length} times`);
  return matches[0]?.value;
}

let stack: Stack;
/** `authorization: null` sends no header. */
const scrape = (app = stack.app, authorization: string | null = `Bearer ${TOKEN}`) =>
  app.request("/metrics", { headers: authorization === null ? {} : { authorization } });
const scrapeParsed = async (app = stack.app) => {
  const res = await scrape(app);
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
};
async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  stack = await startStack({ bot: true, openai: true, env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await stack?.close();
});

describe("who may scrape", () => {
  test("no token, a wrong one, a prefix of it or another scheme: 401 JSON, no series", async () => {
    for (const authorization of [null, "Bearer wrong", `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, `Basic ${btoa(`x:${TOKEN}`)}`, TOKEN, "Bearer "]) {
      const res = await scrape(stack.app, authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      const body = await res.json();
      expect(body.code).toBe("metrics.tokenRequired");
      expect(typeof body.message).toBe("string");
      expect(JSON.stringify(body)).not.toContain("pressa_");
    }
  });

  test("the token in the query string does not count", async () => {
    const res = await stack.app.request(`/metrics?token=${TOKEN}`);
    expect(res.status).toBe(401);
  });

  test("without METRICS_TOKEN /metrics does not exist: 404 JSON like any unknown path, whatever is sent", async () => {
    const app = createApp({ sql: stack.sql, config: { ...stack.config, metricsToken: undefined }, log: silentLog, storage: stack.storage });
    for (const authorization of [null, `Bearer ${TOKEN}`, "Bearer "]) {
      const res = await scrape(app, authorization);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(await (await app.request("/api/no-such-thing")).json());
    }
  });

  test("the right token: Prometheus text", async () => {
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const families = parseExposition(await res.text());
    expect(valueOf(families, "pressa_metrics_database_up", "pressa_metrics_database_up")).toBe(1);
  });
});

describe("the series", () => {
  test("after a sign-in, a publication through a 429, AI tokens and queued jobs, each series says so", async () => {
    const before = await scrapeParsed();
    expect(valueOf(before, "pressa_sign_in_mail_delay_seconds", "pressa_sign_in_mail_delay_seconds_count")).toBe(0);
    expect(valueOf(before, "pressa_publish_lateness_seconds", "pressa_publish_lateness_seconds_count")).toBe(0);

    // a sign-in (projectWithChannel signs the owner in), then a post approved and due in 6 s
    const p = await projectWithChannel(stack, { drafts: ["Metrics post"] });
    const created = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() + 6_000).toISOString() }, p.cookie);
    expect(created.status).toBe(201);
    const postId = created.json.id as number;
    await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
    const preview = await approvalPreview(stack, p, postId);
    const pressed = stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
    await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(pressed), 10_000);
    // Telegram says "retry after 1" to the post's send; it goes out after the wait
    stack.telegram!.failNext("sendMessage", { code: 429, retryAfter: 1 });
    await stack.telegram!.waitFor(() => stack.telegram!.messages(p.channel.id).find((m) => m.text === "Metrics post"), 30_000);

    // AI tokens: the double reports 10 prompt + 10 completion tokens for a 40-character title
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await stack.sql`insert into app_private.ai_tokens_total (day, tokens) values (${yesterday}, 1000)`;
    stack.openai!.reply(() => "T".repeat(40));
    expect((await stack.call("POST", `${p.base}/generate-title`, {}, p.cookie)).status).toBe(200);

    // jobs of a task no worker runs: one due 90 s ago, one failed once and waiting to retry,
    // one out of attempts
    await stack.sql`select graphile_worker.add_job('metrics_probe', '{}'::json, run_at := now() - interval '90 seconds')`;
    const [{ id: retrying }] = await stack.sql`select id from graphile_worker.add_job('metrics_probe', '{"n":2}'::json, run_at := now() + interval '1 hour')`;
    const [{ id: dead }] = await stack.sql`select id from graphile_worker.add_job('metrics_probe', '{"n":3}'::json, max_attempts := 2)`;
    await stack.sql`update graphile_worker._private_jobs set attempts = 1, last_error = 'boom' where id = ${retrying}`;
    await stack.sql`update graphile_worker._private_jobs set attempts = 2, last_error = 'boom' where id = ${dead}`;

    // hostile requests: ids, junk paths and a made-up method never become label values
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).status).toBe(200);
    await stack.call("GET", `/api/projects/987654321/junk-${crypto.randomUUID()}`, undefined, p.cookie);
    await stack.app.request("/api/health", { method: "FROBNICATE" });

    // the 429 and the sign-in mail are counted in batches: the scrape shows them within seconds
    const after = await eventually(async () => {
      const families = await scrapeParsed();
      const limited = valueOf(families, "pressa_telegram_calls_total", "pressa_telegram_calls_total", { method: "sendMessage", result: "rate_limited" });
      const mailed = valueOf(families, "pressa_sign_in_mail_delay_seconds", "pressa_sign_in_mail_delay_seconds_count");
      return limited === 1 && mailed === 1 ? families : undefined;
    });

    // sign-in mail delay: one mail, delivered in well under the README's 2 s target here
    expect(valueOf(after, "pressa_sign_in_mail_delay_seconds", "pressa_sign_in_mail_delay_seconds_bucket", { le: "+Inf" })).toBe(1);
    expect(valueOf(after, "pressa_sign_in_mail_delay_seconds", "pressa_sign_in_mail_delay_seconds_bucket", { le: "5" })).toBe(1);
    expect(valueOf(after, "pressa_sign_in_mail_delay_seconds", "pressa_sign_in_mail_delay_seconds_sum")).toBeLessThan(5);

    // publish lateness: one post, at least the second Telegram made it wait
    expect(valueOf(after, "pressa_publish_lateness_seconds", "pressa_publish_lateness_seconds_count")).toBe(1);
    expect(valueOf(after, "pressa_publish_lateness_seconds", "pressa_publish_lateness_seconds_bucket", { le: "0.5" })).toBe(0);
    expect(valueOf(after, "pressa_publish_lateness_seconds", "pressa_publish_lateness_seconds_bucket", { le: "+Inf" })).toBe(1);
    const lateness = valueOf(after, "pressa_publish_lateness_seconds", "pressa_publish_lateness_seconds_sum")!;
    expect(lateness).toBeGreaterThanOrEqual(1);
    expect(lateness).toBeLessThan(15);

    // Telegram: the 429 and the successful calls, by method
    const sends = () => stack.telegram!.requests.filter((r) => r.method === "sendMessage" && r.status === 200).length;
    expect(valueOf(after, "pressa_telegram_calls_total", "pressa_telegram_calls_total", { method: "sendMessage", result: "ok" }))
      .toBeGreaterThanOrEqual(2); // the preview and the post at least
    await eventually(async () => {
      const families = await scrapeParsed();
      return valueOf(families, "pressa_telegram_calls_total", "pressa_telegram_calls_total", { method: "sendMessage", result: "ok" }) === sends() ? true : undefined;
    });
    expect(valueOf(after, "pressa_telegram_calls_total", "pressa_telegram_calls_total", { method: "getChatMember", result: "ok" })).toBeGreaterThan(0);

    // AI tokens: today's spend and every day's
    expect(valueOf(after, "pressa_ai_tokens_today", "pressa_ai_tokens_today")).toBe(20);
    expect(valueOf(after, "pressa_ai_tokens_total", "pressa_ai_tokens_total")).toBe(1020);

    // jobs by task and state
    const job = (state: string) => valueOf(after, "pressa_jobs", "pressa_jobs", { task: "metrics_probe", state });
    expect([job("waiting"), job("scheduled"), job("running"), job("failed")]).toEqual([1, 1, 0, 1]);
    expect(valueOf(after, "pressa_jobs_failing", "pressa_jobs_failing", { task: "metrics_probe" })).toBe(1);
    const oldest = valueOf(after, "pressa_jobs_oldest_waiting_seconds", "pressa_jobs_oldest_waiting_seconds", { task: "metrics_probe" })!;
    expect(oldest).toBeGreaterThanOrEqual(90);
    expect(oldest).toBeLessThan(150);
    // the post's publication ran and left no job behind
    expect(job("waiting")).toBeDefined();
    expect(valueOf(after, "pressa_jobs", "pressa_jobs", { task: "posts__publish", state: "waiting" })).toBe(0);

    // HTTP durations: route patterns only, per process
    const http = after.get("pressa_http_request_duration_seconds")!;
    const instance = http.series[0].labels.api_instance;
    expect(instance).toBe(`${Deno.hostname()}:${Deno.pid}`);
    expect(valueOf(after, "pressa_http_request_duration_seconds", "pressa_http_request_duration_seconds_count", {
      api_instance: instance, method: "GET", route: "/api/projects/:projectId/posts", status: "200",
    })).toBe(1);
    expect(valueOf(after, "pressa_http_request_duration_seconds", "pressa_http_request_duration_seconds_count", {
      api_instance: instance, method: "POST", route: "/api/auth/verify-otp", status: "200",
    })).toBeGreaterThanOrEqual(1);
    const labelValues = http.series.flatMap((s) => Object.values(s.labels)).join(" ");
    expect(labelValues).not.toContain(`/${p.project.id}/`);
    expect(labelValues).not.toContain("987654321");
    expect(labelValues).not.toContain("junk-");
    expect(labelValues).not.toContain("FROBNICATE");
    expect(labelValues).toContain("other");

    // another API instance on the same database answers the same numbers: all but its own
    // HTTP requests, and what moves by itself between two scrapes (ages, the bot's long polls)
    const other = createApp({ sql: stack.sql, config: stack.config, log: silentLog, storage: stack.storage });
    const [mine, theirs] = [await scrape(), await scrape(other)];
    const steady = (text: string) =>
      text.split("\n").filter((l) => !/pressa_http_request_duration_seconds|^pressa_jobs_oldest_waiting_seconds|method="getUpdates"/.test(l));
    const theirLines = steady(await theirs.text());
    expect(theirLines).toEqual(steady(await mine.text()));
    expect(theirLines.filter((l) => l.startsWith("pressa_")).length).toBeGreaterThan(50);
  }, 90_000);
});

describe("the format module", () => {
  test("escapes label values and HELP text, spells +Inf, and refuses what Prometheus would", () => {
    const text = new Exposition()
      .gauge("x_gauge", "a help with \\ and\nnewline", [{ labels: { path: 'a"b\\c\nd' }, value: Infinity }])
      .counter("x_total", "counts", [{ value: 3 }])
      .text();
    const families = parseExposition(text);
    expect(families.get("x_gauge")!.help).toBe("a help with \\\\ and\\nnewline");
    expect(families.get("x_gauge")!.series[0]).toEqual({ name: "x_gauge", labels: { path: 'a"b\\c\nd' }, value: Infinity });
    expect(() => new Exposition().gauge("1bad", "h", [])).toThrow();
    expect(() => new Exposition().gauge("ok", "h", [{ labels: { "bad-label": "v" }, value: 1 }])).toThrow();
    expect(() => new Exposition().gauge("ok", "h", [{ labels: { __reserved: "v" }, value: 1 }])).toThrow();
    expect(() => new Exposition().counter("no_suffix", "h", [])).toThrow();
    expect(() => new Exposition().gauge("twice", "h", []).gauge("twice", "h", [])).toThrow();
    expect(() => new Exposition().histogram("h", "h", [{ bounds: [2, 1], buckets: [0, 0], sum: 0, count: 0 }])).toThrow();
  });

  test("a local histogram's buckets are cumulative and end in +Inf = count", () => {
    const h = new LocalHistogram([0.1, 1, 10]);
    for (const v of [0.05, 0.5, 0.5, 5, 50]) h.observe({ route: "/r" }, v);
    const families = parseExposition(new Exposition().histogram("d_seconds", "d", h.series()).text());
    const bucket = (le: string) => valueOf(families, "d_seconds", "d_seconds_bucket", { route: "/r", le });
    expect([bucket("0.1"), bucket("1"), bucket("10"), bucket("+Inf")]).toEqual([1, 3, 4, 5]);
    expect(valueOf(families, "d_seconds", "d_seconds_sum", { route: "/r" })).toBeCloseTo(56.05);
  });

  test("the strict reader refuses malformed text", () => {
    expect(() => parseExposition("x 1\n")).toThrow(); // no HELP/TYPE
    expect(() => parseExposition("# HELP h h\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n")).toThrow(); // no +Inf
    expect(() => parseExposition("# HELP h h\n# TYPE h histogram\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n")).toThrow();
    expect(() => parseExposition("# HELP g g\n# TYPE g gauge\nother 1\n")).toThrow();
    expect(() => parseExposition("# HELP g g\n# TYPE g gauge\ng{a=\"1\",a=\"2\"} 1\n")).toThrow();
  });
});
