/* Takes the buttons off an approval request that no longer applies and says why. */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import { ADMIN_TEXTS } from "../texts/telegram.ts";
import { describeTelegramError } from "../core/telegram/errors.ts";

const Payload = v.object({
  chatId: v.number(),
  messageId: v.number(),
  reason: v.picklist(["edited", "deleted", "channelChanged", "approverChanged", "resent", "moved"]),
  language: v.optional(v.picklist(["ru", "en"]), "ru"),
});

const OUTDATED = {
  edited: (texts) => texts.outdatedEdited,
  deleted: (texts) => texts.outdatedDeleted,
  channelChanged: (texts) => texts.outdatedChannelChanged,
  approverChanged: (texts) => texts.outdatedApproverChanged,
  resent: (texts) => texts.outdatedResent,
  moved: (texts) => texts.outdatedMoved,
} satisfies Record<v.InferOutput<typeof Payload>["reason"], (texts: (typeof ADMIN_TEXTS)["ru" | "en"]) => string>;

export function retractApproval(telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success || !telegram) return;
    const { chatId, messageId, reason, language } = parsed.output;
    const texts = ADMIN_TEXTS[language];
    try {
      await telegram.editMessageReplyMarkup(chatId, messageId, { reply_markup: { inline_keyboard: [] } }, helpers.abortSignal);
      await telegram.sendMessage(chatId, OUTDATED[reason](texts), {
        reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
      }, helpers.abortSignal);
    } catch (err) {
      if (describeTelegramError(err).definite) return; // already gone or not modified: nothing to take back
      throw err;
    }
  };
}
