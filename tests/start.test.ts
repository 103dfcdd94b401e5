/*
 * `npm start` as a user runs it: a fresh DATA_DIR, embedded PostgreSQL, migrations, the
 * API serving the web app, the worker mailing a sign-in code, and a clean stop on Ctrl-C.
 * Ctrl-C is sent as a terminal sends it, to the whole process group: the database must
 * still be the last to stop, after the processes that use it. The processes run as the app
 * role, not as the superuser.
 * Home of api/routes/health.ts (docs/testing.md): the start waits on it.
 */
import postgres from "postgres";
import { afterAll, expect, test } from "vitest";
import { freePort } from "../scripts/postgres.ts";
import { APP_ROLE } from "../sql/app_role.ts";
import { codeFrom, startSmtpSink } from "./helpers/smtp.ts";

const root = new URL("..", import.meta.url).pathname;
const smtp = await startSmtpSink();
afterAll(() => smtp.close());

async function waitForHealthy(url: string, child: Deno.ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.status.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return await res.json();
      await res.body?.cancel();
    } catch { /* not yet listening */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(exited ? "npm start exited early" : "npm start did not become healthy in time");
}

/** The log lines that report a failure: JSON lines at level error, Deno's uncaught errors. */
function errorLines(log: string) {
  return log.split("\n").filter((line) => {
    try {
      return JSON.parse(line).level === "error";
    } catch {
      return /^error\b|uncaught/i.test(line.replace(/\x1b\[[0-9;]*m/g, ""));
    }
  });
}

/** Where the first line with `text` is; -1 when none. */
function lineOf(lines: string[], text: string) {
  return lines.findIndex((line) => line.includes(text));
}

test("npm start runs the product on a fresh DATA_DIR and stops cleanly on SIGINT", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "pressa-start-" });
  await Deno.chmod(dataDir, 0o755);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // A process group of its own, led by npm start (setsid execs it), as a terminal makes one.
  const child = new Deno.Command("setsid", {
    args: [Deno.execPath(), "run", "-A", "scripts/start.ts"],
    cwd: root,
    env: { PORT: String(port), DATA_DIR: dataDir, SMTP_URL: smtp.url, DATABASE_URL: "", TELEGRAM_BOT_TOKEN: "" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const logChunks: string[] = [];
  const decoder = new TextDecoder();
  child.stderr.pipeTo(new WritableStream({ write: (chunk) => void logChunks.push(decoder.decode(chunk)) }));
  try {
    expect(await waitForHealthy(url, child, 90_000)).toMatchObject({ ok: true, database: "ok", bot: "disabled" });
    // the worker process reports itself alive
    await expect.poll(async () => (await (await fetch(`${url}/api/health`)).json()).worker, { timeout: 15_000 }).toBe("ok");

    // the web app is served, with client-side routes falling back to index.html
    const page = await fetch(`${url}/project/1/drafts`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    // the worker process mails the code; signing in works end to end
    const email = "start.test@example.com";
    const requested = await fetch(`${url}/api/auth/request-otp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(await requested.json()).toEqual({ codeAlreadySent: false });
    const code = codeFrom(await smtp.waitForMail(email, 1, 20_000));
    const verified = await fetch(`${url}/api/auth/verify-otp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, code }),
    });
    expect(verified.status).toBe(200);

    // the API and the worker connect as pressa_app, whose password is kept beside the
    // superuser's (docs/trust-model.md "Least privilege"); the superuser is the migrations' alone
    const psqlLine = logChunks.join("").split("\n").find((l) => l.includes("embedded PostgreSQL is running"))!;
    const owner = postgres(JSON.parse(psqlLine).psql.replace(/^psql '|'$/g, ""), { max: 1, onnotice: () => {} });
    try {
      const users = await owner<{ usename: string }[]>`
        select distinct usename from pg_stat_activity where datname = 'pressa' and pid <> pg_backend_pid()`;
      expect(users.map((u) => u.usename)).toEqual([APP_ROLE]);
    } finally {
      await owner.end();
    }
    const cluster = JSON.parse(psqlLine).message.replace(/^.*data in /, "");
    expect((await Deno.stat(`${cluster}/app_password`)).mode! & 0o777).toBe(0o600);
  } finally {
    Deno.kill(-child.pid, "SIGINT"); // Ctrl-C
  }
  const status = await child.status;
  expect(status.code).toBe(0);
  const log = logChunks.join("");
  expect(log).toContain("embedded PostgreSQL is running");
  expect(log).toContain('"message":"stopped"');
  expect(log).not.toContain("terminating connection");
  expect(errorLines(log)).toEqual([]);
  // nothing a newcomer would read as a fault: no deprecation notice of a library's, no "cron is disabled"
  expect(log).not.toMatch(/DeprecationWarning|cron is disabled/);
  // the order of the stop: api and worker (their last words included), then the database
  const lines = log.split("\n");
  const at = (message: string) => lineOf(lines, `"message":"${message}"`);
  const lastFromProcesses = lines.findLastIndex((line) => /"service":"(api|worker)"/.test(line));
  const workerLastWords = at("worker stopping; running jobs finish first");
  const processesDone = [workerLastWords, at("api stopped"), at("worker stopped")];
  for (const before of [...processesDone, lastFromProcesses]) {
    expect(before).toBeGreaterThan(-1);
    expect(before).toBeLessThan(at("stopping the database"));
  }
  expect(at("stopping the database")).toBeLessThan(at("database stopped"));
  expect(at("database stopped")).toBeLessThan(at("stopped"));
  // the database was really stopped: its lock file is gone
  const cluster = JSON.parse(log.split("\n").find((l) => l.includes("embedded PostgreSQL is running"))!).message
    .replace(/^.*data in /, "");
  await expect(Deno.stat(`${cluster}/data/postmaster.pid`)).rejects.toThrow();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}, 120_000);

test("npm run demo refuses a public PUBLIC_URL before anything starts, and says why", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "pressa-demo-refused-" });
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/start.ts"],
    cwd: root,
    env: { PRESSA_SANDBOX: "1", PUBLIC_URL: "https://pressa.example.com", SMTP_URL: smtp.url, DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  expect(result.code).toBe(2);
  const log = new TextDecoder().decode(result.stderr);
  const refusal = errorLines(log).map((line) => JSON.parse(line).message);
  expect(refusal).toEqual([expect.stringMatching(/^npm start refuses to start: the Telegram sandbox is on .* PUBLIC_URL \(https:\/\/pressa\.example\.com\) is public/)]);
  // no database, no Telegram, no process came up
  expect(log).not.toContain("embedded PostgreSQL");
  expect(log).not.toContain("Telegram sandbox:");
  expect([...Deno.readDirSync(dataDir)]).toEqual([]);
  await Deno.remove(dataDir, { recursive: true });
}, 30_000);
