import * as v from "valibot";
import { AdSchema, type AdState, type PostAd } from "./ads.ts";
import { EntitiesSchema, formattingFits, type MessageEntity } from "./entities.ts";
import { type PostOptions, PostOptionsSchema } from "./post_options.ts";
import type { PostReasonCode, PostReasonParams } from "./post_reasons.ts";
import { PUBLISHED_PAGE_MAX, PUBLISHED_PAGE_SIZE, SERIES_ENDS_AFTER_MAX } from "./limits.ts";
import { isoDay, isoInstant } from "./time.ts";

export const POST_STATUSES = ["draft", "in_review", "scheduled", "approved", "sending", "published", "rejected", "failed", "uncertain"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
export const RECURRING_TYPES = ["none", "daily", "weekly"] as const;

/** Spec §5: the schedule form (the SPA validates with it before building the request). Hours 0-23 (one or two digits), two-digit minutes. */
export const TIME_PATTERN = /^([01]?[0-9]|2[0-3]):[0-5][0-9]$/;
export const ScheduleFormSchema = v.pipe(
  v.object({
    title: v.optional(v.string(), ""),
    scheduledTime: v.pipe(v.string("schedule.invalidTime"), v.regex(TIME_PATTERN, "schedule.invalidTime")),
    recurringType: v.optional(v.picklist(RECURRING_TYPES), "none"),
    draftId: v.optional(v.nullable(v.number())),
  }),
  v.forward(
    v.check((form) => form.recurringType !== "none" || form.title.trim() !== "", "schedule.titleRequired"),
    ["title"],
  ),
);

/** A series ends after this many posts (the schedule form checks what it sends with it too). */
export const SeriesEndsAfterSchema = v.nullable(v.pipe(
  v.number("schedule.seriesEndsAfterInvalid"),
  v.integer("schedule.seriesEndsAfterInvalid"),
  v.minValue(1, "schedule.seriesEndsAfterInvalid"),
  v.maxValue(SERIES_ENDS_AFTER_MAX, "schedule.seriesEndsAfterInvalid"),
));

/** A series ends on this day (YYYY-MM-DD, in the project's zone). */
export const SeriesEndsOnSchema = v.nullable(isoDay("schedule.seriesEndsOnInvalid"));

/**
 * The body of POST and PUT /api/projects/{id}/posts[/{postId}] (spec §7). A post made from
 * a draft takes the draft's formatting and options unless the body gives its own.
 */
export const PostWriteSchema = v.pipe(v.object({
  projectId: v.optional(v.unknown()),
  draftId: v.optional(v.nullable(v.pipe(v.number("schedule.selectDraft"), v.integer("schedule.selectDraft"), v.minValue(1, "schedule.selectDraft")))),
  scheduledFor: isoInstant("schedule.scheduledForInvalid", "schedule.scheduledForMissing"),
  isRecurring: v.optional(v.boolean("schedule.isRecurringInvalid"), false),
  recurringType: v.optional(v.picklist(RECURRING_TYPES, "schedule.recurringTypeInvalid"), "none"),
  title: v.optional(v.pipe(v.string(), v.maxLength(500)), ""),
  content: v.optional(v.pipe(v.string(), v.maxLength(20000)), ""),
  entities: v.optional(EntitiesSchema),
  options: v.optional(PostOptionsSchema),
  /** A sold post (contract/ads.ts): absent takes the draft's, null none. A series is never an ad (ads.notInSeries). */
  ad: v.optional(AdSchema),
  /** A series' end (docs/autopilot-and-ai.md "Autopilot"): after this many posts, or on this day in the project's zone; one of them at most. */
  endsAfter: v.optional(SeriesEndsAfterSchema),
  endsOn: v.optional(SeriesEndsOnSchema),
  /**
   * Write, then schedule: a one-time post written in the schedule form (title, content,
   * entities, options) becomes its new draft in the same request, instead of taking draftId.
   */
  writeDraft: v.optional(v.boolean("schedule.writeDraftInvalid"), false),
}), formattingFits());

/** Skip one future occurrence of a series (skip: true, the default) or bring it back. */
export const SeriesSkipSchema = v.object({
  at: isoInstant("schedule.skipAtInvalid"),
  skip: v.optional(v.boolean("schedule.skipAtInvalid"), true),
});

export const PostDeleteSchema = v.optional(
  v.object({
    deleteFromChannels: v.optional(v.boolean(), false),
    deleteRecurringSeries: v.optional(v.boolean(), false),
  }),
  {},
);

/**
 * The owner's answer for a post awaiting approval (a late one above all): send its preview
 * again as it is (no body, or no scheduledFor), or move it to a future time (a new preview
 * then goes 2 hours before it). Either starts a new round: the old buttons stop counting.
 */
export const PostResendSchema = v.optional(
  v.object({ scheduledFor: v.optional(isoInstant("schedule.scheduledForInvalid")) }, "schedule.scheduledForInvalid"),
  {},
);

/** `from` and `to` of the calendar's range read (`GET …/posts`): both or neither, from before to. */
export const PostsRangeQuery = v.object({
  from: v.optional(isoInstant("posts.rangeNotIso")),
  to: v.optional(isoInstant("posts.rangeNotIso")),
});
/** The lean shapes of `GET …/posts?view=` (api/revalidate.ts listView). */
export const POST_LIST_VIEWS = ["calendar"] as const;

/** A page of Published (`GET …/posts/published`): newest first, after the last post shown (before and beforeId together). */
export const PublishedQuery = v.object({
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(PUBLISHED_PAGE_MAX)), String(PUBLISHED_PAGE_SIZE)),
  before: v.optional(isoInstant("posts.publishedQueryInvalid")),
  beforeId: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,15}$/), v.toNumber())),
});

/** The owner's answer for an uncertain post: it is in the channel, or send it again. */
export const PostResolveSchema = v.object({
  inChannel: v.boolean("schedule.inChannelInvalid"),
});

/** A post as the API answers it (spec §3 Post, plus what the lifecycle adds). */
export type Post = {
  id: number;
  projectId: number;
  draftId: number | null;
  seriesId: number | null;
  title: string;
  content: string;
  entities: MessageEntity[];
  imageUrl: string | null;
  imageUrls: string[];
  options: PostOptions;
  /** The sale it carries (contract/ads.ts) with removedAt, or null; adState says where it stands in its format. */
  ad: PostAd | null;
  adState: AdState | null;
  status: PostStatus;
  createdAt: string;
  scheduledFor: string;
  isRecurring: boolean;
  recurringType: (typeof RECURRING_TYPES)[number];
  recurringLastPost: string | null;
  approvalMessageIds: Record<string, unknown>;
  publishedLinks: Record<string, string>;
  publishedAt: string | null;
  /**
   * Why a post failed, is uncertain, went back to draft, or a series stopped: a code of
   * contract/post_reasons.ts (its English words are there, its params fill them), null
   * when there is none. Replaces lastError, which held English prose.
   */
  lastErrorCode: PostReasonCode | null;
  lastErrorParams: PostReasonParams;
  /** When the channel's message was last edited through an approved edit. */
  editedAt: string | null;
  /** A published post's edit waiting for the approver (docs/post-format.md). */
  pendingEdit: { content: string; entities: MessageEntity[]; buttons: { text: string; url: string }[][]; requestedAt: string } | null;
  /**
   * The post went out (published, or uncertain) in a chat that is no longer the project's
   * connected channel: it is read-only history. Editing it, deleting it from that channel and
   * "it is in the channel" answer 409 posts.channelChanged (docs/trust-model.md); deleting
   * it from Pressa alone still works.
   */
  channelChanged: boolean;
  /** The content plan slot an autopilot post fills (docs/autopilot-and-ai.md "Autopilot"); null for posts planned by hand. */
  planId: number | null;
  /** An autopilot post whose draft had no text, while the AI writes it; it asks for approval after. */
  awaitingText: boolean;
  /** A series' end: after this many posts (occurrencesMade counts those made), or on this day (YYYY-MM-DD, project's zone). */
  endsAfter: number | null;
  endsOn: string | null;
  occurrencesMade: number;
  /** Future occurrences of a series that are skipped (instants). */
  skippedOccurrences: string[];
  /** The member who made it; null for the system's posts (autopilot) and posts older than teams. */
  createdBy: number | null;
  /**
   * The author whose change waits for review (status in_review), or waited (told of the
   * decision); on a series, its occurrences wait for review. Null when an editor or owner wrote it.
   */
  reviewAuthorId: number | null;
  reviewAuthorEmail: string | null;
  /** The author pressed Publish: once approved, the approver is asked at once. */
  reviewPublish: boolean;
  /** When an editor or owner last returned it to draft. */
  returnedAt: string | null;
};

/**
 * A post as the calendar's grid reads it (`GET …/posts?from&to&view=calendar`): what a chip
 * shows and what the grid's projection of a series steps by, without the text, formatting,
 * options and images (the details dialog loads the whole post, `GET …/posts/{postId}`).
 */
export type CalendarPostRow = Pick<
  Post,
  | "id" | "draftId" | "seriesId" | "title" | "status" | "scheduledFor" | "isRecurring" | "recurringType" | "recurringLastPost"
  | "lastErrorCode" | "lastErrorParams" | "planId" | "awaitingText" | "endsAfter" | "endsOn" | "occurrencesMade" | "skippedOccurrences"
  | "adState"
> & { hasImage: boolean };
