import { ERROR_CODES, type ErrorCode, messageParams, templateParams } from "../../../contract/error_codes.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";
import { errorText } from "./messages.ts";

/**
 * Reasons the server stores in English in a post's lastError that are no error code: written
 * by the worker (tasks/), core/telegram/channel_rights.ts and SQL functions, some with names
 * ({channel}). Each has its words in the dictionary; tests/web/error_codes.test.ts finds
 * every template in the code that writes it, so rewording one there fails a test.
 */
export const POST_REASONS: { template: string; key: TranslationKey }[] = [
  { template: "@{handle} is no longer an administrator of {channel} who may post messages", key: "posts.error.approverLost" },
  { template: "The bot is no longer an administrator of {channel} who may post messages", key: "posts.error.botLost" },
  {
    template: "The channel {channel} was disconnected before this post went out; publish it again to send it for approval",
    key: "posts.error.channelDisconnected",
  },
  {
    template: "The channel changed after this post was approved; publish it again to send it for approval",
    key: "posts.error.channelChanged",
  },
  { template: "The Telegram bot is not configured on the server", key: "posts.error.botNotConfigured" },
  { template: "The project has no connected channel", key: "posts.error.noChannel" },
  { template: "The project's admin has not messaged the bot yet", key: "posts.error.adminNotRegistered" },
  { template: "The post's image is missing from storage", key: "posts.error.imageMissing" },
  { template: "The worker stopped while sending; the post may or may not be in the channel", key: "posts.error.workerStopped" },
  {
    template: "The database went away while the post was being sent; it may or may not be in the channel",
    key: "posts.error.databaseLost",
  },
  { template: "schedule.seriesOutOfDrafts", key: "schedule.seriesOutOfDrafts" },
  // {reason} is itself a stored reason (an AI failure's message), said in the interface language too
  { template: "The AI could not write this post ({reason}); it keeps its draft as it is", key: "posts.error.autopilotNoAi" },
];

/**
 * A stored reason (a post's lastError, a generation job's error) in the interface language:
 * one of POST_REASONS, or the message of an error code (the SQL stores "Connect a channel
 * before publishing" and "schedule.captionTooLong: 5000/4096", the worker an AI failure's
 * message). Any other reason (Telegram's own words) shows as it is.
 */
export function reasonText(t: TFunction, reason: string): string {
  for (const { template, key } of POST_REASONS) {
    const names = templateParams(template, reason);
    if (names) return t(key, names.reason ? { ...names, reason: reasonText(t, names.reason) } : names);
  }
  const code = (Object.keys(ERROR_CODES) as ErrorCode[]).find((candidate) => messageParams(candidate, reason));
  return code ? errorText(t, code, reason) : reason;
}
