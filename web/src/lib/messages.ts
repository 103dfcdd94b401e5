import { ERROR_CODES, type ErrorCode, errorParams, isErrorCode, messageParams } from "../../../contract/error_codes.ts";
import { ApiRequestError } from "../api/fetcher.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";

/**
 * The interface's words for an error code (contract/error_codes.ts): a server answer's
 * code or a form's (the shared valibot schemas name codes). The names and numbers of the
 * English message fill the same placeholders ("at most 50 drafts" → {{max}}). A code the
 * dictionary has no words for shows the message as it is.
 */
export function errorText(t: TFunction, code: string, message?: string): string {
  const params = isErrorCode(code) ? { ...errorParams(code), ...(message && messageParams(code, message)) } : undefined;
  const text = t(code as TranslationKey, params);
  return text === code ? message || code : text;
}

/**
 * A content-generation job's stored error (the message of an error code, or the AI's own
 * words) in the interface language. Posts' reasons are codes (lib/postMessages.ts); a job
 * still stores the message, so its code is found by the catalogue's templates.
 */
export function jobErrorText(t: TFunction, message: string): string {
  const code = (Object.keys(ERROR_CODES) as ErrorCode[]).find((candidate) => messageParams(candidate, message));
  return code ? errorText(t, code, message) : message;
}

/** The server's words for a failed request, by its code; undefined when it sent none. */
export function serverMessage(t: TFunction, error: unknown): string | undefined {
  if (!(error instanceof ApiRequestError) || !error.body) return undefined;
  const { code, message } = error.body;
  if (!code) return message || undefined;
  return errorText(t, code, message);
}

/** Whether a failed request was refused with one of these codes. */
export function hasCode(error: unknown, ...codes: ErrorCode[]): boolean {
  return error instanceof ApiRequestError && (codes as string[]).includes(error.body?.code ?? "");
}

/** The text for a failed request: the server's words when it said why, else the fallback. */
export function failureText(t: TFunction, error: unknown, fallback: TranslationKey): string {
  return serverMessage(t, error) ?? t(fallback);
}

/**
 * Spec §8 for the AI helpers: the server's words, then the HTTP status text, then the
 * fallback. "AI is not configured on this server: set OPENAI_API_KEY …" arrives this way.
 */
export function generationFailureText(t: TFunction, error: unknown, fallback: TranslationKey): string {
  const statusText = error instanceof ApiRequestError ? error.statusText : "";
  return serverMessage(t, error) ?? (statusText || t(fallback));
}
