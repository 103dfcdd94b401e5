/*
 * The draft editor's "Advertising" section as rules (web/src/lib/adForm.ts) and how an ad reads
 * in the details, the delete dialog and the calendar (web/src/lib/adDisplay.ts).
 */
import { expect, test } from "vitest";
import { type Ad, adLabel, type AdState } from "../../contract/ads.ts";
import { POST_CONTENT_MAX } from "../../contract/limits.ts";
import type { Draft } from "../../contract/drafts.ts";
import { adInput, adValuesOf, durationText, formatName, formatOfValues, labelLength, previewAd, validateAd, withFormat } from "../../web/src/lib/adForm.ts";
import { adStanding, deletingBreaksFormat, topWindowsByDay } from "../../web/src/lib/adDisplay.ts";
import { draftInput, validate, valuesOf, withGenerated } from "../../web/src/lib/draftForm.ts";
import { publishedEditLimit } from "../../web/src/lib/publishedEdit.ts";

const AD: Ad = { advertiser: "ООО Ромашка", advertiserInn: "7707083893", erid: "2VtzqvXYZ1", topMinutes: 60, feedMinutes: 1440, price: { amount: 15000, currency: "RUB" } };

test("a new ad starts switched off as 1/24; a stored ad opens with its fields; a preset fills both minutes, which stay editable", () => {
  const fresh = adValuesOf(null);
  expect(fresh).toMatchObject({ enabled: false, advertiser: "", erid: "", topMinutes: 60, feedMinutes: 1440, priceAmount: "", currency: "RUB" });
  expect(formatOfValues(fresh)).toBe("1/24");
  expect(adValuesOf(AD)).toMatchObject({ enabled: true, advertiser: "ООО Ромашка", advertiserInn: "7707083893", priceAmount: 15000 });

  const twoDays = withFormat({ ...fresh, enabled: true }, "2/48");
  expect([twoDays.topMinutes, twoDays.feedMinutes, formatOfValues(twoDays)]).toEqual([120, 2880, "2/48"]);
  const kept = withFormat(twoDays, "keep");
  expect([kept.topMinutes, kept.feedMinutes]).toEqual([60, 0]);
  // edited by hand after a preset: a format of the owner's own
  expect(formatOfValues({ ...twoDays, topMinutes: 90 })).toBeNull();
  expect(formatOfValues({ ...twoDays, topMinutes: "" })).toBeNull();
  expect(formatName({ topMinutes: 90, feedMinutes: 2160 }).text).toBe("1.5/36");
});

test("each field's problem is its ads.* code; a switched-off section has none and sends null", () => {
  const base = { ...adValuesOf(null), enabled: true, advertiser: "Acme", erid: "abc123" };
  expect(validateAd(base)).toEqual({});
  expect(validateAd({ ...base, enabled: false, advertiser: "" })).toEqual({});
  expect(validateAd({ ...base, advertiser: "   " }).advertiser).toBe("ads.advertiserRequired");
  expect(validateAd({ ...base, advertiser: "x".repeat(201) }).advertiser).toBe("ads.advertiserTooLong");
  expect(validateAd({ ...base, advertiserInn: "12345" }).advertiserInn).toBe("ads.innInvalid");
  expect(validateAd({ ...base, erid: "" }).erid).toBe("ads.eridInvalid");
  expect(validateAd({ ...base, erid: "abc-123" }).erid).toBe("ads.eridInvalid");
  expect(validateAd({ ...base, topMinutes: 1441 }).topMinutes).toBe("ads.topMinutesInvalid");
  expect(validateAd({ ...base, feedMinutes: "" }).feedMinutes).toBe("ads.feedMinutesInvalid");
  expect(validateAd({ ...base, priceAmount: 10.005 }).price).toBe("ads.priceInvalid");

  expect(adInput({ ...base, enabled: false })).toBeNull();
  // trimmed, and the optional INN and price left out when empty
  expect(adInput({ ...base, advertiser: "  Acme ", erid: " abc123 " })).toEqual({ advertiser: "Acme", erid: "abc123", topMinutes: 60, feedMinutes: 1440 });
  expect(adInput({ ...base, advertiserInn: "770708389301", priceAmount: 99.5, currency: "XTR" })).toMatchObject({
    advertiserInn: "770708389301",
    price: { amount: 99.5, currency: "XTR" },
  });
});

test("the draft form carries the ad: its errors block saving, and saving sends it (or null)", () => {
  const stored = { title: "Весна", content: "Текст", entities: [], imageUrl: null, imageUrls: [], options: {}, ad: AD } as unknown as Draft;
  const values = valuesOf(stored);
  expect(draftInput(values).ad).toEqual(AD);
  expect(draftInput({ ...values, ad: { ...values.ad, enabled: false } }).ad).toBeNull();
  expect(draftInput(valuesOf(undefined)).ad).toBeNull();
  expect(validate({ ...values, ad: { ...values.ad, erid: "" } }).ad).toEqual({ erid: "ads.eridInvalid" });
  expect(validate(values).ad).toBeUndefined();
});

test("a sale's options are weighed before saving, as the server weighs them: never silent, no unpin after its feed time", () => {
  const stored = { title: "Весна", content: "Текст", entities: [], imageUrl: null, imageUrls: [], options: {}, ad: AD } as unknown as Draft;
  const values = valuesOf(stored);
  expect(validate({ ...values, options: { silent: true } }).ad).toEqual({ format: "ads.silentAd" });
  const feedHours = AD.feedMinutes / 60;
  expect(validate({ ...values, options: { pin: true, unpinAfterHours: feedHours + 1 } }).ad).toEqual({ format: "ads.pinOutlivesFeed" });
  expect(validate({ ...values, options: { pin: true, unpinAfterHours: feedHours } }).ad).toBeUndefined();
  // the same options on the channel's own post (the section off) are fine
  expect(validate({ ...values, ad: { ...values.ad, enabled: false }, options: { silent: true } }).ad).toBeUndefined();
});

test("the AI writes the title and the text only: the ad's advertiser and erid stay as the owner typed them", () => {
  const values = valuesOf({ title: "Весна", content: "Старый текст", entities: [], imageUrls: [], options: {}, ad: AD } as unknown as Draft);
  // what a generation hands back could carry anything; only its title and body are taken
  const sneaky = { title: "Новый заголовок", body: { text: "Новый текст", entities: [] }, ad: { ...AD, erid: "FORGED" } } as never;
  const after = withGenerated(values, sneaky);
  expect(after.title).toBe("Новый заголовок");
  expect(after.body.text).toBe("Новый текст");
  expect(after.ad).toBe(values.ad);
  expect(draftInput(after).ad).toEqual(AD);
  expect(withGenerated(values, { title: "Только заголовок" }).body).toBe(values.body);
});

test("the preview's label follows the fields as typed, and its length comes off the text's limit", () => {
  const values = { ...adValuesOf(AD), advertiser: " ООО Ромашка " };
  expect(previewAd({ ...values, enabled: false })).toBeNull();
  const shown = previewAd(values)!;
  expect(adLabel(shown, "ru")).toBe("Реклама. ООО Ромашка, ИНН 7707083893. erid: 2VtzqvXYZ1");
  expect(labelLength(values, "en")).toBe(2 + "Ad. ООО Ромашка, TIN 7707083893. erid: 2VtzqvXYZ1".length);
  expect(labelLength({ ...values, enabled: false }, "ru")).toBe(0);
  // a published ad's edit keeps the label in its message: the text gets what is left
  const post = { title: "t", content: "hello", imageUrl: null, imageUrls: [], options: {}, ad: AD };
  expect(publishedEditLimit(post, "ru")).toBe(POST_CONTENT_MAX - 2 - adLabel(AD, "ru").length);
  expect(publishedEditLimit({ ...post, ad: null })).toBe(POST_CONTENT_MAX);
});

test("minutes read as hours up to two days, then as days, with each language's plural forms", () => {
  expect(durationText(60, "en-GB")).toBe("1 hour");
  expect(durationText(90, "en-GB")).toBe("1 hour 30 minutes");
  expect(durationText(1440, "en-GB")).toBe("24 hours");
  expect(durationText(2880, "ru-RU")).toBe("48 часов");
  expect(durationText(4320, "ru-RU")).toBe("3 дня");
  expect(durationText(4380, "ru-RU")).toBe("3 дня 1 час");
  expect(durationText(120, "ru-RU")).toBe("2 часа");
  expect(durationText(0, "en-GB")).toBe("0 minutes");
});

const STATE: AdState = {
  topFrom: "2026-05-04T09:00:00Z",
  topUntil: "2026-05-04T10:00:00Z",
  removeAt: "2026-05-05T09:00:00Z",
  removedAt: null,
  removalRemindedAt: null,
};

test("the details say where an ad stands at its term: to be deleted by the bot, by hand, due by hand, deleted, or kept", () => {
  expect(adStanding(AD, STATE)).toEqual({ kind: "willBeRemoved", at: STATE.removeAt });
  expect(adStanding(AD, { ...STATE, removedAt: "2026-05-05T09:00:03Z" })).toEqual({ kind: "removed", at: "2026-05-05T09:00:03Z" });
  const long = { ...AD, feedMinutes: 4320 };
  expect(adStanding(long, STATE).kind).toBe("byHand");
  expect(adStanding(long, { ...STATE, removalRemindedAt: "2026-05-07T09:00:00Z" }).kind).toBe("dueByHand");
  expect(adStanding({ ...AD, feedMinutes: 0 }, { ...STATE, removeAt: null }).kind).toBe("kept");
});

test("deleting an ad breaks its format while its term runs or when it is kept, not after its removal", () => {
  const before = new Date("2026-05-04T12:00:00Z");
  const after = new Date("2026-05-06T12:00:00Z");
  expect(deletingBreaksFormat({ ad: AD, adState: STATE }, before)).toBe(true);
  expect(deletingBreaksFormat({ ad: AD, adState: STATE }, after)).toBe(false);
  expect(deletingBreaksFormat({ ad: AD, adState: { ...STATE, removedAt: "2026-05-05T09:00:01Z" } }, before)).toBe(false);
  expect(deletingBreaksFormat({ ad: { ...AD, feedMinutes: 0 }, adState: { ...STATE, removeAt: null } }, after)).toBe(true);
  expect(deletingBreaksFormat({ ad: null, adState: null }, before)).toBe(false);
});

test("the calendar draws a top window on the day it falls on, on both days when it runs past midnight", () => {
  const posts = [
    { id: 1, adState: STATE },
    // 23:30 to 01:30 in Moscow (UTC+3)
    { id: 2, adState: { ...STATE, topFrom: "2026-05-04T20:30:00Z", topUntil: "2026-05-04T22:30:00Z" } },
    { id: 3, adState: null },
    // 0 minutes on top: no window
    { id: 4, adState: { ...STATE, topUntil: STATE.topFrom } },
  ];
  const windows = topWindowsByDay(posts, "Europe/Moscow");
  expect(windows.get("2026-05-04")).toEqual([
    { postId: 1, from: "12:00", until: "13:00", startsHere: true },
    { postId: 2, from: "23:30", until: "24:00", startsHere: true },
  ]);
  expect(windows.get("2026-05-05")).toEqual([{ postId: 2, from: "00:00", until: "01:30", startsHere: false }]);
  expect([...windows.keys()]).toEqual(["2026-05-04", "2026-05-05"]);
});
