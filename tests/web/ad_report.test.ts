/*
 * The ad report's rules without a screen (web/src/lib/adReport.ts): where an ad stands in its
 * removal (the bot's term, the owner's by hand past Telegram's 48 hours, kept, removed, due),
 * and how a price reads in each language, Telegram Stars included.
 */
import { expect, test } from "vitest";
import { adRemovalOf, formatMoney } from "../../web/src/lib/adReport.ts";

const HOUR = 3_600_000;
const sent = "2026-11-20T10:00:00.000Z";
const plus = (hours: number) => new Date(Date.parse(sent) + hours * HOUR).toISOString();
const item = (removeAt: string | null, removedAt: string | null = null, publishedAt: string | null = sent) =>
  ({ scheduledFor: sent, publishedAt, removeAt, removedAt });

test("removal: removed, kept, the bot's term, by hand, and due once the term passed", () => {
  const before = Date.parse(plus(1));
  expect(adRemovalOf(item(plus(24), plus(24)), before)).toEqual({ state: "removed", at: plus(24) });
  expect(adRemovalOf(item(null), before)).toEqual({ state: "kept" });
  expect(adRemovalOf(item(plus(24)), before)).toEqual({ state: "bot", at: plus(24) });
  // 47 hours a bot may still delete; 48 and more are the owner's, by hand
  expect(adRemovalOf(item(plus(47)), before)).toEqual({ state: "bot", at: plus(47) });
  expect(adRemovalOf(item(plus(48)), before)).toEqual({ state: "byHand", at: plus(48) });
  expect(adRemovalOf(item(plus(72)), Date.parse(plus(73)))).toEqual({ state: "due", at: plus(72), byHand: true });
  expect(adRemovalOf(item(plus(24)), Date.parse(plus(25)))).toEqual({ state: "due", at: plus(24), byHand: false });
  // not sent yet: the term runs from the planned time
  expect(adRemovalOf(item(plus(48), null, null), before)).toEqual({ state: "byHand", at: plus(48) });
});

test("prices: the currency's sign, kopecks only when there are some, Stars as a number and a star", () => {
  const clean = (text: string) => text.replace(/\s/g, " ");
  expect(clean(formatMoney(15000, "RUB", "ru-RU"))).toBe("15 000 ₽");
  expect(clean(formatMoney(12500.8, "RUB", "ru-RU"))).toBe("12 500,80 ₽");
  expect(formatMoney(99.99, "USD", "en-GB")).toBe("US$99.99");
  expect(formatMoney(100, "EUR", "en-GB")).toBe("€100");
  expect(clean(formatMoney(1500, "XTR", "ru-RU"))).toBe("1 500 ★");
  expect(formatMoney(1500, "XTR", "en-GB")).toBe("1,500 ★");
});
