/*
 * Configuration, read once from the environment (names as in docs/operating.md "Configuration"). Every process
 * (api, worker, bot) reads the same object so defaults live in one place.
 */
import { type Cidr, parseCidr } from "./ip.ts";

export type Config = {
  port: number;
  /** What the API, the worker and the bot connect with: the app role (docs/trust-model.md "Least privilege"). */
  databaseUrl: string | undefined;
  /** What the migrations connect with, as the database's owner; DATABASE_URL when unset (one role). */
  databaseOwnerUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  telegramBotToken: string | undefined;
  telegramApiRoot: string;
  /**
   * TELEGRAM_WEBHOOK_SECRET: Telegram pushes updates to the API (POST /api/telegram/webhook)
   * with this secret in a header, and no polling bot runs; undefined: long polling.
   */
  telegramWebhookSecret: string | undefined;
  openai: { apiKey: string | undefined; baseUrl: string | undefined; model: string | undefined };
  adminEmails: Set<string>;
  gcsBucket: string | undefined;
  /**
   * The reverse proxies whose X-Forwarded-For is believed (TRUST_PROXY); none: the client IP
   * is the socket's peer (api/client_ip.ts).
   */
  trustedProxies: Cidr[];
  /** GET /metrics answers only with `Authorization: Bearer <this>`; unset: /metrics is 404. */
  metricsToken: string | undefined;
  /** The API's statement_timeout in ms (0: none); a query past it answers 503 server.busy. */
  apiStatementTimeoutMs: number;
  /** PRESSA_PROCESSES: what `npm start` runs on this instance (default all three). */
  processes: ReadonlySet<ProcessRole>;
  /** Per-account and per-client limits (docs/limits.md). */
  limits: Limits;
  /**
   * WEBHOOKS_ALLOW_PRIVATE=true: webhooks may target http:// and private or loopback
   * addresses, for development and tests only (docs/api.md "Webhooks").
   */
  webhooksAllowPrivate: boolean;
  /**
   * PRESSA_SANDBOX_URL: the Telegram sandbox's control server, set by `npm run demo`
   * (docs/sandbox.md) for the processes it starts; unset: no sandbox, /api/sandbox is 404.
   */
  sandboxUrl: string | undefined;
};

export const PROCESS_ROLES = ["api", "worker", "bot"] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/**
 * A comma list of api, worker and bot. A name we do not know stops the start: an instance
 * meant to run only the worker must not come up running nothing (or everything) because
 * of a typo.
 */
function readProcesses(raw: string | undefined): ReadonlySet<ProcessRole> {
  if (raw === undefined || raw.trim() === "") return new Set(PROCESS_ROLES);
  const names = raw.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== "");
  const unknown = names.filter((name) => !(PROCESS_ROLES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`PRESSA_PROCESSES must be a comma list of ${PROCESS_ROLES.join(", ")}; got ${JSON.stringify(raw)}`);
  }
  return new Set(names as ProcessRole[]);
}

export type Limits = {
  aiCallsPerMinute: number;
  aiDailyTokens: number;
  aiDailyTokensTotal: number;
  signInRequestsPerIp: number;
  signInChecksPerIp: number;
  projectsPerAccount: number;
  draftsPerProject: number;
  uploadBytesPerAccount: number;
  bugReportsPerDay: number;
  inviteLinksPerProject: number;
  membersPerProject: number;
  invitationsPerDay: number;
  apiTokensPerAccount: number;
  apiTokenRequestsPerMinute: number;
  webhooksPerProject: number;
};

/** Each limit, its environment variable and its default (docs/limits.md lists the same). */
export const LIMIT_VARIABLES: Record<keyof Limits, { variable: string; fallback: number }> = {
  aiCallsPerMinute: { variable: "AI_CALLS_PER_MINUTE", fallback: 20 },
  aiDailyTokens: { variable: "AI_DAILY_TOKENS", fallback: 300_000 },
  // every account together: ~16 accounts' whole days, a few dollars at gpt-4o-mini's prices,
  // so a farm of free sign-ups costs the operator a bounded amount a day (docs/limits.md)
  aiDailyTokensTotal: { variable: "AI_DAILY_TOKENS_TOTAL", fallback: 5_000_000 },
  signInRequestsPerIp: { variable: "SIGN_IN_REQUESTS_PER_IP", fallback: 60 },
  signInChecksPerIp: { variable: "SIGN_IN_CHECKS_PER_IP", fallback: 120 },
  projectsPerAccount: { variable: "PROJECTS_PER_ACCOUNT", fallback: 50 },
  draftsPerProject: { variable: "DRAFTS_PER_PROJECT", fallback: 5_000 },
  uploadBytesPerAccount: { variable: "UPLOAD_BYTES_PER_ACCOUNT", fallback: 1024 ** 3 },
  bugReportsPerDay: { variable: "BUG_REPORTS_PER_DAY", fallback: 20 },
  // revoked links count too: each link costs two Telegram calls at most (docs/limits.md)
  inviteLinksPerProject: { variable: "INVITE_LINKS_PER_PROJECT", fallback: 50 },
  // an editorial team or an agency's people on one client's channel, with room to spare
  membersPerProject: { variable: "MEMBERS_PER_PROJECT", fallback: 25 },
  // each invitation is a mail to an address its owner may not know: bounded like sign-in mail
  invitationsPerDay: { variable: "INVITATIONS_PER_DAY", fallback: 30 },
  apiTokensPerAccount: { variable: "API_TOKENS_PER_ACCOUNT", fallback: 20 },
  // a script or an agent polling once a second, with room for bursts; the SPA has no token
  apiTokenRequestsPerMinute: { variable: "API_TOKEN_REQUESTS_PER_MINUTE", fallback: 120 },
  webhooksPerProject: { variable: "WEBHOOKS_PER_PROJECT", fallback: 10 },
};

function readLimits(env: Record<string, string | undefined>): Limits {
  const limits = {} as Limits;
  for (const [key, { variable, fallback }] of Object.entries(LIMIT_VARIABLES) as [keyof Limits, { variable: string; fallback: number }][]) {
    const raw = env[variable]?.trim();
    const value = raw ? Number(raw) : fallback;
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${variable} must be a whole number of at least 1, got ${raw}`);
    limits[key] = value;
  }
  return limits;
}

/** The loopback ranges, for a proxy on the same host (TRUST_PROXY=loopback). */
const LOOPBACK = ["127.0.0.0/8", "::1/128"];

/**
 * TRUST_PROXY: a comma list of the trusted proxies' CIDRs (or single addresses), IPv4 and
 * IPv6, and `loopback`. Empty, `0`, `false`, `no`, `off`: none. The old yes-values (`1`,
 * `true`, …) believed any peer, so whoever reached the port could pick their IP: they stop
 * the start with a message, as does any entry that is not an address or range.
 */
export function readTrustedProxies(raw: string | undefined): Cidr[] {
  const text = raw?.trim() ?? "";
  if (/^(|0|false|no|off)$/i.test(text)) return [];
  if (/^(1|true|yes|on)$/i.test(text)) {
    throw new Error(
      `TRUST_PROXY=${text} would believe X-Forwarded-For from anyone who reaches the port; set it to the CIDRs of ` +
        "your reverse proxies instead, e.g. TRUST_PROXY=172.30.0.0/24 or TRUST_PROXY=loopback",
    );
  }
  return text.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "").flatMap((entry) => {
    const ranges = entry.toLowerCase() === "loopback" ? LOOPBACK : [entry];
    return ranges.map((range) => {
      const cidr = parseCidr(range);
      if (!cidr) throw new Error(`TRUST_PROXY: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, fd00::/8, loopback)`);
      return cidr;
    });
  });
}

/** What Telegram accepts as a webhook's secret_token (setWebhook). */
const WEBHOOK_SECRET = /^[A-Za-z0-9_-]{1,256}$/;

function readWebhookSecret(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!WEBHOOK_SECRET.test(raw)) {
    // the secret itself is never echoed: the message goes to logs
    const what = raw.length > 256 ? `is ${raw.length} characters long` : "has a character Telegram refuses";
    throw new Error(
      `TELEGRAM_WEBHOOK_SECRET ${what}: it must be 1–256 characters of A-Z, a-z, 0-9, _ and -, ` +
        "e.g. TELEGRAM_WEBHOOK_SECRET=$(openssl rand -hex 32)",
    );
  }
  return raw;
}

function readTimeoutMs(raw: string | undefined): number {
  const value = raw?.trim() ? Number(raw.trim()) : 5_000;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`API_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds (0: none), got ${raw}`);
  return value;
}

/** PRESSA_SANDBOX=1 (`npm run demo`): `npm start` runs the Telegram sandbox (docs/sandbox.md). */
export function sandboxRequested(env: Record<string, string | undefined> = Deno.env.toObject()): boolean {
  return /^(1|true|yes|on)$/i.test(env.PRESSA_SANDBOX?.trim() ?? "");
}

export function readConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const blank = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);
  // a blank PORT (PORT= in an env file) is unset, as for every other variable: not port 0
  const port = Number(blank(env.PORT) ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    databaseUrl: blank(env.DATABASE_URL),
    databaseOwnerUrl: blank(env.DATABASE_OWNER_URL),
    dataDir: blank(env.DATA_DIR) ?? ".data",
    publicUrl: (blank(env.PUBLIC_URL) ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    smtpUrl: blank(env.SMTP_URL),
    mailFrom: blank(env.MAIL_FROM) ?? "Pressa <no-reply@localhost>",
    telegramBotToken: blank(env.TELEGRAM_BOT_TOKEN),
    telegramApiRoot: (blank(env.TELEGRAM_API_ROOT) ?? "https://api.telegram.org").replace(/\/+$/, ""),
    telegramWebhookSecret: readWebhookSecret(env.TELEGRAM_WEBHOOK_SECRET),
    openai: {
      apiKey: blank(env.OPENAI_API_KEY),
      baseUrl: blank(env.OPENAI_BASE_URL),
      model: blank(env.OPENAI_MODEL),
    },
    adminEmails: new Set(
      (env.ADMIN_EMAILS ?? "").split(",").map((e) => e.trim().toLowerCase()).filter((e) => e !== ""),
    ),
    gcsBucket: blank(env.GCS_BUCKET),
    trustedProxies: readTrustedProxies(env.TRUST_PROXY),
    apiStatementTimeoutMs: readTimeoutMs(env.API_STATEMENT_TIMEOUT_MS),
    metricsToken: blank(env.METRICS_TOKEN),
    processes: readProcesses(env.PRESSA_PROCESSES),
    limits: readLimits(env),
    webhooksAllowPrivate: blank(env.WEBHOOKS_ALLOW_PRIVATE) === "true",
    sandboxUrl: blank(env.PRESSA_SANDBOX_URL)?.replace(/\/+$/, ""),
  };
}
