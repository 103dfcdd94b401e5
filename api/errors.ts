/*
 * The one place where failures become HTTP answers. Every non-OK answer is JSON
 * { message, code } (core/errors.ts turns a failure into an ApiError).
 */
import type { Context } from "hono";
import { type ApiError, causeOf, toApiError } from "../core/errors.ts";
import type { Log } from "../core/log.ts";

/** Logs a server-side failure's cause (the client gets only the message), with the request's id. */
export function logCause(log: Log, c: Context, err: ApiError) {
  const cause = causeOf(err);
  if (err.status >= 500 && cause) log("warn", err.message, { requestId: c.get("requestId"), path: c.req.path, code: err.code, cause });
}

export function errorHandler(log: Log) {
  return (err: Error, c: Context) => {
    const known = toApiError(err);
    if (known) {
      logCause(log, c, known);
      if (known.retryAfter !== undefined) c.header("Retry-After", String(known.retryAfter));
      return c.json({ message: known.message, code: known.code, ...known.extra }, known.status);
    }
    log("error", "unhandled error", { requestId: c.get("requestId"), path: c.req.path, error: err });
    return c.json({ message: "Something went wrong on our side. Please try again.", code: "internal" }, 500);
  };
}

export const notFound = (c: Context) => c.json({ message: "Not found", code: "notFound" }, 404);
