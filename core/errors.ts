/*
 * Failures the client is told about, wherever they arise (a route, the AI client, a SQL
 * function's exception): each becomes an ApiError with an HTTP status and a code.
 * SQL functions raise with the codes of sql/error_codes.md; api/errors.ts answers them.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * A failure the client is told about. `cause` keeps what only operators need (a provider's
 * own words): answers with a 5xx status log it, the client gets the message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    options?: {
      cause?: unknown;
      /** Seconds until trying again makes sense (sent as Retry-After). */
      retryAfter?: number;
      /** Fields the client needs besides message and code (e.g. the running job's id). */
      extra?: Record<string, unknown>;
    },
  ) {
    super(message, options);
    this.retryAfter = options?.retryAfter;
    this.extra = options?.extra;
  }
  readonly retryAfter: number | undefined;
  readonly extra: Record<string, unknown> | undefined;
}

/** The operator's side of a failure: its cause's words, when it has one. */
export function causeOf(err: ApiError): string | undefined {
  const cause = err.cause;
  return cause === undefined ? undefined : cause instanceof Error ? cause.message : String(cause);
}

/** SQLSTATE → HTTP status and JSON code. Keep in step with sql/error_codes.md. */
const SQL_ERRORS: Record<string, { status: ContentfulStatusCode; code: string; message?: string }> = {
  NTFND: { status: 404, code: "notFound" },
  DRSCH: { status: 409, code: "drafts.cannotDeleteScheduled" },
  CHLIM: { status: 409, code: "channels.limitReached" },
  ADMNR: { status: 400, code: "channels.adminNotRegistered" },
  CHCON: { status: 409, code: "channels.alreadyConnected" },
  APRNV: { status: 409, code: "projects.approverNotConfirmed" },
  FORBD: { status: 403, code: "forbidden" },
  PASTT: { status: 400, code: "schedule.pastTime" },
  NOCHN: { status: 400, code: "schedule.noChannel" },
  EDPUB: { status: 409, code: "schedule.cannotEditPublished" },
  CLONG: { status: 400, code: "schedule.captionTooLong" },
  RATEL: { status: 429, code: "rateLimited" },
  AILIM: { status: 429, code: "ai.rateLimited" },
  QUOTA: { status: 409, code: "quotaReached" },
  GJRUN: { status: 409, code: "drafts.generationRunning" },
  INVAL: { status: 400, code: "invalid" },
  "23514": { status: 400, code: "invalid", message: "The data does not satisfy the product's rules" },
  "23502": { status: 400, code: "invalid", message: "A required value is missing" },
  "22P02": { status: 400, code: "invalid", message: "A value has the wrong format" },
  "22003": { status: 400, code: "invalid", message: "A number is out of range" },
  "23505": { status: 409, code: "conflict", message: "This already exists" },
  "23503": { status: 404, code: "notFound", message: "A referenced item does not exist" },
};

/**
 * Constraints whose violation is a rule the user can act on, with the answer for it. The
 * rule lives in the table (so a race cannot break it); its words live here.
 */
const CONSTRAINT_ERRORS: Record<string, { status: ContentfulStatusCode; code: string; message: string }> = {
  posts_one_live_per_draft: { status: 400, code: "schedule.draftAlreadyScheduled", message: "schedule.draftAlreadyScheduled" },
  drafts_image_upload_fkey: { status: 400, code: "uploads.notInProject", message: "The image is not an upload of this project" },
  posts_image_upload_fkey: { status: 400, code: "uploads.notInProject", message: "The image is not an upload of this project" },
  bug_reports_screenshot_upload_fkey: { status: 400, code: "uploads.notInProject", message: "The image is not an upload of this project" },
};

const TRANSLATION_KEY = /^[a-zA-Z]+\.[A-Za-z]+$/;

/** postgres.js errors carry PostgreSQL's fields (camelCased by its transform or not). */
type PgError = Error & { code?: string; hint?: string; detail?: string; constraint_name?: string; constraintName?: string };

export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = err.message || "Bad request";
    return new ApiError(status, status === 413 ? "tooLarge" : "badRequest", message);
  }
  const pg = err as PgError;
  const constraint = pg?.constraint_name ?? pg?.constraintName;
  if (constraint && constraint in CONSTRAINT_ERRORS) {
    const known = CONSTRAINT_ERRORS[constraint];
    return new ApiError(known.status, known.code, known.message);
  }
  const code = pg?.code;
  if (typeof code === "string" && code in SQL_ERRORS) {
    const known = SQL_ERRORS[code];
    const message = known.message ?? (err as Error).message;
    // A function names the precise code in the hint (ai.dailyBudgetSpent); a message that
    // is a translation key (drafts.bulkAddFailed) is also the code.
    const precise = pg.hint && TRANSLATION_KEY.test(pg.hint) ? pg.hint : TRANSLATION_KEY.test(message) ? message : known.code;
    // A refusal to wait out says how long in the detail (seconds); a running job its id.
    const seconds = known.status === 429 && /^\d+$/.test(pg.detail ?? "") ? Number(pg.detail) : undefined;
    const extra = code === "GJRUN" && /^\d+$/.test(pg.detail ?? "") ? { jobId: Number(pg.detail) } : undefined;
    return new ApiError(known.status, precise, message, { retryAfter: seconds, extra });
  }
  return undefined;
}
