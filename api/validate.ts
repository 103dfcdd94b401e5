/*
 * Request validation with the shared valibot schemas. A failure answers 400 with the
 * first issue's message (the same text the SPA shows under the field).
 */
import { vValidator } from "@hono/valibot-validator";
import type { GenericSchema } from "valibot";
import { ApiError } from "./errors.ts";

export function body<T extends GenericSchema>(schema: T) {
  return vValidator("json", schema, (result) => {
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
