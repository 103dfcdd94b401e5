/*
 * The rules of a post's details dialog (spec §2/§4), apart from how it looks: which actions a
 * post offers, the lines its facts read, the two answers to an uncertain post and what each
 * asks the server, and the state of the published text's edit. The dialog's pieces
 * (components/PostDetailsDialog/*) only draw what these decide.
 */
import { now, toCalendarDate } from "@internationalized/date";
import type { Post } from "../../../contract/posts.ts";
import type { Action } from "../../../contract/team.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";
import { clockText, zonedAt } from "./projectTime.ts";
import { type CalendarPost, isVirtualPost, type VirtualPost } from "./recurrence.ts";
import { formatEndDay } from "./seriesEnd.ts";

/** What a post offers in its details; every piece of the dialog reads the same answers. */
export type PostDetailsState = {
  /** A future date of a series, drawn from it: skipped or brought back, never edited alone. */
  virtual: boolean;
  skipped: boolean;
  /** A post of a former channel is history: nothing to edit or answer (the API refuses it). */
  history: boolean;
  isPublished: boolean;
  /** Only a planned one-time post is sent for approval from here. */
  canPublish: boolean;
  /** A stopped series has nothing left to edit: it is deleted and scheduled anew once drafts exist. */
  canEditSchedule: boolean;
  /** The question its admin got in Telegram is asked here too; whoever answers first decides. */
  asksUncertain: boolean;
  /** A published post's text is edited (and a waiting edit shown) in the dialog itself. */
  canEditText: boolean;
  /** The channel messages of a published post, as [channel, url]. */
  links: [string, string][];
  /** Delete, resend or move, and a series' date skipped: what the caller's role allows (withRole). */
  canDelete: boolean;
  canSkip: boolean;
  canResend: boolean;
};

/** Statuses an author may still take back: nothing of them reached Telegram (sql delete_post). */
const UNSENT = new Set(["draft", "in_review", "rejected", "failed"]);

/**
 * What the dialog offers, narrowed to the caller's role (docs/teams.md): a viewer only reads;
 * an author writes and plans, and their Publish sends the post to review (docs/review.md), but
 * does not answer Telegram's questions or change what reached it. The database refuses the
 * same; this only leaves the buttons out.
 */
export function withRole(state: PostDetailsState, post: CalendarPost<Post>, can: (action: Action) => boolean): PostDetailsState {
  const writes = can("posts.write");
  const publishes = can("posts.publish");
  return {
    ...state,
    // an author's Publish is "Send for review"
    canPublish: state.canPublish && writes,
    canEditSchedule: state.canEditSchedule && writes && (!state.isPublished || publishes),
    asksUncertain: state.asksUncertain && publishes,
    canEditText: state.canEditText && publishes,
    canDelete: writes && (publishes || UNSENT.has(post.status)),
    canSkip: state.canSkip && writes,
    canResend: publishes,
  };
}

export function postDetailsState(post: CalendarPost<Post>): PostDetailsState {
  const virtual = isVirtualPost(post);
  const history = post.channelChanged === true;
  const isPublished = !virtual && post.status === "published";
  return {
    virtual,
    skipped: virtual && post.skipped,
    history,
    isPublished,
    canPublish: !virtual && !post.isRecurring && post.status === "draft",
    canEditSchedule: !(post.isRecurring && post.status === "failed"),
    asksUncertain: post.status === "uncertain" && !virtual && !history,
    canEditText: isPublished && !history,
    links: post.status === "published" ? Object.entries(post.publishedLinks ?? {}) : [],
    canDelete: true,
    canSkip: virtual,
    canResend: true,
  };
}

/** A post's options as short readable lines: silent, pinned (and for how long), link preview, buttons. */
export function optionLines(t: TFunction, post: Pick<Post, "options">): string[] {
  const options = post.options ?? {};
  const lines: string[] = [];
  if (options.silent) lines.push(t("postOptions.silent"));
  if (options.pin) {
    lines.push(options.unpinAfterHours ? t("schedule.details.pinnedFor", { hours: options.unpinAfterHours }) : t("schedule.details.pinned"));
  }
  if (options.linkPreview === "above") lines.push(`${t("postOptions.linkPreview")}: ${t("postOptions.linkPreviewAbove").toLowerCase()}`);
  if (options.linkPreview === "below") lines.push(`${t("postOptions.linkPreview")}: ${t("postOptions.linkPreviewBelow").toLowerCase()}`);
  const buttons = (options.buttons ?? []).flat();
  if (buttons.length > 0) lines.push(t("schedule.details.buttons", { names: buttons.map((button) => button.text).join(", ") }));
  return lines;
}

/** A series' end in a few words ("After post 5 (2 made so far)", "3 Dec is the last day"), or null when it runs on. */
export function seriesEndText(t: TFunction, series: Pick<Post, "endsAfter" | "endsOn" | "occurrencesMade">, locale: string, timeZone: string): string | null {
  const endsAfter = series.endsAfter ?? null;
  const endsOn = series.endsOn ?? null;
  if (endsAfter !== null) return t("schedule.details.endsAfter", { count: endsAfter, made: series.occurrencesMade ?? 0 });
  if (endsOn !== null) return t("schedule.details.endsOn", { date: formatEndDay(endsOn, locale, now(timeZone).year) });
  return null;
}

/** The post's time on the reader's own clock when it reads differently there (another hour or day), else null. */
export function localClock(scheduledFor: string, timeZone: string, localZone: string): string | null {
  if (localZone === timeZone) return null;
  const at = zonedAt(scheduledFor, timeZone);
  const local = zonedAt(scheduledFor, localZone);
  const differs = clockText(local) !== clockText(at) || toCalendarDate(local).compare(toCalendarDate(at)) !== 0;
  return differs ? clockText(local) : null;
}

/** What skipping (or bringing back) a series' date asks the server: that date of that series, flipped. */
export function skipRequest(occurrence: Pick<VirtualPost, "originalPostId" | "scheduledFor" | "skipped">) {
  return { seriesId: occurrence.originalPostId, at: occurrence.scheduledFor, skip: !occurrence.skipped };
}

/** The two answers to "is the uncertain post in the channel?", and what each sends. */
export const UNCERTAIN_ANSWERS = [
  { answer: "inChannel", inChannel: true, label: "schedule.uncertain.inChannel", testId: "post-in-channel" },
  { answer: "sendAgain", inChannel: false, label: "schedule.uncertain.sendAgain", testId: "post-send-again" },
] as const;
export type UncertainAnswer = (typeof UNCERTAIN_ANSWERS)[number]["answer"];

/**
 * What the person is told after answering, from the post the server returned: their answer
 * took (published, or approved to go again), or someone answered first (the admin in
 * Telegram) and the post had already moved on.
 */
export function uncertainOutcome(inChannel: boolean, answered: Pick<Post, "status">): TranslationKey {
  if (inChannel && answered.status === "published") return "schedule.uncertain.markedPublished";
  if (!inChannel && answered.status === "approved") return "schedule.uncertain.willSendAgain";
  return "schedule.uncertain.alreadyAnswered";
}

/**
 * The published text's edit: whether it is open, and whether the focus goes back to the
 * "Edit text" button once it closes (only after the person sent or gave it up, not when
 * another post or closing the dialog dropped it).
 */
export type TextEditState = { editing: boolean; returnFocus: boolean };
export type TextEditEvent =
  /** The dialog opened, closed, or shows another post: the edit opens only if asked and allowed. */
  | { type: "show"; opened: boolean; startEditing: boolean; history: boolean }
  | { type: "open" }
  | { type: "done" }
  | { type: "focusReturned" };

export const TEXT_EDIT_CLOSED: TextEditState = { editing: false, returnFocus: false };

export function textEditReducer(state: TextEditState, event: TextEditEvent): TextEditState {
  switch (event.type) {
    case "show":
      return { ...state, editing: event.opened && event.startEditing && !event.history };
    case "open":
      return { editing: true, returnFocus: false };
    case "done":
      return { editing: false, returnFocus: true };
    case "focusReturned":
      return { ...state, returnFocus: false };
  }
}
