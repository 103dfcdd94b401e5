import * as v from "valibot";
import { type Ad, AdSchema } from "./ads.ts";
import { EntitiesSchema, formattingFits, type MessageEntity } from "./entities.ts";
import { BULK_ADD_MAX_LINES } from "./limits.ts";
import { POST_IMAGES_MAX, type PostOptions, PostOptionsSchema } from "./post_options.ts";

/** Messages here are codes of error_codes.ts (the spec's keys); the SPA translates them. */
export const DraftTitleSchema = v.pipe(
  v.optional(v.string("drafts.titleRequired"), ""),
  v.trim(),
  v.nonEmpty("drafts.titleRequired"),
  v.maxLength(500, "drafts.titleTooLong"),
);

const ContentSchema = v.pipe(v.nullable(v.string("drafts.invalidContent")), v.transform((s) => s ?? ""), v.maxLength(20000, "drafts.contentTooLong"));

/**
 * Our own upload URLs (/api/uploads/<key>) only; "" or null means no image. External
 * images are refused: the image approved must be the image published, and fetching a
 * user's URL from our servers would let anyone make them call any address (docs/limits.md).
 */
export const ImageUrlSchema = v.pipe(
  v.nullable(v.string("drafts.invalidImageType")),
  v.transform((s) => (s ?? "").trim()),
  v.maxLength(1000, "drafts.invalidImageType"),
  v.check((s) => s === "" || /^\/api\/uploads\/[A-Za-z0-9_-]{16,64}\.(png|jpg|webp|gif)$/.test(s), "drafts.invalidImageType"),
);

/** An album: our own upload URLs, first image first (it is also `imageUrl`). */
export const ImageUrlsSchema = v.pipe(
  v.array(v.pipe(v.string("drafts.invalidImageType"), v.regex(/^\/api\/uploads\/[A-Za-z0-9_-]{16,64}\.(png|jpg|webp|gif)$/, "drafts.invalidImageType")), "drafts.invalidImageType"),
  v.maxLength(POST_IMAGES_MAX, "drafts.tooManyImages"),
);

const OrderSchema = v.pipe(v.number("drafts.invalidOrder"), v.integer("drafts.invalidOrder"), v.minValue(-1_000_000, "drafts.invalidOrder"), v.maxValue(1_000_000, "drafts.invalidOrder"));

export const DraftCreateSchema = v.pipe(
  v.object({
    title: DraftTitleSchema,
    content: v.optional(ContentSchema, ""),
    entities: v.optional(EntitiesSchema),
    imageUrl: v.optional(ImageUrlSchema, ""),
    imageUrls: v.optional(ImageUrlsSchema),
    options: v.optional(PostOptionsSchema),
    /** A sold post's format and label (contract/ads.ts); null or absent: no ad. */
    ad: v.optional(AdSchema),
    order: v.optional(OrderSchema, 0),
  }),
  formattingFits(),
);

/** PATCH: new content without entities is plain (the old formatting would not fit it). */
export const DraftUpdateSchema = v.pipe(
  v.object({
    title: v.optional(DraftTitleSchema),
    content: v.optional(ContentSchema),
    entities: v.optional(EntitiesSchema),
    imageUrl: v.optional(ImageUrlSchema),
    imageUrls: v.optional(ImageUrlsSchema),
    options: v.optional(PostOptionsSchema),
    ad: v.optional(AdSchema),
    order: v.optional(OrderSchema),
  }),
  formattingFits(),
);

/** Splits the bulk-add textarea: trimmed, non-blank lines. */
export function bulkTitles(text: string): string[] {
  return text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
}

export const BulkAddSchema = v.object({
  titles: v.pipe(
    v.array(v.pipe(v.string("drafts.bulkAddFailed"), v.maxLength(500, "drafts.titleTooLong")), "drafts.bulkAddFailed"),
    v.maxLength(1000, "drafts.bulkAddMaxLinesError"),
    v.check((titles) => titles.some((t) => t.trim() !== ""), "drafts.bulkAddFailed"),
    v.check((titles) => titles.filter((t) => t.trim() !== "").length <= BULK_ADD_MAX_LINES, "drafts.bulkAddMaxLinesError"),
  ),
});

export const ReorderSchema = v.object({
  drafts: v.pipe(
    v.array(v.object({ id: v.pipe(v.number(), v.integer(), v.minValue(1)), order: OrderSchema }), "drafts.reorderFailed"),
    v.maxLength(10000, "drafts.reorderFailed"),
  ),
});

/**
 * One draft's new place (`POST …/drafts/{draftId}/move`): right after the draft `afterId`,
 * or first when it is null. The key is required, so a body that forgot it moves nothing.
 */
export const MoveDraftSchema = v.object({
  afterId: v.nullable(
    v.pipe(
      v.number("drafts.reorderFailed"),
      v.integer("drafts.reorderFailed"),
      v.minValue(1, "drafts.reorderFailed"),
      v.maxValue(Number.MAX_SAFE_INTEGER, "drafts.reorderFailed"),
    ),
  ),
});

/**
 * What a move answers: the draft's new key, and the other drafts whose keys changed to make
 * room (usually none; a few around the place when its neighbours' keys were adjacent).
 */
export type DraftMoved = { id: number; order: number; respaced: { id: number; order: number }[] };

/** The lean shapes of `GET …/drafts?view=` (api/revalidate.ts listView). */
export const DRAFT_LIST_VIEWS = ["list"] as const;

/** A draft as the API answers it. */
export type Draft = {
  id: number;
  projectId: number;
  title: string;
  content: string;
  /** The content's formatting (contract/entities.ts). */
  entities: MessageEntity[];
  imageUrl: string | null;
  /** The album, first image first (imageUrl is its first image); at most 10. */
  imageUrls: string[];
  /** How a post made from it goes out (contract/post_options.ts). */
  options: PostOptions;
  /** The sale it carries (contract/ads.ts), or null. */
  ad: Ad | null;
  order: number;
  status: "draft";
  createdAt: string;
} & Partial<DraftHolder>;

/**
 * What holds a draft (project_drafts). Answered by the list and by
 * `GET …/drafts/{draftId}`, not by writes. A draft is free when scheduledPostId is null:
 * the same rule as the queue's free count (`GET …/queue-health` draftsLeft).
 */
export type DraftHolder = {
  /** The live post holding this draft (a post not rejected or failed); null: free. */
  scheduledPostId: number | null;
  /** The series whose occurrence that post is (null: a one-time post, or free). */
  heldBySeriesId: number | null;
  /** The content-plan slot autopilot filled with it (null: none). */
  heldByPlanId: number | null;
  /** A free draft only: the running series whose next occurrence takes it (the rotation). */
  nextForSeriesId: number | null;
};

/**
 * A draft as the drafts list shows it (`GET …/drafts?view=list`): its title, the start of
 * its text (DRAFT_EXCERPT_LENGTH characters, trimmed) and flags; the editor loads the whole
 * draft (`GET …/drafts/{draftId}`).
 */
export type DraftSummary = Pick<Draft, "id" | "projectId" | "title" | "imageUrl" | "order" | "status" | "createdAt"> & DraftHolder & {
  excerpt: string;
  /** Images in its album (0: none). */
  imageCount: number;
};
