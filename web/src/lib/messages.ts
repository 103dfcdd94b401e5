import { type ErrorCode, type ErrorParams, errorParams, isErrorCode } from "../../../contract/error_codes.ts";
import { ApiRequestError } from "../api/fetcher.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";

/**
 * The interface's words for an error code (contract/error_codes.ts): a server answer's
 * code or a form's (the shared valibot schemas name codes), its placeholders filled from the
 * answer's params over the catalogue's own (the limits). The English message is never read:
 * it is shown only for a code the dictionary has no words for.
 */
export function errorText(t: TFunction, code: string, params?: ErrorParams, message?: string): string {
  const values = isErrorCode(code) ? { ...errorParams(code), ...params } : params;
  const text = t(code as TranslationKey, values);
  return text === code ? message || code : text;
}

/** The server's words for a failed request, by its code; undefined when it sent none. */
export function serverMessage(t: TFunction, error: unknown): string | undefined {
  if (!(error instanceof ApiRequestError) || !error.body) return undefined;
  const { code, message, params } = error.body;
  if (!code) return message || undefined;
  return errorText(t, code, params, message);
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
