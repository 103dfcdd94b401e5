/*
 * What the API asks Telegram before it stores a channel or an approver (docs/trust-model.md), with each refusal as its error code: the channel exists and is a channel, the
 * bot may post there, the approver administers it. Shared by the channel, project and post
 * routes, so that no router imports another.
 */
import type { Api } from "grammy";
import { ApiError } from "../errors.ts";
import { approverCheck, botCanDelete, botProblem } from "./channel_rights.ts";
import { describeTelegramError } from "./errors.ts";

/** A failed call to Telegram as the refusal answered: its token refused, or Telegram out of reach (503s a client may retry). */
export function telegramUnavailable(err: unknown): ApiError {
  const failure = describeTelegramError(err);
  if (failure.code === "telegram.unauthorized") return new ApiError("telegram.unauthorized");
  return new ApiError("telegram.unreachable", { params: { description: failure.description } });
}

export function requireTelegram(telegram: Api | undefined): Api {
  if (!telegram) throw new ApiError("telegram.notConfigured");
  return telegram;
}

/** The channel's chat id from Telegram, or why it cannot be used (not found, not a channel). */
export async function channelChatId(telegram: Api, username: string): Promise<number> {
  try {
    const chat = await telegram.getChat(`@${username}`);
    if (chat.type !== "channel") throw new ApiError("channels.notAChannel", { params: { channel: `@${username}` } });
    return chat.id;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const failure = describeTelegramError(err);
    if (failure.code === "telegram.chatNotFound" || failure.code === "telegram.badRequest") {
      throw new ApiError("channels.notFound", { params: { channel: `@${username}` } });
    }
    throw telegramUnavailable(err);
  }
}

/** Telegram's non-definite failures while checking rights become 503s the client can retry. */
async function askingTelegram<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    throw telegramUnavailable(err);
  }
}

/**
 * The approver must be the channel's creator or an administrator who may post (docs/trust-model.md); answers their name as Telegram shows it, or refuses naming both.
 */
export async function confirmApprover(telegram: Api, chatId: number, link: string, approver: { userId: number; handle: string }) {
  const check = await askingTelegram(() => approverCheck(telegram, chatId, approver.userId));
  if (check.problem) {
    throw new ApiError("channels.approverNotAdmin", { params: { handle: approver.handle, channel: link } });
  }
  return check.name;
}

/** The bot must be an administrator of the channel allowed to post. */
export async function confirmBot(telegram: Api, chatId: number, link: string) {
  const problem = await askingTelegram(() => botProblem(telegram, chatId));
  if (problem === "botNotAdmin") {
    throw new ApiError("channels.botNotAdmin", { params: { channel: link } });
  }
  if (problem === "botCannotPost") {
    throw new ApiError("channels.missingPostPermission", { params: { channel: link } });
  }
}

/**
 * An ad the bot deletes at its term needs the bot's right to delete messages in the channel
 * (docs/ads.md "The feed time"): refused when it is planned, naming the channel, rather than found
 * missing at the term.
 */
export async function confirmBotCanDelete(telegram: Api, chatId: number, link: string) {
  if (!await askingTelegram(() => botCanDelete(telegram, chatId))) {
    throw new ApiError("ads.cannotDelete", { params: { channel: link } });
  }
}
