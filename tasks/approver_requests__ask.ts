/*
 * Asks the named approver, in their private chat with the bot, whether an account may act in
 * their name (docs/trust-model.md): one message naming the account (e-mail masked) and the
 * channel, with Allow, Deny, and Deny-and-block. The request is claimed before the send, so a
 * repeated job sends nothing; a send that may be retried gives the claim back, and a
 * definite refusal (the approver blocked the bot) drops the request, as nobody can answer it.
 */
import type { Api } from "grammy";
import type { Task } from "graphile-worker";
import * as v from "valibot";
import type { Sql } from "../core/db.ts";
import { ADMIN_TEXTS, botLanguage, maskEmail } from "../texts/telegram.ts";
import { approverCallbackData } from "../core/telegram/callback_data.ts";
import { refusedForGood } from "../core/telegram/errors.ts";

const Payload = v.object({ requestId: v.number() });

type Request = { approverUserId: number; kind: "connect" | "handover"; channelLink: string; accountEmail: string; projectLanguage: string };

export function askApprover(sql: Sql, telegram: Api | undefined): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("approver_requests__ask: malformed payload, dropped");
    const { requestId } = parsed.output;
    if (!telegram) return void await sql`select app_public.drop_approver_request(${requestId})`;
    const [request] = await sql<Request[]>`select * from app_public.approver_request_to_ask(${requestId})`;
    if (!request) return; // asked already, answered, or expired
    const texts = ADMIN_TEXTS[botLanguage(request.projectLanguage)];
    try {
      const message = await telegram.sendMessage(
        request.approverUserId,
        texts.approverRequest(maskEmail(request.accountEmail), request.channelLink, request.kind),
        {
          reply_markup: {
            inline_keyboard: [
              [
                { text: texts.allow, callback_data: approverCallbackData("allow", requestId) },
                { text: texts.deny, callback_data: approverCallbackData("deny", requestId) },
              ],
              [{ text: texts.denyAndBlock, callback_data: approverCallbackData("block", requestId) }],
            ],
          },
        },
        helpers.abortSignal,
      );
      await sql`select app_public.record_approver_asked(${requestId}, ${message.message_id})`;
    } catch (err) {
      if (refusedForGood(err)) {
        helpers.logger.warn(`approver_requests__ask: Telegram refused the question for good, request ${requestId} dropped`);
        return void await sql`select app_public.drop_approver_request(${requestId})`;
      }
      await sql`select app_public.record_approver_asked(${requestId}, ${null})`;
      throw err;
    }
  };
}
