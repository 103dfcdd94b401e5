/*
 * Settings a process refuses to start with. Without SMTP_URL the sign-in code is written
 * to the log so a developer can sign in on their own machine; on a server reachable by
 * others that would let whoever reads the log sign in as anyone. So the log is the mail
 * box only while PUBLIC_URL is a loopback address (localhost, 127.0.0.0/8, [::1]).
 */
import type { Config } from "./config.ts";
import { inCidr, parseCidr, parseIp } from "./ip.ts";

/** localhost, 127.0.0.0/8 or [::1] (the URL parser has already turned 127.1 into 127.0.0.1). */
export function isLoopbackUrl(url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname === "localhost" || hostname === "localhost.") return true;
  if (hostname === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The ranges of a machine or network of one's own: loopback, private IPv4 (RFC 1918), unique local IPv6. */
const LOCAL_RANGES = ["127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fc00::/7"]
  .map((range) => parseCidr(range)!);

/** A loopback or private address (localhost, 127.0.0.1, 10.x, 192.168.x, …): nobody on the internet reaches it. */
export function isLocalUrl(url: string): boolean {
  if (isLoopbackUrl(url)) return true;
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (hostname.endsWith(".localhost")) return true;
  const ip = parseIp(hostname);
  return ip !== undefined && LOCAL_RANGES.some((range) => inCidr(ip, range));
}

/**
 * Why the Telegram sandbox (`npm run demo`, docs/sandbox.md) may not run under this
 * PUBLIC_URL, or undefined. Its Telegram is a simulation anyone signed in can drive
 * (press any approver's buttons), so it never runs where others can reach it.
 */
export function sandboxProblem(publicUrl: string): string | undefined {
  if (isLocalUrl(publicUrl)) return undefined;
  return `the Telegram sandbox is on (PRESSA_SANDBOX / npm run demo) but PUBLIC_URL (${publicUrl}) is public: ` +
    "in the sandbox anyone signed in can act as the channel's admin, so it runs only on your own machine or network. " +
    "Unset PRESSA_SANDBOX and set TELEGRAM_BOT_TOKEN for a real bot, or use PUBLIC_URL=http://localhost:8000.";
}

/**
 * Why the sign-in code may not be written to the log under this configuration, or
 * undefined when it may (SMTP_URL is set, or PUBLIC_URL is a loopback address).
 */
export function mailToLogProblem(config: Pick<Config, "publicUrl" | "smtpUrl">): string | undefined {
  if (config.smtpUrl || isLoopbackUrl(config.publicUrl)) return undefined;
  return `SMTP_URL is not set and PUBLIC_URL (${config.publicUrl}) is not a loopback address: ` +
    "sign-in codes would be written to the log, where anyone who reads it could sign in as anyone. " +
    "Set SMTP_URL (e.g. smtps://user:pass@smtp.example.com), or use a loopback PUBLIC_URL such as http://localhost:8000 on your own machine.";
}

/**
 * Why webhook mode cannot work under this configuration, or undefined. Telegram delivers
 * webhooks to https only; http is let through for a loopback PUBLIC_URL, where only a
 * local Bot API server (the tests' double, a self-hosted one) can call it.
 */
export function webhookProblem(config: WebhookSettings): string | undefined {
  if (!config.telegramWebhookSecret) return undefined;
  if (!config.telegramBotToken) return "TELEGRAM_WEBHOOK_SECRET is set but TELEGRAM_BOT_TOKEN is not: there is no bot to receive updates";
  if (config.publicUrl.startsWith("https://") || isLoopbackUrl(config.publicUrl)) return undefined;
  return `TELEGRAM_WEBHOOK_SECRET is set but PUBLIC_URL (${config.publicUrl}) is not https://: Telegram delivers webhooks ` +
    "to https URLs only. Serve the API behind TLS and set PUBLIC_URL=https://…, or unset TELEGRAM_WEBHOOK_SECRET to use long polling.";
}

type WebhookSettings = Pick<Config, "publicUrl"> & Partial<Pick<Config, "telegramWebhookSecret" | "telegramBotToken">>;

/** Every reason this configuration must not start a process (api, worker, bot); empty when it may. */
export function startupProblems(
  config: Pick<Config, "publicUrl" | "smtpUrl"> & Partial<WebhookSettings> & Partial<Pick<Config, "sandboxUrl">>,
): string[] {
  const problems: string[] = [];
  try {
    const url = new URL(config.publicUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      problems.push(`PUBLIC_URL must start with http:// or https://, got ${config.publicUrl}`);
    }
  } catch {
    problems.push(`PUBLIC_URL is not a URL: ${config.publicUrl}`);
  }
  const urlProblem = problems.length > 0;
  const mail = mailToLogProblem(config);
  if (mail) problems.push(mail);
  const webhook = urlProblem ? undefined : webhookProblem(config);
  if (webhook) problems.push(webhook);
  const sandbox = urlProblem || !config.sandboxUrl ? undefined : sandboxProblem(config.publicUrl);
  if (sandbox) problems.push(sandbox);
  return problems;
}

/**
 * Logs each problem as an error line and exits with code 2 when there is any; `process`
 * names the refusing process in the message (npm start restarts it and it says so again).
 */
export function refuseToStartOnProblems(
  config: Parameters<typeof startupProblems>[0],
  log: (level: "error", message: string) => void,
  process: string,
) {
  const problems = startupProblems(config);
  if (problems.length === 0) return;
  for (const problem of problems) log("error", `the ${process} refuses to start: ${problem}`);
  Deno.exit(2);
}

/** The oldest PostgreSQL major supported (docs/operating.md "Supported PostgreSQL versions"). */
export const OLDEST_POSTGRES_MAJOR = 15;

/**
 * Why Pressa must not run on this server, or undefined: `versionNum` is its
 * server_version_num (150004 for 15.4), `version` its server_version as it names itself.
 */
export function unsupportedPostgresProblem(versionNum: number, version: string): string | undefined {
  if (Math.floor(versionNum / 10000) >= OLDEST_POSTGRES_MAJOR) return undefined;
  return `PostgreSQL ${version} is not supported: Pressa needs PostgreSQL ${OLDEST_POSTGRES_MAJOR}, 16, 17 or 18. ` +
    "Upgrade the server (or point DATABASE_URL at a newer one) and start again.";
}
