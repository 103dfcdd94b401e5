import { errorMessage } from "../api/fetcher.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";
import { translateMessage } from "./messages.ts";

const CAPTION_TOO_LONG = /^schedule\.captionTooLong\b\D*(\d+)\s*\/\s*(\d+)/;

/**
 * A post's message (a server error or its lastError) in the interface language. Most are
 * keys or English sentences (see translateMessage); the caption-too-long one carries the
 * numbers in its text ("schedule.captionTooLong: 5000/4096").
 */
export function postMessage(t: TFunction, message: string): string {
  const tooLong = CAPTION_TOO_LONG.exec(message);
  if (tooLong) return t("schedule.captionTooLong", { current: tooLong[1], max: tooLong[2] });
  return translateMessage(t, message);
}

/** The text for a failed post request: the server's message when it has one, else the fallback. */
export function postFailureText(t: TFunction, error: unknown, fallback: TranslationKey): string {
  const message = errorMessage(error);
  return message ? postMessage(t, message) : t(fallback);
}
