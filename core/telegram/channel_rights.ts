/*
 * Who may act in a channel (docs/trust-model.md). One bot serves every account, so before
 * the bot acts in a channel Telegram is asked (getChatMember) whether the bot may post there
 * and whether the project's approver is the channel's creator or an administrator who may
 * post. Asked when a channel is connected, when the approver changes, and before every
 * preview and publication (the answer is reused for RIGHTS_FRESH_MS, kept per channel in
 * the database so every worker process shares it).
 */
import type { Api } from "grammy";
import type { ChatMember } from "grammy/types";
import type { PostReason } from "../../contract/post_reasons.ts";
import { describeTelegramError } from "./errors.ts";

/** How long a confirmation of the channel's rights is trusted (the issue allows up to 10 minutes). */
export const RIGHTS_FRESH_MS = 10 * 60 * 1000;

export type RightsProblem = "botNotAdmin" | "botCannotPost" | "approverNotAdmin";

const botIds = new WeakMap<Api, Promise<number>>();

/** The bot's own user id, asked once per Api object. */
function botIdOf(telegram: Api): Promise<number> {
  let id = botIds.get(telegram);
  if (!id) {
    id = telegram.getMe().then((me) => me.id);
    id.catch(() => botIds.delete(telegram));
    botIds.set(telegram, id);
  }
  return id;
}

/**
 * A channel member as Telegram describes them, or null when Telegram definitely says there
 * is no such member to speak of (the user never joined, unknown user). Anything that is not
 * a definite answer (network, 5xx, 429 beyond the wait bound, bad token) is thrown.
 */
async function memberOf(telegram: Api, chatId: number, userId: number): Promise<ChatMember | null> {
  try {
    return await telegram.getChatMember(chatId, userId);
  } catch (err) {
    const failure = describeTelegramError(err);
    if (failure.definite && failure.code !== "telegram.unauthorized" && failure.code !== "telegram.rateLimited") return null;
    throw err;
  }
}

const isAdmin = (member: ChatMember | null) => member?.status === "creator" || member?.status === "administrator";
const mayPost = (member: ChatMember | null) =>
  member?.status === "creator" || (member?.status === "administrator" && member.can_post_messages === true);

/** Whether the bot may post in the channel: null, or what is missing. */
export async function botProblem(telegram: Api, chatId: number): Promise<RightsProblem | null> {
  const member = await memberOf(telegram, chatId, await botIdOf(telegram));
  if (!isAdmin(member)) return "botNotAdmin";
  return mayPost(member) ? null : "botCannotPost";
}

/**
 * Whether the bot may delete any message of the channel (`can_delete_messages`): what an
 * ad's removal at its term needs (docs/ads.md "The feed time"). Non-definite failures are thrown.
 */
export async function botCanDelete(telegram: Api, chatId: number): Promise<boolean> {
  const member = await memberOf(telegram, chatId, await botIdOf(telegram));
  return member?.status === "administrator" && member.can_delete_messages === true;
}

/**
 * Whether the approver is the channel's creator or an administrator who may post; answers
 * their name as Telegram shows it when they are.
 */
export async function approverCheck(
  telegram: Api,
  chatId: number,
  approverUserId: number,
): Promise<{ problem: "approverNotAdmin" } | { problem: null; name: string }> {
  const member = await memberOf(telegram, chatId, approverUserId);
  if (!member || !mayPost(member)) return { problem: "approverNotAdmin" };
  const { first_name, last_name } = member.user;
  return { problem: null, name: [first_name, last_name].filter(Boolean).join(" ") };
}

/** Both checks, the bot first (without it nothing can be sent anyway). */
export async function channelRightsProblem(telegram: Api, chatId: number, approverUserId: number): Promise<RightsProblem | null> {
  return await botProblem(telegram, chatId) ?? (await approverCheck(telegram, chatId, approverUserId)).problem;
}

/**
 * The reason a post fails when a check before its preview or publication finds the rights
 * gone, as its code and params (contract/post_reasons.ts): whoever shows it words it.
 */
export function lostRightsReason(problem: RightsProblem, approverHandle: string, channelLink: string): PostReason {
  return problem === "approverNotAdmin"
    ? { code: "posts.error.approverLost", params: { handle: approverHandle.replace(/^@/, ""), channel: channelLink } }
    : { code: "posts.error.botLost", params: { channel: channelLink } };
}
