// Errors the fake Bot API answers with. The descriptions are the strings the real
// api.telegram.org sends, because product code (and grammY users in general) often
// branch on `error_code` *and* on `description`.

export interface ResponseParameters {
  retry_after?: number;
  migrate_to_chat_id?: number;
}

/** A Bot API error: becomes `{ ok: false, error_code, description, parameters? }` with HTTP status = code. */
export class BotApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: ResponseParameters,
  ) {
    super(description);
    this.name = "BotApiError";
  }

  toJSON() {
    return {
      ok: false as const,
      error_code: this.code,
      description: this.description,
      ...(this.parameters ? { parameters: this.parameters } : {}),
    };
  }
}

export const badRequest = (what: string) => new BotApiError(400, `Bad Request: ${what}`);
export const forbidden = (what: string) => new BotApiError(403, `Forbidden: ${what}`);
export const unauthorized = () => new BotApiError(401, "Unauthorized");
export const notFound = () => new BotApiError(404, "Not Found");
export const conflict = (what: string) => new BotApiError(409, `Conflict: ${what}`);
export const tooManyRequests = (retryAfter: number) =>
  new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });

/** The default description Telegram uses for a bare status code. */
export function defaultDescription(code: number): string {
  switch (code) {
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 409:
      return "Conflict";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    default:
      return `Error ${code}`;
  }
}

// Descriptions used in more than one place.
export const CHAT_NOT_FOUND = "chat not found";
export const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";
export const QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid";
