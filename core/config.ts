/*
 * Configuration, read once from the environment (names as in DESIGN.md). Every process
 * (api, worker, bot) reads the same object so defaults live in one place.
 */
export type Config = {
  port: number;
  /** What the API, the worker and the bot connect with: the app role (README "Least privilege"). */
  databaseUrl: string | undefined;
  /** What the migrations connect with, as the database's owner; DATABASE_URL when unset (one role). */
  databaseOwnerUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  telegramBotToken: string | undefined;
  telegramApiRoot: string;
  openai: { apiKey: string | undefined; baseUrl: string | undefined; model: string | undefined };
  adminEmails: Set<string>;
  gcsBucket: string | undefined;
  /** Take the client IP from X-Forwarded-For (behind a reverse proxy); else the socket address. */
  trustProxy: boolean;
  /** Per-account and per-client limits (README "Limits"). */
  limits: Limits;
};

export type Limits = {
  aiCallsPerMinute: number;
  aiDailyTokens: number;
  signInRequestsPerIp: number;
  signInChecksPerIp: number;
  projectsPerAccount: number;
  draftsPerProject: number;
  uploadBytesPerAccount: number;
  bugReportsPerDay: number;
};

/** Each limit, its environment variable and its default (README "Limits" lists the same). */
export const LIMIT_VARIABLES: Record<keyof Limits, { variable: string; fallback: number }> = {
  aiCallsPerMinute: { variable: "AI_CALLS_PER_MINUTE", fallback: 20 },
  aiDailyTokens: { variable: "AI_DAILY_TOKENS", fallback: 300_000 },
  signInRequestsPerIp: { variable: "SIGN_IN_REQUESTS_PER_IP", fallback: 60 },
  signInChecksPerIp: { variable: "SIGN_IN_CHECKS_PER_IP", fallback: 120 },
  projectsPerAccount: { variable: "PROJECTS_PER_ACCOUNT", fallback: 50 },
  draftsPerProject: { variable: "DRAFTS_PER_PROJECT", fallback: 5_000 },
  uploadBytesPerAccount: { variable: "UPLOAD_BYTES_PER_ACCOUNT", fallback: 1024 ** 3 },
  bugReportsPerDay: { variable: "BUG_REPORTS_PER_DAY", fallback: 20 },
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

export function readConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const blank = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);
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
    openai: {
      apiKey: blank(env.OPENAI_API_KEY),
      baseUrl: blank(env.OPENAI_BASE_URL),
      model: blank(env.OPENAI_MODEL),
    },
    adminEmails: new Set(
      (env.ADMIN_EMAILS ?? "").split(",").map((e) => e.trim().toLowerCase()).filter((e) => e !== ""),
    ),
    gcsBucket: blank(env.GCS_BUCKET),
    trustProxy: /^(1|true|yes|on)$/i.test(env.TRUST_PROXY?.trim() ?? ""),
    limits: readLimits(env),
  };
}
