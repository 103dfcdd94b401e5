/*
 * The one place where failures become HTTP answers. Every non-OK answer is JSON
 * { message, code, params } (core/errors.ts turns a failure into an ApiError); params, the
 * names and numbers this failure put in its message, is left out when it has none.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ERROR_CODES } from "../contract/error_codes.ts";
import { ApiError, causeOf, toApiError } from "../core/errors.ts";
import type { Log } from "../core/log.ts";

/** Logs a server-side failure's cause (the client gets only the message), with the request's id. */
export function logCause(log: Log, c: Context, err: ApiError) {
  const cause = causeOf(err);
  if (err.status >= 500 && cause) log("warn", err.message, { requestId: c.get("requestId"), path: c.req.path, code: err.code, cause });
}

export function errorHandler(log: Log) {
  return (err: Error, c: Context) => {
    const known = fromHono(err) ?? toApiError(err);
    if (known) {
      logCause(log, c, known);
      if (known.retryAfter !== undefined) c.header("Retry-After", String(known.retryAfter));
      return answer(c, known);
    }
    log("error", "unhandled error", { requestId: c.get("requestId"), path: c.req.path, error: err });
    return answer(c, new ApiError("internal"));
  };
}

/** Hono's own refusals (a body over the limit, JSON that does not parse) in the catalogue's words. */
function fromHono(err: Error): ApiError | undefined {
  if (!(err instanceof HTTPException)) return undefined;
  if (err.status === 413) return new ApiError("tooLarge");
  const malformedJson = err.message === ERROR_CODES["request.malformedJson"].message;
  return malformedJson ? new ApiError("request.malformedJson") : new ApiError("badRequest", { message: err.message || undefined });
}

/** The one shape of every non-OK answer. */
export const answer = (c: Context, err: ApiError, headers?: Record<string, string>) =>
  c.json(
    { message: err.message, code: err.code, ...(Object.keys(err.params).length > 0 && { params: err.params }), ...err.extra },
    err.status as ContentfulStatusCode,
    headers,
  );

export const notFound = (c: Context) => answer(c, new ApiError("notFound"));
