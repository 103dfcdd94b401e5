// Turning an HTTP request into Bot API parameters, the way api.telegram.org accepts them:
// query string, JSON body, urlencoded form or multipart form. In the two form encodings
// (and the query string) every value is a string, so structured fields such as
// `reply_markup` arrive JSON-serialized and booleans/numbers arrive as text. `Args`
// coerces lazily, per parameter, like the real server does.

import { badRequest } from "./errors.ts";

/** A file sent in a multipart request. */
export interface UploadedFile {
  readonly kind: "upload";
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

export type RawParams = Record<string, unknown>;

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === "object" && value !== null && (value as UploadedFile).kind === "upload";
}

/** Reads all parameters of a request: query string first, body fields override. */
export async function readParams(
  url: URL,
  contentType: string | undefined,
  body: Uint8Array,
): Promise<RawParams> {
  const params: RawParams = Object.fromEntries(url.searchParams);
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (body.length === 0) return params;

  if (type === "application/json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw badRequest("can't parse JSON object");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw badRequest("can't parse JSON object");
    }
    return { ...params, ...parsed };
  }

  if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
    // The fetch Request class already implements both form parsers.
    const form = await new Request("http://local/", {
      method: "POST",
      headers: { "content-type": contentType! },
      body: body as Uint8Array<ArrayBuffer>,
    }).formData();
    const files = new Map<string, UploadedFile>();
    for (const [name, value] of form) {
      if (typeof value === "string") {
        params[name] = value;
      } else {
        files.set(name, {
          kind: "upload",
          filename: value.name,
          contentType: value.type || "application/octet-stream",
          bytes: new Uint8Array(await value.arrayBuffer()),
        });
      }
    }
    return resolveAttachments(params, files);
  }

  return params;
}

/**
 * A multipart upload either puts the file directly under the parameter name
 * (`photo=<file>`) or, as grammY does, sends `photo=attach://<part>` plus a file part
 * named `<part>`. Both end up as `params.photo = UploadedFile`.
 */
function resolveAttachments(params: RawParams, files: Map<string, UploadedFile>): RawParams {
  const referenced = new Set<string>();
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string" && value.startsWith("attach://")) {
      const part = value.slice("attach://".length);
      const file = files.get(part);
      if (file) {
        params[name] = file;
        referenced.add(part);
      }
    }
  }
  for (const [name, file] of files) {
    if (!referenced.has(name)) params[name] = file;
  }
  return params;
}

/** Typed, lenient access to parameters (Telegram coerces "123" and "true" too). */
export class Args {
  constructor(readonly raw: RawParams) {}

  has(name: string): boolean {
    const value = this.raw[name];
    return value !== undefined && value !== null && value !== "";
  }

  string(name: string): string | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    return undefined;
  }

  /** Integers; like the real server, anything unparsable counts as 0. */
  integer(name: string): number | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null || value === "") return undefined;
    const number = typeof value === "number" ? value : Number(String(value).trim());
    return Number.isSafeInteger(number) ? number : 0;
  }

  boolean(name: string): boolean {
    const value = this.raw[name];
    if (typeof value === "boolean") return value;
    if (typeof value === "number") return value !== 0;
    if (typeof value === "string") return ["true", "1", "yes"].includes(value.trim().toLowerCase());
    return false;
  }

  /** A JSON-serialized field: an object in JSON bodies, a string in forms. */
  json<T>(name: string, parseError: string): T | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") return value as T;
    try {
      return JSON.parse(value) as T;
    } catch {
      throw badRequest(parseError);
    }
  }

  /** `chat_id`: a number, a numeric string or an `@channelusername`. */
  chatId(name = "chat_id"): number | string {
    const value = this.raw[name];
    if (value === undefined || value === null || value === "") throw badRequest(`${name} is empty`);
    if (typeof value === "number") return value;
    const text = String(value).trim();
    if (/^-?\d+$/.test(text)) return Number(text);
    return text;
  }

  /** An InputFile field: an upload, or a string (file_id or HTTP URL). */
  file(name: string): UploadedFile | string | undefined {
    const value = this.raw[name];
    if (isUploadedFile(value)) return value;
    if (typeof value === "string" && value !== "") return value;
    return undefined;
  }
}
