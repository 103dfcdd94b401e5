/*
 * Request validation with the shared valibot schemas. A schema's messages are codes of the
 * catalogue (contract/error_codes.ts), the same the SPA shows under the field in its
 * language: a failure answers 400 with the first issue's code and the code's English message.
 */
import { vValidator } from "@hono/valibot-validator";
import type { Env, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { BaseIssue, GenericSchema } from "valibot";
import { type ErrorCode, isErrorCode } from "../contract/error_codes.ts";
import { CONTROL_CHARACTER, holdsControlCharacter } from "../contract/text.ts";
import { isoInstant, YEAR_OUT_OF_RANGE } from "../contract/time.ts";
import { STATS_DEFAULT_DAYS, STATS_RANGE_MAX_DAYS } from "../contract/stats.ts";
import { ApiError } from "../core/errors.ts";

/**
 * valibot's object() also takes arrays; a JSON body must be an object. Its texts hold no
 * control character (contract/text.ts), whatever route reads them.
 */
const JsonObject = v.pipe(
  v.custom<Record<string, unknown>>(
    (input) => typeof input === "object" && input !== null && !Array.isArray(input),
    "request.notJsonObject",
  ),
  v.check((input) => !holdsControlCharacter(input), CONTROL_CHARACTER),
);

/** A schema's refusal: its code, or valibot's own words where the schema names none. */
export function issueError(issue: BaseIssue<unknown>): ApiError {
  if (isErrorCode(issue.message)) return new ApiError(issue.message);
  const path = issue.path?.map((p) => String(p.key)).join(".");
  return new ApiError("validation", { message: issue.message || `Invalid value${path ? ` for ${path}` : ""}` });
}

/**
 * A query's refusal: the route's one code for a malformed query, except a time whose year is
 * out of range, refused with the same code on every route (contract/time.ts).
 */
export function queryError(issues: readonly BaseIssue<unknown>[] | undefined, code: ErrorCode): ApiError {
  return issues?.[0]?.message === YEAR_OUT_OF_RANGE ? issueError(issues[0]) : new ApiError(code);
}

/** A time given in the query (contract/time.ts), as the API prints times; refused with `code`. */
export function queryInstant(text: string | undefined, code: ErrorCode): string {
  const parsed = v.safeParse(isoInstant(code), text);
  if (!parsed.success) throw queryError(parsed.issues, code);
  return parsed.output;
}

const DAY_MS = 86_400_000;

/**
 * The period of the Statistics page and of the ad report, one rule for both: `from`/`to` as
 * given (each optional: to defaults to now, from to STATS_DEFAULT_DAYS before to), from before
 * to, at most STATS_RANGE_MAX_DAYS apart; refused with the stats.range* codes.
 */
export function statsRange(query: Record<string, string>): { from: string; to: string } {
  const parse = (text: string | undefined, fallback: number) =>
    text === undefined ? fallback : Date.parse(queryInstant(text, "stats.rangeNotIso"));
  const end = parse(query.to, Date.now());
  const start = parse(query.from, end - STATS_DEFAULT_DAYS * DAY_MS);
  if (end <= start) throw new ApiError("stats.rangeReversed");
  if (end - start > STATS_RANGE_MAX_DAYS * DAY_MS) throw new ApiError("stats.rangeTooLong");
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}

/**
 * What a route's body is checked with, kept on its validator for the OpenAPI document
 * (api/openapi.ts): the document describes exactly what the route checks.
 */
export const REQUEST_BODY = Symbol("request body");
export type RequestBody = { schema: GenericSchema; required: boolean };

export function body<T extends GenericSchema>(schema: T) {
  // the pipe keeps `schema`'s output type; the cast only restores it for Hono's inference
  const validator = vValidator("json", v.pipe(JsonObject as unknown as GenericSchema, schema) as unknown as T, (result) => {
    if (!result.success) throw issueError(result.issues[0]);
  });
  return Object.assign(validator, { [REQUEST_BODY]: { schema, required: true } satisfies RequestBody });
}

/** A body a route accepts and ignores (the spec's client sends none): nothing, or any JSON object. */
export const IgnoredBody = v.pipe(v.looseObject({}), v.description("Optional and ignored: no body, or any JSON object"));

/**
 * The body of a call whose body is optional (optionalJsonObject: nothing reads as {}),
 * checked with `schema` and then read as `c.req.valid("json")`, like body()'s.
 */
export function optionalBody<T extends GenericSchema>(schema: T) {
  const validator: MiddlewareHandler<Env, string, { in: { json: v.InferInput<T> }; out: { json: v.InferOutput<T> } }> = async (c, next) => {
    const parsed = v.safeParse(schema, await optionalJsonObject(c.req));
    if (!parsed.success) throw issueError(parsed.issues[0]);
    c.req.addValidatedData("json", parsed.output as object);
    await next();
  };
  return Object.assign(validator, { [REQUEST_BODY]: { schema, required: false } satisfies RequestBody });
}

/** Route ids are positive integers that fit PostgreSQL's bigint; anything else is 404. */
export function idParam(raw: string | undefined): number {
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw)) throw new ApiError("notFound");
  return Number(raw);
}

/**
 * For calls whose body is optional (the spec's client sends none): an empty body is {},
 * anything else must be a JSON object, else 400 — bad input never passes silently.
 */
export async function optionalJsonObject(req: { text(): Promise<string> }): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("request.malformedJson");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ApiError("request.notJsonObject");
  }
  if (holdsControlCharacter(parsed)) throw new ApiError(CONTROL_CHARACTER);
  return parsed as Record<string, unknown>;
}
