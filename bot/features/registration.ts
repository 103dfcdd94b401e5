/*
 * Registration: whoever writes to the bot in a private chat is recorded as
 * username → chat id, so a project naming them as admin can send them posts to approve.
 */
import { Composer } from "grammy";
import { botLanguage, REGISTRATION_TEXTS } from "../../texts/telegram.ts";
import type { BotDeps } from "../deps.ts";

export function registration({ sql }: BotDeps) {
  const feature = new Composer();
  feature.chatType("private").on("message", async (ctx) => {
    const texts = REGISTRATION_TEXTS[botLanguage(null, ctx.from.language_code)];
    const username = ctx.from.username;
    if (!username) {
      await ctx.reply(texts.noUsername);
      return;
    }
    await sql`select app_public.record_admin_chat(${username}, ${ctx.chat.id})`;
    await ctx.reply(texts.registered(username));
  });
  return feature;
}
