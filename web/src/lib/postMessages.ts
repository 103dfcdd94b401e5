import { errorMessage } from "../api/fetcher.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";
import { translateMessage } from "./messages.ts";

const CAPTION_TOO_LONG = /^schedule\.captionTooLong\b\D*(\d+)\s*\/\s*(\d+)/;

/**
 * Reasons the server writes with names in them (core/telegram/channel_rights.ts, SQL
 * delete_channel): the interface says them in its language with the same names.
 */
const NAMED_REASONS: { pattern: RegExp; key: TranslationKey; names: (match: RegExpExecArray) => Record<string, string> }[] = [
  {
    pattern: /^@(\w+) is no longer an administrator of (@\w+) who may post messages$/,
    key: "posts.error.approverLost",
    names: (m) => ({ handle: m[1], channel: m[2] }),
  },
  {
    pattern: /^The bot is no longer an administrator of (@\w+) who may post messages$/,
    key: "posts.error.botLost",
    names: (m) => ({ channel: m[1] }),
  },
  {
    pattern: /^The channel (@\w+) was disconnected before this post went out\b/,
    key: "posts.error.channelDisconnected",
    names: (m) => ({ channel: m[1] }),
  },
];

/**
 * A post's message (a server error or its lastError) in the interface language. Most are
 * keys or English sentences (see translateMessage); the caption-too-long one carries the
 * numbers in its text ("schedule.captionTooLong: 5000/4096").
 */
export function postMessage(t: TFunction, message: string): string {
  const tooLong = CAPTION_TOO_LONG.exec(message);
  if (tooLong) return t("schedule.captionTooLong", { current: tooLong[1], max: tooLong[2] });
  for (const { pattern, key, names } of NAMED_REASONS) {
    const match = pattern.exec(message);
    if (match) return t(key, names(match));
  }
  return translateMessage(t, message);
}

/** The text for a failed post request: the server's message when it has one, else the fallback. */
export function postFailureText(t: TFunction, error: unknown, fallback: TranslationKey): string {
  const message = errorMessage(error);
  return message ? postMessage(t, message) : t(fallback);
}
