/* Secrets: kept out of texts that leave the process, and compared without telling anything. */
import { createHash, timingSafeEqual } from "node:crypto";

/**
 * A Telegram bot token ("123456789:AA…") opens the bot to anyone who reads it. Bot API
 * URLs carry it, and network errors quote those URLs; texts that leave the process (logs,
 * stored reasons, answers) go through this first.
 */
export function withoutBotToken(text: string): string {
  return text.replace(/\d{5,}:[\w-]{20,}/g, "<token>");
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether `given` is `secret`, in a time that tells nothing: both are hashed to one length
 * first, so neither the secret's length nor its first wrong character shows.
 */
export function sameSecret(given: string | undefined, secret: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(secret));
}
