/*
 * The named approver's answer to an account that wants to act in their name (docs/trust-model.md): Allow connects the channel (or makes them the approver), Deny removes the request,
 * Deny-and-block also refuses that account's later requests. decide_approver_request counts
 * only the pinned approver's press on the message sent for the request, while it is open;
 * anyone else's press, a second one, or a late one changes nothing and says so.
 */
import { Composer } from "grammy";
import { ADMIN_TEXTS, botLanguage } from "../../texts/telegram.ts";
import { parseApproverCallbackData } from "../../core/telegram/callback_data.ts";
import type { BotDeps } from "../deps.ts";

type Decided = { outcome: "connected" | "approverChanged" | "denied" | "blocked" | "taken" | "stale"; channelLink: string | null; projectLanguage: string | null };

export function approverRequests({ sql }: BotDeps) {
  const feature = new Composer();
  feature.on("callback_query:data", async (ctx, next) => {
    const parsed = parseApproverCallbackData(ctx.callbackQuery.data);
    const message = ctx.callbackQuery.message;
    if (!parsed || !message) return next();
    const [decided] = await sql<Decided[]>`
      select * from app_public.decide_approver_request(${parsed.requestId}, ${ctx.from.id}, ${message.message_id}, ${parsed.decision})`;
    const texts = ADMIN_TEXTS[botLanguage(decided.projectLanguage, ctx.from.language_code)];
    const channel = decided.channelLink ?? "";
    const outcome = {
      connected: () => texts.requestAllowed(channel),
      approverChanged: () => texts.handoverAllowed(channel),
      denied: () => texts.requestDenied,
      blocked: () => texts.requestBlocked,
      taken: () => texts.requestTaken(channel),
      stale: () => texts.stale,
    }[decided.outcome]();
    if (decided.outcome === "stale") {
      await ctx.answerCallbackQuery({ text: outcome, show_alert: true });
      return;
    }
    // The question shows the answer before the press is answered, so whoever waits for the
    // answer (the approver's spinner, a test) finds the message already settled.
    const text = "text" in message ? message.text : undefined;
    try {
      await ctx.editMessageText(text ? `${text}\n\n${outcome}` : outcome, { reply_markup: { inline_keyboard: [] } });
    } catch { /* the message may be gone; the decision itself is recorded */ }
    await ctx.answerCallbackQuery({ text: outcome });
  });
  return feature;
}
