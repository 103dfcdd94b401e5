/*
 * Registration: whoever writes to the bot in a private chat is recorded as
 * username → chat id, so a project naming them as admin can send them posts to approve.
 */
import { Composer } from "grammy";
import type { BotDeps } from "../bot.ts";

const TEXTS = {
  ru: {
    registered: (handle: string) =>
      `Готово! Я запомнил вас как @${handle}.\n\nТеперь в Pressa укажите @${handle} администратором проекта, ` +
      `добавьте меня администратором канала с правом публикации сообщений и подключите канал. ` +
      `Посты на согласование будут приходить сюда.`,
    noUsername:
      "У вашего аккаунта Telegram нет имени пользователя (@username). Задайте его в настройках Telegram и напишите мне снова.",
  },
  en: {
    registered: (handle: string) =>
      `Done! I have registered you as @${handle}.\n\nNow, in Pressa, set @${handle} as the project's admin, ` +
      `make me an administrator of your channel with the right to post messages, and connect the channel. ` +
      `Posts for approval will arrive here.`,
    noUsername:
      "Your Telegram account has no username (@username). Set one in Telegram's settings and message me again.",
  },
};

export function registration({ sql }: BotDeps) {
  const feature = new Composer();
  feature.chatType("private").on("message", async (ctx) => {
    const texts = ctx.from.language_code?.startsWith("ru") ? TEXTS.ru : TEXTS.en;
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
