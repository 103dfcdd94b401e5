/*
 * Structured JSON logs, one line each, on stderr (stdout stays free for tools). Lines are
 * buffered and written together every 50 ms — a write per request line cost ~10% of the
 * API's time under load (bench:api) — while warnings and errors flush at once, as does
 * process exit.
 */
import { withoutBotToken } from "./secrets.ts";

export type Log = (level: "debug" | "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;

const FLUSH_MS = 50;
const encoder = new TextEncoder();
let pending = "";
let timer: ReturnType<typeof setTimeout> | undefined;

function flush() {
  if (timer !== undefined) {
    clearTimeout(timer);
    timer = undefined;
  }
  if (pending === "") return;
  const bytes = encoder.encode(pending);
  pending = "";
  let written = 0;
  while (written < bytes.length) written += Deno.stderr.writeSync(bytes.subarray(written));
}
globalThis.addEventListener("unload", flush);

/** Errors go out as name, message and stack. */
const serialize = (_key: string, value: unknown) =>
  value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;

export function jsonLog(service: string): Log {
  return (level, message, fields = {}) => {
    // The whole line goes through withoutBotToken — message, fields and errors alike: a
    // network error, a URL or a message may quote the bot's token (JSON leaves its
    // characters as they are, so the serialized line still shows it whole).
    pending += withoutBotToken(JSON.stringify({ time: new Date().toISOString(), level, service, message, ...fields }, serialize)) + "\n";
    if (level === "warn" || level === "error" || pending.length > 64 * 1024) flush();
    else timer ??= setTimeout(flush, FLUSH_MS);
  };
}

export const silentLog: Log = () => {};
