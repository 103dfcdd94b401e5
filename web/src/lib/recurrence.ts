/*
 * What the calendar shows (spec §3 Virtual occurrence, §4 Recurring posts). A recurring
 * series is one post; the server creates each real occurrence 2 hours before its time.
 * The calendar shows the occurrences still to come as virtual copies of the series, each
 * with the draft it is going to take. Pure functions: no clock, no DOM.
 */
import { type CalendarDate, parseDate, toCalendarDate, toCalendarDateTime, toZoned, type ZonedDateTime } from "@internationalized/date";
import type { DraftSummary } from "../../../contract/drafts.ts";
import { VIRTUAL_POST_ID_MULTIPLIER } from "./ui.ts";
import type { CalendarPostRow, Post } from "../../../contract/posts.ts";
import { zonedAt } from "./projectTime.ts";

/**
 * What the calendar reads of a post: the lean view's fields (`?view=calendar`); a whole Post
 * has them too, so the details dialog's whole post is a calendar post as well.
 */
export type GridPost = Omit<CalendarPostRow, "hasImage"> & { hasImage?: boolean };

/** A series' rule: what stepping its occurrences reads. */
type SeriesRule = Pick<
  GridPost,
  "isRecurring" | "recurringType" | "scheduledFor" | "recurringLastPost" | "endsAfter" | "endsOn" | "occurrencesMade" | "skippedOccurrences"
>;

/** A future occurrence of a series, shown on the calendar only (spec §3). */
export type VirtualPost<P extends GridPost = CalendarPostRow> = P & {
  isVirtual: true;
  /** The series this occurrence belongs to; deleting or editing it acts on the series. */
  originalPostId: number;
  /** Days (daily) or weeks (weekly) since the series' first date. */
  offset: number;
  /** A date the owner skipped: it takes no draft and nothing is published. */
  skipped: boolean;
};
export type CalendarPost<P extends GridPost = CalendarPostRow> = (P & { isVirtual?: false }) | VirtualPost<P>;

export const isVirtualPost = <P extends GridPost>(post: CalendarPost<P>): post is VirtualPost<P> => post.isVirtual === true;

/**
 * The drafts nobody has claimed yet, in the order given (publishing order: useDrafts sorts
 * by `order`). The drafts list says which live post holds each draft (`scheduledPostId`,
 * whatever its date: the calendar reads only its range); a draft is free when none does, or
 * when the post being edited is the one holding it.
 */
export function availableDrafts<D extends Pick<DraftSummary, "id" | "scheduledPostId">>(drafts: readonly D[], exceptPostId?: number): D[] {
  return drafts.filter((draft) => draft.scheduledPostId === null || draft.scheduledPostId === exceptPostId);
}

/**
 * The same wall-clock time one step later in the project's timezone (DST-safe, like the
 * server). A time the clocks pass twice is the later one, as PostgreSQL reads it.
 */
function nextOccurrence(at: ZonedDateTime, type: SeriesRule["recurringType"], timeZone: string): ZonedDateTime {
  const step = type === "weekly" ? { weeks: 1 } : { days: 1 };
  return toZoned(toCalendarDateTime(at).add(step), timeZone, "later");
}

export type OccurrenceWindow = {
  timeZone: string;
  /** Today in the project's timezone: earlier days get no occurrence. */
  today: CalendarDate;
  /** The last day to expand to (inclusive), e.g. the end of the shown month. */
  until: CalendarDate;
};

/**
 * The occurrences of a series the server has not created yet, up to `until`. The first is
 * the scheduled date, unless that date is past (and not today) or an occurrence was already
 * created (recurringLastPost); then daily or weekly steps from the last occurrence. Days
 * before today are left out: nothing is published in the past. As the server's
 * app_private.series_upcoming: skipped dates take no draft and are marked `skipped`; none
 * after the series' end day, nor beyond "after N posts" (occurrencesMade counts those made).
 */
export function seriesOccurrences(
  series: SeriesRule,
  { timeZone, today, until }: OccurrenceWindow,
): { at: ZonedDateTime; offset: number; skipped: boolean }[] {
  if (!series.isRecurring || series.recurringType === "none") return [];
  const first = zonedAt(series.scheduledFor, timeZone);
  const firstDay = toCalendarDate(first);
  const skipped = new Set((series.skippedOccurrences ?? []).map((at) => new Date(at).getTime()));
  const endDay = series.endsOn ? parseDate(series.endsOn) : null;
  let left = series.endsAfter === null || series.endsAfter === undefined ? Infinity : series.endsAfter - (series.occurrencesMade ?? 0);
  let at = series.recurringLastPost
    ? nextOccurrence(zonedAt(series.recurringLastPost, timeZone), series.recurringType, timeZone)
    : first;
  const occurrences: { at: ZonedDateTime; offset: number; skipped: boolean }[] = [];
  for (let day = toCalendarDate(at); day.compare(until) <= 0 && left > 0 && (!endDay || day.compare(endDay) <= 0); day = toCalendarDate(at)) {
    const isSkipped = skipped.has(at.toDate().getTime());
    if (!isSkipped) left -= 1;
    if (day.compare(today) >= 0) {
      const days = day.compare(firstDay);
      occurrences.push({ at, offset: series.recurringType === "weekly" ? Math.round(days / 7) : days, skipped: isSkipped });
    }
    at = nextOccurrence(at, series.recurringType, timeZone);
  }
  return occurrences;
}

/**
 * The calendar's posts: one-time posts and real occurrences as they are, plus the virtual
 * occurrences of every running series. Occurrences take the unclaimed drafts in turn, in
 * time order across all series (as the server will hand them out); once the drafts run out
 * an occurrence has no draft (the calendar says 'no drafts available'). A stopped series
 * (status failed) has no occurrences. An occurrence carries its draft's title and image mark;
 * the details dialog loads the draft's whole text.
 */
export function calendarPosts<P extends GridPost>(
  posts: readonly P[],
  drafts: readonly Pick<DraftSummary, "id" | "title" | "imageUrl" | "scheduledPostId">[],
  window: OccurrenceWindow,
): CalendarPost<P>[] {
  const queue = availableDrafts(drafts);
  const upcoming = posts
    .filter((post) => post.isRecurring && post.status === "draft")
    .flatMap((series) => seriesOccurrences(series, window).map((occurrence) => ({ series, ...occurrence })))
    .sort((a, b) => a.at.compare(b.at) || a.series.id - b.series.id);

  const virtual = upcoming.map(({ series, at, offset, skipped }): VirtualPost<P> => {
    // a skipped date takes no draft: the calendar shows it crossed out, to bring it back
    const draft = skipped ? undefined : queue.shift();
    return {
      ...series,
      id: series.id * VIRTUAL_POST_ID_MULTIPLIER + offset,
      isVirtual: true,
      originalPostId: series.id,
      offset,
      skipped,
      scheduledFor: at.toAbsoluteString(),
      draftId: draft?.id ?? null,
      title: draft?.title ?? "",
      hasImage: Boolean(draft?.imageUrl),
    };
  });
  const real = posts.filter((post) => !post.isRecurring) as CalendarPost<P>[];
  return [...real, ...virtual];
}

/**
 * A virtual occurrence as the details dialog shows it: the whole series with the
 * occurrence's own fields, the whole text and album of the draft it is going to take, and
 * the options it will go out with: the series' when it has any, else the draft's (buttons,
 * pin), as app_public.spawn_series_occurrence makes the post.
 */
export function wholeOccurrence(
  occurrence: VirtualPost,
  series: Post,
  draft: Pick<Post, "content" | "entities" | "imageUrl" | "imageUrls" | "options"> | null,
): VirtualPost<Post> {
  const seriesOptions = Object.keys(series.options ?? {}).length > 0;
  return {
    ...series,
    ...occurrence,
    content: draft?.content ?? "",
    entities: draft?.entities ?? [],
    imageUrl: draft?.imageUrl || null,
    imageUrls: draft?.imageUrls ?? [],
    options: seriesOptions || !draft ? series.options : draft.options,
  };
}

/** Series that stopped (e.g. `schedule.seriesOutOfDrafts`): the calendar says so above the grid. */
export function stoppedSeries<P extends GridPost>(posts: readonly P[]): P[] {
  return posts.filter((post) => post.isRecurring && post.status === "failed");
}
