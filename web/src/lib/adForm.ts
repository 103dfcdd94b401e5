/*
 * The editor's "Advertising" section as rules (DESIGN.md "Advertising posts"): what it starts
 * from, what a format preset fills, what it refuses (by the shared AdSchema's codes) and what
 * it sends. components/AdFields draws the fields; these decide.
 */
import * as v from "valibot";
import { type Ad, AD_FORMATS, AD_LABEL_SEPARATOR, type AdCurrency, type AdFormatId, adFormatOf, adLabel, AdSchema } from "../../../contract/ads.ts";

/** The fields as typed: numbers stay strings while empty, as Mantine's NumberInput gives them. */
export type AdValues = {
  /** "This is an advertising post"; off sends `ad: null` and keeps what was typed until saved. */
  enabled: boolean;
  advertiser: string;
  advertiserInn: string;
  erid: string;
  topMinutes: number | string;
  feedMinutes: number | string;
  priceAmount: number | string;
  currency: AdCurrency;
};

export type AdField = "advertiser" | "advertiserInn" | "erid" | "topMinutes" | "feedMinutes" | "price";
/** `format`: what the sale rules out in the post's options (adOptionsProblem), said under the section. */
export type AdErrors = Partial<Record<AdField | "format", string>>;

/** A new ad starts as the most sold format, 1/24, priced in roubles. */
const FIRST_FORMAT = AD_FORMATS[0];

export function adValuesOf(ad: Ad | null | undefined): AdValues {
  return {
    enabled: Boolean(ad),
    advertiser: ad?.advertiser ?? "",
    advertiserInn: ad?.advertiserInn ?? "",
    erid: ad?.erid ?? "",
    topMinutes: ad?.topMinutes ?? FIRST_FORMAT.topMinutes,
    feedMinutes: ad?.feedMinutes ?? FIRST_FORMAT.feedMinutes,
    priceAmount: ad?.price?.amount ?? "",
    currency: ad?.price?.currency ?? "RUB",
  };
}

/** A preset fills both minutes; they stay editable after. */
export function withFormat(values: AdValues, id: AdFormatId): AdValues {
  const format = AD_FORMATS.find((candidate) => candidate.id === id);
  return format ? { ...values, topMinutes: format.topMinutes, feedMinutes: format.feedMinutes } : values;
}

/** The preset the typed minutes match, or null for a format of the owner's own (or unfinished minutes). */
export function formatOfValues(values: Pick<AdValues, "topMinutes" | "feedMinutes">): AdFormatId | null {
  const { topMinutes, feedMinutes } = values;
  return typeof topMinutes === "number" && typeof feedMinutes === "number" ? adFormatOf({ topMinutes, feedMinutes }) : null;
}

const numberOrNothing = (value: number | string) => (typeof value === "number" ? value : value.trim() === "" ? undefined : Number(value));

/** What AdSchema reads: the optional INN and price left out when empty. */
function adCandidate(values: AdValues): unknown {
  if (!values.enabled) return null;
  const amount = numberOrNothing(values.priceAmount);
  return {
    advertiser: values.advertiser,
    ...(values.advertiserInn.trim() === "" ? {} : { advertiserInn: values.advertiserInn }),
    erid: values.erid,
    topMinutes: numberOrNothing(values.topMinutes),
    feedMinutes: numberOrNothing(values.feedMinutes),
    ...(amount === undefined ? {} : { price: { amount, currency: values.currency } }),
  };
}

/** Each field's problem as its code (ads.*); none when the section is off. */
export function validateAd(values: AdValues): AdErrors {
  const result = v.safeParse(AdSchema, adCandidate(values));
  if (result.success) return {};
  const errors: AdErrors = {};
  for (const issue of result.issues) {
    const field = (issue.path?.[0]?.key ?? "") as AdField;
    if (["advertiser", "advertiserInn", "erid", "topMinutes", "feedMinutes", "price"].includes(field) && !errors[field]) {
      errors[field] = issue.message;
    }
  }
  return errors;
}

export const hasAdErrors = (errors: AdErrors) => Object.values(errors).some(Boolean);

/** What is saved: the ad as the schema cleans it (trimmed), or null when the section is off. */
export function adInput(values: AdValues): Ad | null {
  const result = v.safeParse(AdSchema, adCandidate(values));
  return result.success ? result.output : null;
}

/**
 * What a sale rules out in the post's options, as the server says it when the draft is saved
 * (app_private.assert_ad_format): a silent ad, and an unpin after the bot deleted the post.
 */
export function adOptionsProblem(ad: Ad | null, options: { silent?: boolean; unpinAfterHours?: number }): string | undefined {
  if (!ad) return undefined;
  if (options.silent) return "ads.silentAd";
  if (ad.feedMinutes > 0 && options.unpinAfterHours !== undefined && options.unpinAfterHours * 60 > ad.feedMinutes) return "ads.pinOutlivesFeed";
  return undefined;
}

/**
 * The ad the preview labels while the fields are typed: the words as they stand (a half-typed
 * erid shows as typed), or null when the section is off.
 */
export function previewAd(values: AdValues): Ad | null {
  if (!values.enabled) return null;
  const inn = values.advertiserInn.trim();
  return { advertiser: values.advertiser.trim(), ...(inn ? { advertiserInn: inn } : {}), erid: values.erid.trim(), topMinutes: 0, feedMinutes: 0 };
}

/** How many characters of Telegram's limit the label takes (with the blank line before it). */
export function labelLength(values: AdValues, language: string): number {
  const ad = previewAd(values);
  return ad ? AD_LABEL_SEPARATOR.length + adLabel(ad, language).length : 0;
}

/** A number of minutes as days, hours and minutes ("1 day 2 hours", "1 сутки" is not said: "1 день"). */
export function durationParts(minutes: number): { days: number; hours: number; minutes: number } {
  const whole = Math.max(0, Math.floor(minutes));
  return { days: Math.floor(whole / 1440), hours: Math.floor((whole % 1440) / 60), minutes: whole % 60 };
}

/**
 * Minutes in words in the reader's language, with the language's own plural forms (Intl's units):
 * 90 → "1 hour 30 minutes" / "1 час 30 минут", 4320 → "3 days" / "3 дня". Up to two days it reads
 * in hours (a format is sold as "48 hours"), longer in days and hours.
 */
export function durationText(minutes: number, locale: string): string {
  const unit = (unit: "day" | "hour" | "minute", count: number) =>
    new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(count);
  const parts = durationParts(minutes);
  const hours = minutes <= 2880 ? parts.days * 24 + parts.hours : parts.hours;
  const days = minutes <= 2880 ? 0 : parts.days;
  const words = [days > 0 && unit("day", days), hours > 0 && unit("hour", hours), parts.minutes > 0 && unit("minute", parts.minutes)].filter(Boolean);
  return words.length > 0 ? words.join(" ") : unit("minute", 0);
}

/** A format's name as channels say it: the preset's "1/24", else the hours ("1.5/36"); kept posts say so. */
export function formatName(ad: Pick<Ad, "topMinutes" | "feedMinutes">): { id: AdFormatId | null; text: string } {
  const id = adFormatOf(ad);
  const hours = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100);
  return { id, text: id && id !== "keep" ? id : `${hours(ad.topMinutes)}/${ad.feedMinutes === 0 ? "∞" : hours(ad.feedMinutes)}` };
}
