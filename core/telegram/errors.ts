/*
 * Telegram's answers turned into our error codes, so the API, the worker and the bot
 * speak of failures the same way. Codes are stable; descriptions are Telegram's own.
 */
import { GrammyError, HttpError } from "grammy";
import { withoutBotToken } from "../secrets.ts";

export type TelegramFailure = {
  code:
    | "telegram.notConfigured"
    | "telegram.unreachable"
    | "telegram.unavailable"
    | "telegram.unauthorized"
    | "telegram.rateLimited"
    | "telegram.chatNotFound"
    | "telegram.botNotMember"
    | "telegram.notEnoughRights"
    | "telegram.blocked"
    | "telegram.messageTooLong"
    | "telegram.captionTooLong"
    | "telegram.messageNotFound"
    | "telegram.messageNotModified"
    | "telegram.badRequest";
  /** A definite answer from Telegram (the call did not take effect), as opposed to not knowing. */
  definite: boolean;
  description: string;
  retryAfter?: number;
};

/**
 * Every Bot API URL carries the bot's token, and network errors quote the URL. No text we
 * store, show or send may carry it: URLs become "Telegram", a bare token "<token>".
 */
export function withoutSecrets(text: string): string {
  return withoutBotToken(text.replace(/https?:\/\/\S+/g, "Telegram"));
}

/**
 * Telegram's refusal for good: the call did not take effect, and trying it again will not
 * change that. A rate limit is a definite answer too, but not a refusal: the job retries
 * later. Anything else (a lost answer, a timeout, a 5xx) is null, for the caller to rethrow.
 */
export function refusedForGood(err: unknown): TelegramFailure | null {
  const failure = describeTelegramError(err);
  return failure.definite && failure.code !== "telegram.rateLimited" ? failure : null;
}

export function describeTelegramError(err: unknown): TelegramFailure {
  if (err instanceof GrammyError) {
    const d = withoutSecrets(err.description);
    const lower = d.toLowerCase();
    const failure = (code: TelegramFailure["code"]): TelegramFailure => ({ code, definite: true, description: d });
    if (err.error_code === 429) return { ...failure("telegram.rateLimited"), retryAfter: err.parameters.retry_after };
    if (err.error_code === 401) return failure("telegram.unauthorized");
    if (err.error_code >= 500) return { code: "telegram.unavailable", definite: false, description: d };
    if (lower.includes("chat not found") || lower.includes("user not found")) return failure("telegram.chatNotFound");
    if (lower.includes("bot was blocked") || lower.includes("user is deactivated")) return failure("telegram.blocked");
    if (lower.includes("not a member") || lower.includes("bot was kicked")) return failure("telegram.botNotMember");
    if (lower.includes("not enough rights") || lower.includes("need administrator rights") || lower.includes("have no rights")) {
      return failure("telegram.notEnoughRights");
    }
    if (lower.includes("message is too long")) return failure("telegram.messageTooLong");
    if (lower.includes("caption is too long")) return failure("telegram.captionTooLong");
    if (lower.includes("message is not modified")) return failure("telegram.messageNotModified");
    if (lower.includes("message to delete not found") || lower.includes("message can't be deleted") || lower.includes("message to edit not found")) {
      return failure("telegram.messageNotFound");
    }
    if (err.error_code === 403) return failure("telegram.botNotMember");
    return failure("telegram.badRequest");
  }
  if (err instanceof HttpError) {
    return { code: "telegram.unreachable", definite: false, description: withoutSecrets(String(err.error ?? err.message)) };
  }
  return { code: "telegram.unreachable", definite: false, description: withoutSecrets(String((err as Error)?.message ?? err)) };
}
