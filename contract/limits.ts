/*
 * Business constants of the product (spec §9), written once and imported by the API,
 * the worker, the bot and the SPA. The stored functions read the ones they share from
 * sql/functions/limits.sql; tests/sql/limits.test.ts keeps both sides equal.
 */
export const SIGN_IN_CODE_LENGTH = 6;
export const SIGN_IN_CODE_TTL_MINUTES = 10;
/** How long the named approver's Allow/Deny request stays open (docs/trust-model.md). */
export const APPROVER_REQUEST_TTL_HOURS = 24;
export const SESSION_TTL_DAYS = 30;

export const CHANNELS_PER_PROJECT = 1;
export const PLATFORMS = ["telegram", "vk", "dzen"] as const;
export const WORKING_PLATFORMS = ["telegram"] as const;

export const DRAFTS_PER_GENERATION_MAX = 30;
export const BULK_ADD_MAX_LINES = 30;
export const GENERATED_TITLES = { min: 1, max: 30, default: 20 } as const;
export const GENERATED_POST_LENGTH = { min: 100, max: 4000, default: 1500 } as const;
/** Spec §9: a content plan slot's post length. */
export const CONTENT_PLAN_POST_LENGTH = { min: 50, max: 5000 } as const;
/** Slots one project's weekly plan may hold (7 a day would already be a lot). */
export const CONTENT_PLAN_SLOTS_MAX = 50;
/** A recurring series may end after at most this many posts. */
export const SERIES_ENDS_AFTER_MAX = 1000;
/** Future dates one series may skip. */
export const SERIES_SKIPS_MAX = 100;
/**
 * How far ahead a series is stepped through: it must start within this many days, and only
 * its dates within them can be skipped (a skip to the year 9999 stepped day by day for 3.5 s).
 */
export const SERIES_HORIZON_DAYS = 400;
/** Recurring series one project may hold (the queue's forecast steps through each one). */
export const SERIES_PER_PROJECT_MAX = 50;
/** The drafts queue is low when it runs dry sooner than this (docs/autopilot-and-ai.md "Autopilot"). */
export const QUEUE_LOW_DAYS = 3;
/** How far ahead the queue's forecast looks. */
export const QUEUE_FORECAST_DAYS = 60;
export const POST_CONTENT_MAX = 4096;
export const PHOTO_CAPTION_MAX = 1024;
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_MAX_DIMENSION_SUM = 10000;
export const IMAGE_MAX_ASPECT_RATIO = 20;

export const WRITING_STYLE_RANGES = {
  formality: { min: 0, max: 4 },
  seriousness: { min: 0, max: 4 },
  emojiUsage: { min: 0, max: 2 },
} as const;
export const WRITING_STYLE_DEFAULTS = { formality: 2, seriousness: 2, emojiUsage: 1 } as const;

export const DEFAULT_TIMEZONE = "Europe/Moscow";
export const LANGUAGES = ["ru", "en"] as const;
export const DEFAULT_LANGUAGE = "ru";

/** Spec §3: UTC plus 23 cities; SQL's is app_private.supported_timezones(). */
export const TIMEZONES = [
  "UTC",
  "Europe/London",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Athens",
  "Europe/Kaliningrad",
  "Europe/Moscow",
  "Europe/Samara",
  "Asia/Yekaterinburg",
  "Asia/Omsk",
  "Asia/Krasnoyarsk",
  "Asia/Irkutsk",
  "Asia/Yakutsk",
  "Asia/Vladivostok",
  "Asia/Magadan",
  "Asia/Kamchatka",
  "Asia/Dubai",
  "Asia/Singapore",
  "Asia/Tokyo",
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "Australia/Sydney",
] as const;

/**
 * The years of any time or day a request carries (contract/time.ts): from before Telegram
 * to the end of the century. PostgreSQL refuses the year 0000, and no post, skip, series or
 * statistic of the product lies outside these.
 */
export const TIME_YEARS = { min: 2000, max: 2100 } as const;
/** The longest range the calendar may ask for at once (a month's grid is at most 42 days). */
export const POSTS_RANGE_MAX_DAYS = 100;
export const CHAT_HISTORY_PAGE_SIZE = 5;
export const CHAT_CONTEXT_MESSAGES = 10;
/** The Published page loads this many posts at a time ("Show more" for the next ones). */
export const PUBLISHED_PAGE_SIZE = 50;
export const PUBLISHED_PAGE_MAX = 100;

export const PROJECT_NAME_MAX = 100;
export const PROJECT_DESCRIPTION_MAX = 2000;
export const PROJECT_SOURCES_MAX = 5000;

/** Characters of a draft's text the drafts list shows (`?view=list`'s excerpt; one more tells the list to end it with "…"). */
export const DRAFT_EXCERPT_LENGTH = 100;
