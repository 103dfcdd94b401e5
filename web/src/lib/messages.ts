import { ApiRequestError, errorMessage } from "../api/fetcher.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";

/**
 * Validation and server messages are either English sentences ("Invalid email") or spec
 * keys ("drafts.titleRequired"); both are dictionary keys, so the interface shows them in
 * its language. An unknown one shows as it is, like any missing key.
 */
export function translateMessage(t: TFunction, message: string): string {
  return t(message as TranslationKey);
}

/** Quotas (README "Limits") are said by their code, with the limit the server's message names. */
const QUOTA_CODES = new Set(["projects.quotaReached", "drafts.quotaReached", "uploads.quotaReached", "bugReports.quotaReached"]);

/** The server's message for a failed request, translated; undefined when it sent none. */
export function serverMessage(t: TFunction, error: unknown): string | undefined {
  const message = errorMessage(error);
  const code = error instanceof ApiRequestError ? error.body?.code : undefined;
  if (code && QUOTA_CODES.has(code)) return t(code as TranslationKey, { max: /\d+/.exec(message ?? "")?.[0] ?? "" });
  return message ? translateMessage(t, message) : undefined;
}

/** The text for a failed request: the server's message when it has one, else the fallback. */
export function failureText(t: TFunction, error: unknown, fallback: TranslationKey): string {
  return serverMessage(t, error) ?? t(fallback);
}

/**
 * Spec §8 for the AI helpers: the server's message, then the HTTP status text, then the
 * fallback. "AI is not configured on this server: set OPENAI_API_KEY …" arrives this way.
 */
export function generationFailureText(t: TFunction, error: unknown, fallback: TranslationKey): string {
  const statusText = error instanceof ApiRequestError ? error.statusText : "";
  return serverMessage(t, error) ?? (statusText || t(fallback));
}
