/*
 * The ad report's rules that need no screen (docs/ads.md, "Ad report"): where an ad stands in its
 * removal, and how a price reads. The page, its CSV and the home card share them.
 */
import { AD_BOT_DELETE_LIMIT_MINUTES, type AdCurrency, type AdReportItem } from "../../../contract/ads.ts";

const MINUTE_MS = 60_000;

/**
 * Where an ad stands in its feed time: removed (when), kept for good, still to be removed by
 * the bot or by hand (when), or past its term and still in the channel (`due`: by hand when
 * the term was beyond what Telegram lets a bot delete, else the bot is late).
 */
export type AdRemoval =
  | { state: "removed"; at: string }
  | { state: "kept" }
  | { state: "bot" | "byHand"; at: string }
  | { state: "due"; at: string; byHand: boolean };

export function adRemovalOf(item: Pick<AdReportItem, "removedAt" | "removeAt" | "publishedAt" | "scheduledFor">, nowMs = Date.now()): AdRemoval {
  if (item.removedAt) return { state: "removed", at: item.removedAt };
  if (!item.removeAt) return { state: "kept" };
  const sentAt = Date.parse(item.publishedAt ?? item.scheduledFor);
  const byHand = Date.parse(item.removeAt) - sentAt >= AD_BOT_DELETE_LIMIT_MINUTES * MINUTE_MS;
  if (Date.parse(item.removeAt) <= nowMs) return { state: "due", at: item.removeAt, byHand };
  return { state: byHand ? "byHand" : "bot", at: item.removeAt };
}

/**
 * "15 000 ₽", "12 500,80 ₽", "$99.99": kopecks and cents only when there are some. Telegram
 * Stars (XTR) are no currency Intl knows: a number and a star (a text star, which every font
 * has, not the emoji, which a system without an emoji font shows as a box).
 */
export function formatMoney(amount: number, currency: AdCurrency, locale: string): string {
  const fraction = Number.isInteger(amount) ? 0 : 2;
  if (currency === "XTR") {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: fraction, maximumFractionDigits: 2 }).format(amount)} ★`;
  }
  return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: fraction, maximumFractionDigits: 2 }).format(amount);
}
