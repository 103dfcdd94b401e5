/*
 * Channel statistics (README "Statistics"): every `chat_member` and
 * `message_reaction_count` update of a channel becomes one SQL call, and nothing else: no
 * Telegram call, no second query. A 100k-subscriber channel sends thousands of member
 * updates a day; they queue behind each other (updates of one chat run in order), never
 * in front of an admin's Approve in their private chat. Which updates count, whose channel
 * they belong to and whether one was seen before are decided in SQL.
 */
import { Composer } from "grammy";
import type { ChatMember } from "grammy/types";
import type { BotDeps } from "../bot.ts";

/** A restricted person may be inside the chat or not; Telegram says which. */
const isMemberFlag = (member: ChatMember) => ("is_member" in member ? member.is_member : null);

export function stats({ sql }: BotDeps) {
  const feature = new Composer();
  feature.on("chat_member", async (ctx) => {
    const update = ctx.chatMember;
    if (update.chat.type !== "channel") return;
    const { old_chat_member: before, new_chat_member: after } = update;
    await sql`select app_public.record_member_update(${ctx.update.update_id}, ${update.chat.id}, ${after.user.id},
      to_timestamp(${update.date}), ${before.status}, ${isMemberFlag(before)}, ${after.status}, ${isMemberFlag(after)},
      ${update.invite_link?.invite_link ?? null})`;
  });
  feature.on("message_reaction_count", async (ctx) => {
    const update = ctx.messageReactionCount;
    if (update.chat.type !== "channel") return;
    await sql`select app_public.record_reaction_count(${ctx.update.update_id}, ${update.chat.id}, ${update.message_id},
      to_timestamp(${update.date}), ${sql.json(update.reactions as unknown as Parameters<typeof sql.json>[0])})`;
  });
  return feature;
}
