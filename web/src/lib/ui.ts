/*
 * Constants of the interface only (timings, sizes, the ids of not-yet-created occurrences);
 * the product's rules and limits are in contract/limits.ts, shared with the server.
 */
import { DRAFT_EXCERPT_LENGTH } from "../../../contract/limits.ts";

export const POSTS_REFETCH_MS = 5000;
export const JOB_POLL_MS = 1000;
export const JOB_BANNER_DISMISS_MS = 5000;
export const CALENDAR_TICK_MS = 60_000;
/** Width of the schedule page's dialogs (spec §2 Schedule, §9), in px. */
export const SCHEDULE_DIALOG_WIDTH = 425;
export const VIRTUAL_POST_ID_MULTIPLIER = 1_000_000;
/** The drafts list's preview: the server's excerpt (`?view=list`) carries one character more. */
export const DRAFT_PREVIEW_LENGTH = DRAFT_EXCERPT_LENGTH;
