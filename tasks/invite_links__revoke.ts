/*
 * Revokes in Telegram an invite link of a channel that left its project (disconnected, or
 * the project deleted: app_private.revoke_channel_invite_links). The link is already listed
 * as revoked; this makes Telegram agree, so nobody joins through it any more. Revoking twice
 * is harmless (Telegram answers the revoked link), and a refusal for good (the bot was
 * removed, lost the right to invite, or the link is gone) ends the job: nothing more can be
 * done from here. A network error or a 5xx is retried.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import { refusedForGood } from "../core/telegram/errors.ts";

const Payload = v.object({ chatId: v.number(), url: v.string() });

export function revokeInviteLink(telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("invite_links__revoke: malformed payload, dropped");
    if (!telegram) return;
    const { chatId, url } = parsed.output;
    try {
      await telegram.revokeChatInviteLink(chatId, url, helpers.abortSignal);
    } catch (err) {
      const refusal = refusedForGood(err);
      if (!refusal) throw err;
      helpers.logger.warn(`invite_links__revoke: Telegram refused to revoke a link of chat ${chatId}: ${refusal.description}`);
    }
  };
}
