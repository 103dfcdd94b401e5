/*
 * The content plan (spec §3, §5, §9): weekly slots a project posts at. dayOfWeek counts from
 * Sunday (0) as JavaScript's Date does; time is HH:MM on a 24-hour clock in the slot's own
 * time zone. Messages are codes of error_codes.ts.
 */
import * as v from "valibot";
import { CONTENT_PLAN_POST_LENGTH, DEFAULT_TIMEZONE, TIMEZONES } from "./limits.ts";

/** HH:MM with two-digit hours, 00:00 to 23:59. */
export const PLAN_TIME_PATTERN = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

const DaySchema = v.pipe(v.number("contentPlans.dayInvalid"), v.integer("contentPlans.dayInvalid"), v.minValue(0, "contentPlans.dayInvalid"), v.maxValue(6, "contentPlans.dayInvalid"));
const TimeSchema = v.pipe(v.string("contentPlans.timeInvalid"), v.regex(PLAN_TIME_PATTERN, "contentPlans.timeInvalid"));
const TimezoneSchema = v.picklist(TIMEZONES, "contentPlans.timezoneInvalid");
const PostLengthSchema = v.pipe(
  v.number("contentPlans.postLengthInvalid"),
  v.integer("contentPlans.postLengthInvalid"),
  v.minValue(CONTENT_PLAN_POST_LENGTH.min, "contentPlans.postLengthInvalid"),
  v.maxValue(CONTENT_PLAN_POST_LENGTH.max, "contentPlans.postLengthInvalid"),
);
const ActiveSchema = v.boolean("contentPlans.activeInvalid");

export const ContentPlanCreateSchema = v.object({
  dayOfWeek: DaySchema,
  time: TimeSchema,
  timezone: v.optional(TimezoneSchema, DEFAULT_TIMEZONE),
  postLength: PostLengthSchema,
  active: v.optional(ActiveSchema, true),
});

export const ContentPlanUpdateSchema = v.object({
  dayOfWeek: v.optional(DaySchema),
  time: v.optional(TimeSchema),
  timezone: v.optional(TimezoneSchema),
  postLength: v.optional(PostLengthSchema),
  active: v.optional(ActiveSchema),
});

/** A slot as the API answers it. */
export type ContentPlan = {
  id: number;
  projectId: number;
  dayOfWeek: number;
  time: string;
  timezone: string;
  postLength: number;
  active: boolean;
  createdAt: string;
};

/**
 * How long the drafts queue lasts at the current plan plus series (docs/autopilot-and-ai.md "Autopilot"):
 * `runsDryAt` is the first slot time or series occurrence left without a draft, null when
 * none comes within QUEUE_FORECAST_DAYS; `low` when it comes within QUEUE_LOW_DAYS.
 */
export type QueueHealth = {
  draftsLeft: number;
  runsDryAt: string | null;
  low: boolean;
  /** Drafts the plan and the running series take in a week. */
  postsPerWeek: number;
};

/** One time the best-times grid suggests: weekday 1 = Monday … 7 = Sunday, hour 0–23, in the project's timezone. */
export type SuggestedTime = {
  weekday: number;
  hour: number;
  avgReactions: number;
  posts: number;
  /** The plan has a slot (active or paused) in the project's timezone on that day within that hour. */
  inPlan: boolean;
};

/**
 * GET /api/projects/{id}/content-plans/suggested-times (docs/statistics.md): the best times,
 * once the last 90 days hold enough posts with reactions; until then how many more posts
 * with reactions that takes, and how many more different times they must cover.
 */
export type SuggestedTimes =
  | { ready: true; times: SuggestedTime[] }
  | { ready: false; postsNeeded: number; timesNeeded: number };
