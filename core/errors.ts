/*
 * Failures the client is told about, wherever they arise (a route, the AI client, a SQL
 * function's exception): each becomes an ApiError with a code of the one catalogue
 * (contract/error_codes.ts), which gives its HTTP status and English message.
 */
import { type ErrorCode, errorMessage, type ErrorParams, ERROR_CODES, isErrorCode } from "../contract/error_codes.ts";
import { isDatabaseUnreachable } from "./db.ts";

export type { ErrorCode } from "../contract/error_codes.ts";

type ApiErrorOptions = {
  /** The names and numbers of the code's message ({channel}, {max}). */
  params?: ErrorParams;
  /** Words from elsewhere that say more than the catalogue can: a SQL function's, Hono's, valibot's. */
  message?: string;
  cause?: unknown;
  /** Seconds until trying again makes sense (sent as Retry-After). */
  retryAfter?: number;
  /** Fields the client needs besides message and code (e.g. the running job's id). */
  extra?: Record<string, unknown>;
};

/**
 * A failure the client is told about. `cause` keeps what only operators need (a provider's
 * own words): answers with a 5xx status log it, the client gets the message.
 */
export class ApiError extends Error {
  /** The catalogue's status: what it means over HTTP is api/errors.ts' business. */
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly extra: Record<string, unknown> | undefined;
  /**
   * The names and numbers this failure put in its message (the raiser's: a channel, a handle,
   * a count a SQL function formatted), answered as `params`. The catalogue's own (its limits)
   * are the code's, the same in every answer, and every client has them from the catalogue.
   */
  readonly params: ErrorParams;

  constructor(readonly code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? errorMessage(code, options.params), { cause: options.cause });
    this.status = ERROR_CODES[code].status;
    this.params = { ...options.params };
    this.retryAfter = options.retryAfter;
    this.extra = options.extra;
  }
}

/** The operator's side of a failure: its cause's words, when it has one. */
export function causeOf(err: ApiError): string | undefined {
  const cause = err.cause;
  return cause === undefined ? undefined : cause instanceof Error ? cause.message : String(cause);
}

/**
 * SQLSTATE → the code answered when the exception names none in its hint. Ours (sql/functions/*.sql
 * raise them, each with a precise code in the hint) and PostgreSQL's own that bad input can
 * reach; the status of the hint's code is always the status of its SQLSTATE here
 * (tests/api/error_codes.test.ts).
 */
export const SQL_ERRORS: Record<string, ErrorCode> = {
  NTFND: "notFound", // the row does not exist or belongs to another user (ownership is never revealed)
  FORBD: "forbidden", // an admin-only function called by a non-admin; a role without the action (team.forbidden)
  LSTOW: "team.lastOwner", // a change that would leave a project without an owner
  TGONE: "team.invitationGone", // an invitation used, withdrawn or expired
  INVAL: "invalid", // a rule on the input that only the database can check
  RATEL: "rateLimited", // too many requests of a kind; a numeric detail is sent as Retry-After
  AILIM: "ai.rateLimited", // AI calls per minute, tokens per day (the account's or the service's); the detail is sent as Retry-After
  QUOTA: "quotaReached", // an account's or project's quota is full
  GJRUN: "drafts.generationRunning", // the detail is the running job's id, answered as jobId
  DRSCH: "drafts.cannotDeleteScheduled",
  CHLIM: "channels.limitReached",
  ADMNR: "channels.adminNotRegistered",
  CHCON: "channels.alreadyConnected",
  CHREQ: "channels.requestPending", // one request per approver and account waits at a time
  CHBLK: "channels.approverRefused", // the approver blocked this account's requests for good
  APRNV: "projects.approverNotConfirmed",
  PASTT: "schedule.pastTime",
  NOCHN: "schedule.noChannel",
  EDPUB: "schedule.cannotEditPublished",
  CLONG: "schedule.captionTooLong",
  ADTOP: "ads.topConflict", // a time that would break an ad's top window (ads.pinOverWindow: a pin over one)
  "23514": "data.ruleViolated", // check_violation
  "23502": "data.valueMissing", // not_null_violation
  "22P02": "data.wrongFormat", // invalid_text_representation
  "22003": "data.outOfRange", // numeric_value_out_of_range
  // U+0000 in text (character_not_in_repertoire): requests holding one are refused before
  // (contract/text.ts); this keeps a path that was missed from answering 500
  "22021": "text.controlCharacter",
  "23505": "data.alreadyExists", // unique_violation
  "23503": "data.referenceMissing", // foreign_key_violation
};

/**
 * query_canceled: in the API, a statement ran (or waited on a lock) past its statement_timeout.
 * Nothing it began is kept (the statement, and a transaction around it, roll back), so the
 * client may try again once the load has passed.
 */
const QUERY_CANCELED = "57014";
const BUSY_RETRY_AFTER_SECONDS = 5;

/** PostgreSQL's own errors have its words, not ours: they are answered with the catalogue's. */
const OWN_SQLSTATE = /^[0-9]/;

/**
 * Constraints whose violation is a rule the user can act on, with the code for it. The
 * rule lives in the table (so a race cannot break it); its words live in the catalogue.
 */
export const CONSTRAINT_ERRORS: Record<string, ErrorCode> = {
  posts_one_live_per_draft: "schedule.draftAlreadyScheduled",
  drafts_image_upload_fkey: "uploads.notInProject",
  posts_image_upload_fkey: "uploads.notInProject",
  bug_reports_screenshot_upload_fkey: "uploads.notInProject",
};

/** postgres.js errors carry PostgreSQL's fields (camelCased by its transform or not). */
type PgError = Error & { code?: string; hint?: string; detail?: string; constraint_name?: string; constraintName?: string };

export function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const pg = err as PgError;
  const constraint = pg?.constraint_name ?? pg?.constraintName;
  if (constraint && constraint in CONSTRAINT_ERRORS) return new ApiError(CONSTRAINT_ERRORS[constraint]);
  const sqlState = pg?.code;
  if (sqlState === QUERY_CANCELED) return new ApiError("server.busy", { retryAfter: BUSY_RETRY_AFTER_SECONDS, cause: err });
  // PostgreSQL restarting or failing over: the request failed at once, changed nothing
  if (isDatabaseUnreachable(err)) return new ApiError("server.databaseUnavailable", { retryAfter: BUSY_RETRY_AFTER_SECONDS, cause: err });
  if (typeof sqlState !== "string" || !(sqlState in SQL_ERRORS)) return undefined;
  if (OWN_SQLSTATE.test(sqlState)) return new ApiError(SQL_ERRORS[sqlState]);
  // The function names the precise code in the hint (drafts.notFound); its message is answered as it is.
  const code = isErrorCode(pg.hint) ? pg.hint : SQL_ERRORS[sqlState];
  // A refusal to wait out says how long in the detail (seconds); a running job its id.
  const number = /^\d+$/.test(pg.detail ?? "") ? Number(pg.detail) : undefined;
  const message = (err as Error).message;
  return new ApiError(code, {
    message,
    // a SQL function raises its message with the names and numbers in it (its `raise` formats
    // them, and tests/api/error_codes.test.ts keeps every such message equal to the catalogue's
    // template): they are read here, once, at the door, and answered as params, so no client
    // ever reads English back
    params: messageParams(code, message),
    retryAfter: ERROR_CODES[code].status === 429 ? number : undefined,
    extra: sqlState === "GJRUN" && number !== undefined ? { jobId: number } : undefined,
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The names and numbers a text carries, read back against the template it was written
 * from ("A project can have at most {max} drafts…", "…at most 50 drafts…" → { max: "50" });
 * undefined when the text was not written from it.
 */
export function templateParams(template: string, text: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/\{(\w+)\}/)
    .map((part, i) => (i % 2 === 0 ? escapeRegExp(part) : (names.push(part), "(.*?)")))
    .join("");
  const match = new RegExp(`^${pattern}$`, "s").exec(text);
  return match ? Object.fromEntries(names.map((name, i) => [name, match[i + 1]])) : undefined;
}

/**
 * The names and numbers a message of `code` carries (a whole number as a number); undefined
 * when it is no message of the code.
 */
export function messageParams(code: ErrorCode, message: string): ErrorParams | undefined {
  const params = templateParams(ERROR_CODES[code].message, message);
  return params && Object.fromEntries(Object.entries(params).map(([name, value]) => [name, /^\d+$/.test(value) ? Number(value) : value]));
}
