/*
 * Advertising posts (docs/ads.md; shared contract in DESIGN.md "Advertising posts"). A sold
 * post carries its format (minutes on top of the channel, minutes in the feed before it is
 * deleted) and what the law asks of its label (the advertiser, their INN, the register's
 * erid). The label is never part of the text a user or the AI edits: it is added as the
 * post's last line wherever the post is planned (contract/post_plan.ts), so the editor's
 * preview, the approver's preview and the channel read the same line.
 */
import * as v from "valibot";

export const AD_ADVERTISER_MAX = 200;
export const AD_ERID_MAX = 64;
/** A day on top at most: longer is not a format anyone sells. */
export const AD_TOP_MINUTES_MAX = 1440;
/** Thirty days in the feed at most; 0 keeps the post for good. */
export const AD_FEED_MINUTES_MAX = 43200;
/**
 * Telegram lets a bot delete a channel message only while it is younger than 48 hours: an ad
 * kept this long or longer is the owner's to delete by hand, and Pressa reminds them instead.
 */
export const AD_BOT_DELETE_LIMIT_MINUTES = 2880;
export const AD_CURRENCIES = ["RUB", "USD", "EUR", "XTR"] as const;
export type AdCurrency = (typeof AD_CURRENCIES)[number];

export type AdPrice = { amount: number; currency: AdCurrency };
export type Ad = {
  advertiser: string;
  advertiserInn?: string;
  erid: string;
  topMinutes: number;
  /** 0 keeps the post in the feed for good. */
  feedMinutes: number;
  price?: AdPrice;
};

/**
 * A post's ad as the API answers it (app_private.post_ad): the sale, and when the bot deleted it
 * at its term (null until then, and for good when it is kept or removed by hand).
 */
export type PostAd = Ad & { removedAt: string | null };

/** The formats channels sell, as "hours on top / hours in the feed"; the minutes stay editable. */
export const AD_FORMATS = [
  { id: "1/24", topMinutes: 60, feedMinutes: 24 * 60 },
  { id: "2/48", topMinutes: 120, feedMinutes: 48 * 60 },
  { id: "1/72", topMinutes: 60, feedMinutes: 72 * 60 },
  { id: "keep", topMinutes: 60, feedMinutes: 0 },
] as const;
export type AdFormatId = (typeof AD_FORMATS)[number]["id"];

/** The preset whose minutes these are, or null for a format of the owner's own. */
export function adFormatOf(ad: Pick<Ad, "topMinutes" | "feedMinutes">): AdFormatId | null {
  return AD_FORMATS.find((format) => format.topMinutes === ad.topMinutes && format.feedMinutes === ad.feedMinutes)?.id ?? null;
}

const minutes = (max: number, code: string, min = 0) =>
  v.pipe(v.number(code), v.integer(code), v.minValue(min, code), v.maxValue(max, code));

/** Kopecks and cents: two decimals at most, and a sum no channel sells beyond. */
const AmountSchema = v.pipe(
  v.number("ads.priceInvalid"),
  v.minValue(0, "ads.priceInvalid"),
  v.maxValue(1_000_000_000, "ads.priceInvalid"),
  v.check((amount) => Number.isInteger(Math.round(amount * 100)) && Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6, "ads.priceInvalid"),
);

/** An ad's fields as given and stored (a draft's ad answers exactly these). */
export const AdFields = {
  advertiser: v.pipe(
    v.string("ads.advertiserRequired"),
    v.trim(),
    v.nonEmpty("ads.advertiserRequired"),
    v.maxLength(AD_ADVERTISER_MAX, "ads.advertiserTooLong"),
  ),
  // a Russian taxpayer number: 10 digits for a company, 12 for a person
  advertiserInn: v.optional(v.pipe(v.string("ads.innInvalid"), v.trim(), v.regex(/^(\d{10}|\d{12})$/, "ads.innInvalid"))),
  erid: v.pipe(v.string("ads.eridInvalid"), v.trim(), v.regex(new RegExp(`^[A-Za-z0-9]{1,${AD_ERID_MAX}}$`), "ads.eridInvalid")),
  topMinutes: minutes(AD_TOP_MINUTES_MAX, "ads.topMinutesInvalid"),
  feedMinutes: minutes(AD_FEED_MINUTES_MAX, "ads.feedMinutesInvalid"),
  price: v.optional(v.strictObject({
    amount: AmountSchema,
    currency: v.picklist(AD_CURRENCIES, "ads.currencyInvalid"),
  }, "ads.priceInvalid")),
};

export const AdSchema = v.nullable(v.pipe(
  v.strictObject({
    ...AdFields,
    // a post's ad as answered (PostAd) may be sent back as it is: removedAt is the bot's to say
    removedAt: v.optional(v.unknown()),
  }, "ads.invalid"),
  v.transform(({ removedAt: _, ...ad }): Ad => ad),
));

/**
 * The label's words per project language (sql/functions/ads.sql app_private.ad_label says the
 * same; tests/sql/ads.test.ts holds them equal). The INN part is left out when there is none.
 */
export function adLabel(ad: Ad, language: string): string {
  const en = language === "en";
  const inn = ad.advertiserInn ? `, ${en ? "TIN" : "ИНН"} ${ad.advertiserInn}` : "";
  return `${en ? "Ad" : "Реклама"}. ${ad.advertiser}${inn}. erid: ${ad.erid}`;
}

/** What separates the post's own text from its label. */
export const AD_LABEL_SEPARATOR = "\n\n";

/** The text with its label as its last line (the label alone when the text is empty). */
export function withAdLabel(text: string, ad: Ad | null | undefined, language: string): string {
  if (!ad) return text;
  const label = adLabel(ad, language);
  return text === "" ? label : `${text}${AD_LABEL_SEPARATOR}${label}`;
}

/**
 * Where an ad post stands in its format (the API's Post.adState): its top window (from the real
 * send once it went out, else from its planned time), when it is due to leave the feed, when the
 * bot removed it, and when the owner was told to remove it by hand (a term the bot cannot keep).
 */
export type AdState = {
  topFrom: string;
  topUntil: string;
  removeAt: string | null;
  removedAt: string | null;
  removalRemindedAt: string | null;
};

/** One row of the ad report (`GET /api/projects/{id}/ads?from&to`). */
export type AdReportItem = {
  postId: number;
  title: string;
  advertiser: string;
  erid: string;
  scheduledFor: string;
  publishedAt: string | null;
  topUntil: string;
  removeAt: string | null;
  removedAt: string | null;
  price: AdPrice | null;
  reactions: number;
};

export type AdReport = { items: AdReportItem[]; totals: { currency: AdCurrency; amount: number }[] };
