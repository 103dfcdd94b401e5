/*
 * The product as tests use it: a fresh database, the real app, the real worker, and a
 * real SMTP server receiving the mail. `serve: true` also listens on a random port
 * (browser tests); otherwise tests call app.request directly.
 * The app, the worker and the bot connect as the app role, which owns nothing (docs/trust-model.md "Least privilege"); `sql` is the test's own hand on the database, as the owner (psql).
 */
import { createApp } from "../../api/app.ts";
import { type Config, readConfig } from "../../core/config.ts";
import { API_CONNECT_TIMEOUT_SECONDS, connect } from "../../core/db.ts";
import { type Log, silentLog } from "../../core/log.ts";
import { localDiskStorage } from "../../core/storage.ts";
import { createAi } from "../../core/ai/client.ts";
import { createTelegramApi } from "../../core/telegram/client.ts";
import { telegramCallCounts } from "../../core/telegram/call_counts.ts";
import { createBot } from "../../bot/bot.ts";
import { pollUpdates, updateInbox } from "../../bot/inbox.ts";
import type { Update } from "grammy/types";
import { BOT_ALLOWED_UPDATES, keepWebhook } from "../../core/telegram/webhook.ts";
import { startWorker } from "../../tasks/worker.ts";
import { type OpenAiServer, startOpenAiServer } from "../doubles/openai/server.ts";
import { startTelegramServer, type TelegramServer } from "../../sandbox/telegram/server.ts";
import { type Sandbox, startSandbox } from "../../sandbox/sandbox.ts";
import { answerOf } from "./answer.ts";
import { asAppRole, freshDatabase } from "./db.ts";
import { codeFrom, startSmtpSink } from "./smtp.ts";

export type Stack = Awaited<ReturnType<typeof startStack>>;

export type StackOptions = {
  /** Listen on a random port too (browser tests). */
  serve?: boolean;
  env?: Record<string, string>;
  webDist?: string;
  /** Start the local Bot API server and configure the bot token for it. */
  telegram?: boolean;
  /** Also run the real bot (grammY runner, long polling) in-process; implies telegram. */
  bot?: boolean;
  /**
   * The Telegram sandbox as `npm run demo` runs it (implies telegram): the local Bot API
   * server with its simulated channel and admin, and /api/sandbox (PRESSA_SANDBOX_URL).
   */
  sandbox?: boolean;
  /** Run the job worker in-process (default); false when a test runs worker processes itself. */
  worker?: boolean;
  /** Start the local OpenAI-compatible server and configure OPENAI_* for it. */
  openai?: boolean;
  /**
   * Webhook mode (implies telegram and serve): TELEGRAM_WEBHOOK_SECRET is set, the app
   * handles POST /api/telegram/webhook with the real bot, and the webhook is registered
   * with the local Bot API server at PUBLIC_URL (default this app's http://127.0.0.1:port).
   */
  webhook?: boolean;
  /**
   * A database of the test's own (e.g. on a PostgreSQL server it stops and starts), already
   * migrated: its owner's URL and the app role's; default a fresh copy of the run's template.
   */
  database?: { ownerUrl: string; appUrl: string };
};

/** A random secret as Telegram accepts it. */
export const webhookSecret = () => crypto.randomUUID().replaceAll("-", "_");

export async function startStack(options: StackOptions = {}) {
  const databaseUrl = options.database?.ownerUrl ?? await freshDatabase();
  const appDatabaseUrl = options.database?.appUrl ?? asAppRole(databaseUrl);
  const sandbox: Sandbox | undefined = options.sandbox ? await startSandbox() : undefined;
  const telegram: TelegramServer | undefined = sandbox?.telegram ??
    (options.telegram || options.bot || options.webhook ? await startTelegramServer() : undefined);
  const openai: OpenAiServer | undefined = options.openai ? await startOpenAiServer() : undefined;
  const smtp = await startSmtpSink();
  const serve = options.serve || options.webhook;
  const server = serve ? Deno.listen({ hostname: "127.0.0.1", port: 0 }) : undefined;
  const port = server ? (server.addr as Deno.NetAddr).port : 8000;
  server?.close();
  const stackEnv: Record<string, string> = {
    PORT: String(port),
    DATABASE_URL: appDatabaseUrl,
    DATABASE_OWNER_URL: databaseUrl,
    SMTP_URL: smtp.url,
    ...(telegram ? { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot } : {}),
    ...(sandbox ? { PRESSA_SANDBOX_URL: sandbox.controlUrl } : {}),
    ...(options.webhook ? { TELEGRAM_WEBHOOK_SECRET: webhookSecret(), PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...(openai ? { OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseURL, OPENAI_MODEL: openai.model } : {}),
    ...options.env,
  };
  const config: Config = readConfig(stackEnv);
  // every statement the app sends, so a test can count what one request costs
  const queries: string[] = [];
  // the app as it runs: the app role, with the API's statement timeout; `sql` is the owner, as psql
  const appSql = connect(appDatabaseUrl, { max: 5, onQuery: (text) => queries.push(text), statementTimeoutMs: config.apiStatementTimeoutMs, connectTimeoutSeconds: API_CONNECT_TIMEOUT_SECONDS });
  const sql = connect(databaseUrl, { max: 3 });
  // DATA_DIR of a worker process (spawnWorkerProcess) shares these uploads
  const dataDir = await Deno.makeTempDir({ prefix: "pressa-data-" });
  const uploadsDir = `${dataDir}/uploads`;
  await Deno.mkdir(uploadsDir);
  const storage = localDiskStorage(uploadsDir);
  // Telegram calls counted as the product's processes count them (GET /metrics), in short
  // batches, on a connection of their own (not among the statements `queries` counts)
  const countsSql = telegram ? connect(appDatabaseUrl, { max: 1 }) : undefined;
  const telegramCalls = countsSql ? telegramCallCounts(countsSql, { intervalMs: 200 }) : undefined;
  const telegramApi = createTelegramApi(config.telegramBotToken, config.telegramApiRoot, { maxRetryWaitMs: 5_000, calls: telegramCalls });
  const ai = createAi(config.openai);
  // what the API answered, from its request log lines (a browser hides a 304 behind its cache)
  const answered: { method: string; path: string; status: number }[] = [];
  const apiLog: Log = (_level, message, fields) => {
    if (message === "request" && fields) answered.push({ method: String(fields.method), path: String(fields.path), status: Number(fields.status) });
  };
  /** In webhook mode, an API instance's bot and its registration of the webhook (as main/api.ts does). */
  function webhookParts(instanceSql: typeof sql, instanceConfig: Config) {
    if (!telegram || !telegramApi || !instanceConfig.telegramWebhookSecret) return {};
    const secret = instanceConfig.telegramWebhookSecret;
    const bot = createBot(telegram.token, { sql: instanceSql, log: silentLog, apiRoot: telegram.apiRoot });
    const keeper = keepWebhook({ sql: instanceSql, api: telegramApi, token: telegram.token, publicUrl: instanceConfig.publicUrl, secret, log: silentLog });
    // as main/api.ts: each update stored before Telegram's 200, handled by the inbox's drains
    const inbox = updateInbox(bot, instanceSql, silentLog, `test-api:${crypto.randomUUID()}`);
    const ready = bot.init().then(() => inbox.start());
    return { telegramWebhook: { secret, receive: (update: Update) => ready.then(() => inbox.receive([update])) }, keeper, inbox, ready };
  }
  const { telegramWebhook, keeper, inbox: webhookInbox, ready: webhookReady } = webhookParts(appSql, config);
  await keeper?.ready;
  await webhookReady;
  const app = createApp({ sql: appSql, config, log: apiLog, storage, telegram: telegramApi, telegramWebhook, ai, webDist: options.webDist });
  const worker = options.worker === false ? undefined : await startWorker(appDatabaseUrl, config, silentLog, { storage, telegram: telegramApi, ai });
  const bot = options.bot && telegram ? createBot(telegram.token, { sql: appSql, log: silentLog, apiRoot: telegram.apiRoot, calls: telegramCalls }) : undefined;
  // asks for the updates main/bot.ts asks for (Telegram sends chat_member and reaction counts only then)
  const botInbox = bot ? updateInbox(bot, appSql, silentLog, `test-bot:${crypto.randomUUID()}`) : undefined;
  if (bot) await bot.init();
  botInbox?.start();
  const botRunner = bot && botInbox ? pollUpdates(bot, botInbox, silentLog, BOT_ALLOWED_UPDATES) : undefined;
  const http = serve ? Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, app.fetch) : undefined;

  /** Calls the API like the SPA does; `cookie` is a session cookie from signIn; `extra` headers as an API client sends them (Idempotency-Key, If-Match). */
  async function call(method: string, path: string, body?: unknown, cookie?: string, extra: Record<string, string> = {}) {
    const headers: Record<string, string> = { ...extra };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (cookie) headers.cookie = cookie;
    const res = await app.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return await answerOf(res);
  }

  /** Signs in through the API with the code from the delivered mail; answers the cookie. */
  async function signIn(email: string) {
    const before = smtp.mailsTo(email).length;
    const requested = await call("POST", "/api/auth/request-otp", { email });
    if (requested.status !== 200) throw new Error(`request-otp ${requested.status}: ${requested.text}`);
    const mail = await smtp.waitForMail(email, before + 1);
    const verified = await call("POST", "/api/auth/verify-otp", { email, code: codeFrom(mail) });
    if (verified.status !== 200) throw new Error(`verify-otp ${verified.status}: ${verified.text}`);
    const cookie = verified.headers.get("set-cookie")!.split(";")[0];
    return { cookie, user: verified.json as { id: number; email: string; isAdmin: boolean } };
  }

  /**
   * One of the product's real processes (main/worker.ts the worker, main/api.ts the API on
   * `env.PORT`, main/bot.ts the polling bot) on this stack's database and doubles. `log`:
   * keep its log lines (stderr), for a test to read what happened inside it.
   */
  function spawnProcess(entry: "main/worker.ts" | "main/api.ts" | "main/bot.ts", options: { env?: Record<string, string>; log?: boolean } = {}) {
    const env: Record<string, string> = { DATABASE_URL: appDatabaseUrl, SMTP_URL: smtp.url, DATA_DIR: dataDir };
    if (telegram) Object.assign(env, { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.apiRoot });
    if (openai) Object.assign(env, { OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseURL, OPENAI_MODEL: openai.model });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", entry],
      cwd: new URL("../..", import.meta.url).pathname,
      env: { ...env, ...options.env },
      stdin: "null",
      stdout: "null",
      stderr: options.log ? "piped" : "null",
    }).spawn();
    let output = "";
    if (options.log) {
      (async () => {
        for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) output += text;
      })().catch(() => {});
    }
    /** What it logged so far (with `log`). */
    return Object.assign(child, { output: () => output });
  }
  /** The real worker process (main/worker.ts) on this stack's database and doubles. */
  const spawnWorkerProcess = () => spawnProcess("main/worker.ts");

  /**
   * Another API instance on this stack's database (its own pool, app and bot; the same
   * PUBLIC_URL), served on a random port; `env` overrides settings (e.g. another secret).
   */
  async function startApiInstance(env: Record<string, string> = {}) {
    const instanceConfig = readConfig({ ...stackEnv, ...env });
    const instanceSql = connect(appDatabaseUrl, {
      max: 3,
      statementTimeoutMs: instanceConfig.apiStatementTimeoutMs,
      connectTimeoutSeconds: API_CONNECT_TIMEOUT_SECONDS,
    });
    const parts = webhookParts(instanceSql, instanceConfig);
    await parts.keeper?.ready;
    await parts.ready;
    const instanceApp = createApp({ sql: instanceSql, config: instanceConfig, log: silentLog, storage, telegram: telegramApi, telegramWebhook: parts.telegramWebhook, ai });
    const instanceHttp = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, instanceApp.fetch);
    return {
      baseUrl: `http://127.0.0.1:${instanceHttp.addr.port}`,
      async close() {
        parts.keeper?.stop();
        await instanceHttp.shutdown();
        await parts.inbox?.stop();
        await instanceSql.end({ timeout: 5 });
      },
    };
  }

  return {
    app,
    sql,
    startApiInstance,
    queries,
    answered,
    spawnWorkerProcess,
    spawnProcess,
    smtp,
    config,
    databaseUrl,
    baseUrl: `http://127.0.0.1:${port}`,
    storage,
    uploadsDir,
    telegram,
    sandbox,
    /** Whether the real bot polls the Bot API double (otherwise nothing handles its updates). */
    botRunning: botRunner !== undefined,
    openai,
    call,
    signIn,
    async close() {
      keeper?.stop();
      await http?.shutdown();
      if (botRunner?.isRunning()) await botRunner.stop();
      await botInbox?.stop();
      await webhookInbox?.stop();
      await bot?.statisticsWritten();
      await worker?.stop();
      await telegramCalls?.stop();
      await countsSql?.end({ timeout: 5 });
      await appSql.end({ timeout: 5 });
      await sql.end({ timeout: 5 });
      await smtp.close();
      await (sandbox ?? telegram)?.close();
      await openai?.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

let counter = 0;
/** A unique address per test so tests never share sign-in limits. */
export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}@example.com`;
}
