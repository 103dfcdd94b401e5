/*
 * The Telegram sandbox as the SPA reads it (docs/sandbox.md): the local Bot API server's
 * simulated approver chat and channel, served under /api/sandbox only while `npm run demo`
 * runs it. What a Telegram client would show of each message, nothing more.
 */
import * as v from "valibot";

/** One inline button: a callback button carries `data`, a link button `url`. */
export type SandboxButton = { text: string; data?: string; url?: string };

/** A formatting span of a message's text, as Telegram's MessageEntity. */
export type SandboxEntity = { type: string; offset: number; length: number; url?: string };

export type SandboxMessage = {
  id: number;
  /** Unix seconds. */
  date: number;
  /** Written by the simulated admin (in the approver's chat): shown on the other side. */
  outgoing: boolean;
  /** Text or caption. */
  text: string;
  entities: SandboxEntity[];
  /** The photo's file id (its largest size), served under /api/sandbox/files/. */
  photo?: string;
  /** Messages of one album share it. */
  albumId?: string;
  buttons: SandboxButton[][];
  pinned: boolean;
  /** A service message: the message with this id was pinned. */
  pinnedMessageId?: number;
  edited: boolean;
};

export type SandboxView = {
  bot: { username: string; name: string };
  admin: { username: string; name: string; startedBot: boolean };
  channel: { username: string; title: string };
  /** The admin's private chat with the bot, oldest first. */
  chat: SandboxMessage[];
  /** The channel's posts, oldest first. */
  feed: SandboxMessage[];
};

/** What a callback button answered (the toast a Telegram client shows), if anything. */
export type SandboxPress = { answer: string | null };

export const SandboxPressSchema = v.object({
  messageId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  // Telegram's callback_data is 1–64 bytes
  data: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});
