/*
 * The one place where failures become HTTP answers. Every non-OK answer is JSON
 * { message, code } (core/errors.ts turns a failure into an ApiError).
 */
import type { Context } from "hono";
import { ApiError, causeOf, toApiError } from "../core/errors.ts";
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
      return answer(c, known);
    }
    log("error", "unhandled error", { requestId: c.get("requestId"), path: c.req.path, error: err });
    return answer(c, new ApiError("internal"));
  };
}

/** The one shape of every non-OK answer. */
export const answer = (c: Context, err: ApiError, headers?: Record<string, string>) =>
  c.json({ message: err.message, code: err.code, ...err.extra }, err.status, headers);

export const notFound = (c: Context) => answer(c, new ApiError("notFound"));
