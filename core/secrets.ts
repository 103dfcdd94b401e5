/*
 * A Telegram bot token ("123456789:AA…") opens the bot to anyone who reads it. Bot API
 * URLs carry it, and network errors quote those URLs; texts that leave the process (logs,
 * stored reasons, answers) go through this first.
 */
export function withoutBotToken(text: string): string {
  return text.replace(/\d{5,}:[\w-]{20,}/g, "<token>");
}
