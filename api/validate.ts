/*
 * Request validation with the shared valibot schemas. A failure answers 400 with the
 * first issue's message (the same text the SPA shows under the field).
 */
import { vValidator } from "@hono/valibot-validator";
import * as v from "valibot";
import type { GenericSchema } from "valibot";
import { ApiError } from "../core/errors.ts";

/** valibot's object() also takes arrays; a JSON body must be an object. */
const JsonObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === "object" && input !== null && !Array.isArray(input),
  "The request body must be a JSON object",
);

export function body<T extends GenericSchema>(schema: T) {
  // the pipe keeps `schema`'s output type; the cast only restores it for Hono's inference
  return vValidator("json", v.pipe(JsonObject as unknown as GenericSchema, schema) as unknown as T, (result) => {
    if (!result.success) {
      const issue = result.issues[0];
      const path = issue.path?.map((p) => String(p.key)).join(".");
      throw new ApiError(400, "validation", issue.message || `Invalid value${path ? ` for ${path}` : ""}`);
    }
  });
}

/** Route ids are positive integers that fit PostgreSQL's bigint; anything else is 404. */
export function idParam(raw: string | undefined): number {
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw)) throw new ApiError(404, "notFound", "Not found");
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
    throw new ApiError(400, "badRequest", "Malformed JSON in request body");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(400, "validation", "The request body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}
