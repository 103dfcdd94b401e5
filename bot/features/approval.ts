/*
 * The admin's buttons: Approve / Reject on an approval request, and "It is in the
 * channel" / "Send again" on an uncertain publication. Decisions are guarded in SQL: a
 * second press, or a press on an outdated message, changes nothing and says so.
 */
import { Composer } from "grammy";
import type { Context } from "grammy";
import { ADMIN_TEXTS, botLanguage, formatWhen } from "../../texts/telegram.ts";
import { parseCallbackData } from "../../core/telegram/callback_data.ts";
import { deliveryQuery } from "../../core/delivery.ts";
import type { BotDeps } from "../deps.ts";


async function quietly(action: Promise<unknown>) {
  try {
    await action;
  } catch { /* the message may be gone or unchanged; the decision itself is recorded */ }
}

export function approval({ sql }: BotDeps) {
  const feature = new Composer();

  feature.on("callback_query:data", async (ctx, next) => {
    const parsed = parseCallbackData(ctx.callbackQuery.data);
    const message = ctx.callbackQuery.message;
    if (!parsed || !message || !ctx.chat) return next();
    const { action, postId, round } = parsed;
    const info = async () => {
      return await deliveryQuery(sql, "app_public.post_delivery_info", [postId]);
    };

    if (action === "approve" || action === "reject") {
      const [decided] = await sql<{ id: number }[]>`
        select id from app_public.decide_post(${postId}, ${ctx.chat.id}, ${message.message_id}, ${action === "approve"}, ${round})
        where id is not null`;
      const post = await info();
      const texts = ADMIN_TEXTS[botLanguage(post?.projectLanguage)];
      if (!decided || !post) {
        // a press that cannot count is never silent: while the post still waits, the approver
        // learns where the buttons that count are (a newer preview of it was sent)
        await ctx.answerCallbackQuery({ text: post?.status === "scheduled" && post.approverUserId === ctx.chat.id ? texts.staleStillWaiting : texts.stale, show_alert: true });
        return;
      }
      const when = formatWhen(post.scheduledFor, post.projectTimezone, botLanguage(post.projectLanguage));
      // approved past its time, the post goes out at once (decide_post queues it for now), so
      // the answer says so rather than naming a time already gone
      const late = Date.parse(post.scheduledFor) <= Date.now();
      const decision = action === "approve" ? (late ? texts.approvedLate(when) : texts.approved(when)) : texts.rejected;
      await ctx.answerCallbackQuery({ text: decision });
      await quietly(ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }));
      const headerId = post.approvalPreview.messageIds?.[0];
      if (headerId) {
        await quietly(ctx.api.editMessageText(ctx.chat.id, headerId, `${texts.approvalRequest(post.channelLink ?? "", when, post.options ?? {})}\n\n${decision}`));
      }
      return;
    }

    if (action === "editok" || action === "editno") {
      const [decided] = await sql<{ id: number }[]>`
        select id from app_public.decide_post_edit(${postId}, ${ctx.chat.id}, ${message.message_id}, ${action === "editok"}, ${round})
        where id is not null`;
      const texts = ADMIN_TEXTS[botLanguage((await info())?.projectLanguage)];
      if (!decided) {
        await ctx.answerCallbackQuery({ text: texts.stale, show_alert: true });
        return;
      }
      const outcome = action === "editok" ? texts.editApproved : texts.editRejected;
      await ctx.answerCallbackQuery({ text: outcome });
      await quietly(appendToMessage(ctx, outcome));
      return;
    }

    const inChannel = action === "inchannel";
    const [resolved] = await sql<{ id: number }[]>`
      select id from app_public.resolve_uncertain_post(${postId}, ${ctx.chat.id}, ${inChannel}) where id is not null`;
    const texts = ADMIN_TEXTS[botLanguage((await info())?.projectLanguage)];
    if (!resolved) {
      await ctx.answerCallbackQuery({ text: texts.stale, show_alert: true });
      return;
    }
    const outcome = inChannel ? texts.resolvedInChannel : texts.resolvedSendAgain;
    await ctx.answerCallbackQuery({ text: outcome });
    await quietly(appendToMessage(ctx, outcome));
  });
  return feature;
}

async function appendToMessage(ctx: Context, line: string) {
  const text = ctx.callbackQuery?.message && "text" in ctx.callbackQuery.message ? ctx.callbackQuery.message.text : undefined;
  if (text) await ctx.editMessageText(`${text}\n\n${line}`, { reply_markup: { inline_keyboard: [] } });
  else await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } });
}
