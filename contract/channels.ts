import * as v from "valibot";
import { PLATFORMS } from "./limits.ts";

/**
 * Public channel links we accept: @name, name, t.me/name, https://t.me/name,
 * telegram.me/name (http or https, with or without www, trailing slash allowed).
 * Telegram usernames are 5–32 letters, digits or underscores and start with a letter.
 */
const USERNAME = "[A-Za-z][A-Za-z0-9_]{3,30}[A-Za-z0-9]";
const LINK_PATTERNS = [
  new RegExp(`^@?(${USERNAME})$`),
  new RegExp(`^(?:https?://)?(?:www\\.)?(?:t|telegram)\\.me/(${USERNAME})/?$`, "i"),
];

/** The channel's username from a link, or null when the link is not a public channel link. */
export function channelUsername(link: string): string | null {
  const trimmed = link.trim();
  for (const pattern of LINK_PATTERNS) {
    const match = trimmed.match(pattern);
    if (match) return match[1];
  }
  return null;
}

export const ChannelCreateSchema = v.object({
  type: v.optional(v.picklist(PLATFORMS, "channels.platformInvalid"), "telegram"),
  link: v.pipe(
    v.optional(v.string("channels.linkRequired"), ""),
    v.trim(),
    v.nonEmpty("channels.linkRequired"),
    v.check((link) => channelUsername(link) !== null, "channels.linkInvalid"),
  ),
});

/** A channel as the API answers it. */
export type Channel = {
  id: number;
  projectId: number;
  type: (typeof PLATFORMS)[number];
  link: string;
  status: "pending" | "connected";
  /** chatId: the channel's chat; adminChatId: the approver's private chat (their user id). */
  config: { chatId?: number; adminChatId?: number; lastPostTime?: number };
  /**
   * The project's approver as Telegram confirmed them (docs/trust-model.md): previews go to
   * this person only. null for a channel connected before approvers were verified.
   */
  approver: { handle: string; name: string | null } | null;
  /**
   * The approver whose Allow in Telegram is awaited (docs/trust-model.md): for a pending
   * channel, whoever would approve it; for a connected one, a new admin handle not yet
   * confirmed. `until`: when the request expires unanswered.
   */
  awaiting: { handle: string; until: string } | null;
  createdAt: string;
};
