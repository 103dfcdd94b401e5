import type { ErrorBody } from "../../../contract/error_codes.ts";

/**
 * Every non-OK answer becomes this error. Its message is "<status>: <body text>" (spec §8),
 * and when the body is the API's JSON error it also carries the parsed `{ message, code }`.
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly body: ErrorBody | undefined;
  /** The HTTP status text ("Bad Gateway"): the next best words when the body has no message. */
  readonly statusText: string;

  constructor(status: number, text: string, body: ErrorBody | undefined, statusText = "") {
    super(`${status}: ${text}`);
    this.name = "ApiRequestError";
    this.status = status;
    this.body = body;
    this.statusText = statusText;
  }
}

export function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && typeof (parsed as ErrorBody).message === "string") {
      const { message, code, params } = parsed as Partial<ErrorBody>;
      const body: ErrorBody = { message: message ?? "", code: typeof code === "string" ? code : "" };
      // the names and numbers of the answer, which fill the placeholders of the SPA's own words
      if (params && typeof params === "object" && !Array.isArray(params)) body.params = params;
      return body;
    }
  } catch {
    // Not JSON: the status line and text are all there is.
  }
  return undefined;
}

type RequestOptions = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A plain value is sent as JSON; FormData goes as multipart with the browser's boundary. */
  body?: unknown;
  signal?: AbortSignal;
};

/** The one way the SPA talks to the API: cookies included, JSON in and out. */
export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", body, signal } = options;
  const init: RequestInit = { method, credentials: "include", signal };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "Content-Type": "application/json" };
  }

  const response = await fetch(path, init);
  const text = await response.text();
  if (!response.ok) {
    const error = new ApiRequestError(response.status, text || response.statusText, parseErrorBody(text), response.statusText);
    const code = error.body?.code;
    if (code === "projects.notFound" || code === "team.forbidden") tellProject(path, code === "projects.notFound" ? "gone" : "forbidden");
    throw error;
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** "gone": no such project (deleted, or the account removed from it); "forbidden": the role does not allow it. */
export type ProjectRefusal = "gone" | "forbidden";
type ProjectRefusalListener = (projectId: number, refusal: ProjectRefusal) => void;
const projectRefusalListeners = new Set<ProjectRefusalListener>();

/**
 * A project's request was refused because the account's place in it changed meanwhile
 * (docs/teams.md): removed, or given another role in another tab. Whoever shows that project
 * hears of it here, whichever request (a read or a save) found out first. Answers the
 * function that stops listening.
 */
export function onProjectRefusal(listener: ProjectRefusalListener): () => void {
  projectRefusalListeners.add(listener);
  return () => projectRefusalListeners.delete(listener);
}

function tellProject(path: string, refusal: ProjectRefusal) {
  const id = /^\/api\/projects\/(\d+)(?:[/?]|$)/.exec(path)?.[1];
  if (id) for (const listener of projectRefusalListeners) listener(Number(id), refusal);
}

/** SWR's default reader: a GET of the key. */
export function fetcher<T>(url: string): Promise<T> {
  return apiFetch<T>(url);
}

export function hasStatus(error: unknown, status: number): boolean {
  return error instanceof ApiRequestError && error.status === status;
}
