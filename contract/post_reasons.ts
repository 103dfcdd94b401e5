/*
 * Why a post failed, is uncertain, went back to draft, or why a series stopped: stored as a
 * code with its params (posts.last_error_code, posts.last_error_params) and answered so by
 * the API (Post.lastErrorCode, Post.lastErrorParams). Whoever shows a reason words it: the
 * SPA by the code's key in web/src/i18n/<language>.json, an API client or the bot by the
 * English message here. Rewording a message changes nobody's translation, and nothing ever
 * reads a reason back from its words.
 *
 * A message's {placeholders} are the code's params. Codes that are also error codes of the
 * catalogue (contract/error_codes.ts) share its key in the dictionaries.
 */
import { errorMessage, isErrorCode } from "./error_codes.ts";

export const POST_REASON_CODES = {
  "posts.error.approverLost": { message: "@{handle} is no longer an administrator of {channel} who may post. The post was not sent. Name a current administrator in the project and publish the post again." },
  "posts.error.botLost": { message: "The bot is no longer an administrator of {channel} who may post. The post was not sent. Give the bot that permission back and publish the post again." },
  "posts.error.channelDisconnected": {
    message: "The channel {channel} was disconnected before the post went out. Publish it again to send it for approval.",
  },
  "posts.error.channelChanged": { message: "The channel changed after this post was approved; publish it again to send it for approval." },
  "posts.error.botNotConfigured": { message: "The Telegram bot is not configured on the server" },
  "posts.error.noChannel": { message: "The project has no connected channel" },
  "posts.error.adminNotRegistered": { message: "The project's admin has not messaged the bot yet" },
  "posts.error.imageMissing": { message: "The post's image is missing from storage" },
  "posts.error.workerStopped": { message: "Publishing was interrupted; the post may or may not be in the channel" },
  "posts.error.databaseLost": { message: "The database went away during publishing; the post may or may not be in the channel" },
  /** Telegram refused the send: {description} is Telegram's own words. */
  "posts.error.telegram": { message: "Telegram: {description}" },
  /** A two-message post's photo is out and the text's fate is unknown. */
  "posts.error.textUncertain": { message: "Telegram: {description}. The photo is in the channel; the text may not be." },
  /** A two-message post's text was refused and its photo could not be removed ({removal}: Telegram's words). */
  "posts.error.photoAlone": {
    message: "Telegram refused the text ({description}), and the photo that went out without it could not be removed: {removal}",
  },
  "posts.error.approvalUndelivered": { message: "Telegram refused to deliver the approval request: {description}" },
  "posts.error.editRefused": { message: "Telegram refused the edit: {description}" },
  /** {reason} is an error code of the catalogue (the AI's failure). */
  "posts.error.autopilotNoAi": { message: "The AI could not write this post ({reason}); it goes to the admin as its draft is." },
  /** A reason stored as words before reasons were codes, which matched no known form ({text}: those words). */
  "posts.error.other": { message: "{text}" },
  "schedule.seriesOutOfDrafts": { message: "The series stopped because no drafts remain. Add drafts and schedule it again." },
  "schedule.noChannelToPublish": { message: "Connect a channel before publishing" },
  /** Planned before the project had a channel: its approval request goes out once one is connected. */
  "schedule.waitingForChannel": {
    message: "Waiting for a channel: the approval request goes out once the project's channel is connected.",
  },
  /** Due while another ad was on top ({title}); it goes out when that window ends ({until}, the project's time). */
  "ads.heldForTop": { message: 'Held while the ad "{title}" is on top; it goes out when the ad\'s window ends, at {until}.' },
  "schedule.captionTooLong": { message: "The text is too long for Telegram: {current}/{max} characters. Shorten the draft and try again." },
} as const satisfies Record<string, { message: string }>;

export type PostReasonCode = keyof typeof POST_REASON_CODES;
export type PostReasonParams = Record<string, string | number>;
/** A reason as the worker hands it to the SQL function that records it. */
export type PostReason = { code: PostReasonCode; params: PostReasonParams };

export function isPostReasonCode(code: unknown): code is PostReasonCode {
  return typeof code === "string" && Object.hasOwn(POST_REASON_CODES, code);
}

/**
 * A reason in English (the bot's notice, API clients); a {reason} that is an error code reads
 * as its message; an unknown code reads as itself.
 */
export function postReasonMessage(code: string, params: PostReasonParams = {}): string {
  if (!isPostReasonCode(code)) return code;
  const values = isErrorCode(params.reason) ? { ...params, reason: errorMessage(params.reason) } : params;
  return POST_REASON_CODES[code].message.replace(/\{(\w+)\}/g, (placeholder, name: string) => name in values ? String(values[name]) : placeholder);
}
