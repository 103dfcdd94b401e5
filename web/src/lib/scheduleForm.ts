/*
 * The schedule form's rules (spec §2/§3/§5), apart from how it looks: where a target starts,
 * what an edit clears, which repetitions and drafts are offered, what is refused before the
 * server is asked, and the request that is sent. components/ScheduleDialog/* draws the form
 * and calls these; tests/web/schedule_dialog.test.ts holds them to their word.
 */
import { type CalendarDate, now, parseDate, toCalendarDate, type ZonedDateTime } from "@internationalized/date";
import * as v from "valibot";
import { type Draft, DraftCreateSchema, type DraftSummary } from "../../../contract/drafts.ts";
import { SERIES_HORIZON_DAYS } from "../../../contract/limits.ts";
import type { PostOptions } from "../../../contract/post_options.ts";
import { type Post, ScheduleFormSchema } from "../../../contract/posts.ts";
import type { PostWriteInput } from "../api/posts.ts";
import type { TFunction, TranslationKey } from "../i18n/i18n.tsx";
import { type AdWindow, adWindowAt, adWindowOverlapping, type AdWindowSource } from "./adWindows.ts";
import { errorText, hasCode } from "./messages.ts";
import { cleanOptions, hasOptionErrors, sameOptions } from "./postOptions.ts";
import type { FormattedText } from "./postDocument.ts";
import { instantOn } from "./projectTime.ts";
import { availableDrafts } from "./recurrence.ts";
import { type SeriesEndForm, seriesEndForm, seriesEndOf, seriesEndProblem } from "./seriesEnd.ts";

export type RecurringType = Post["recurringType"];

/** What the dialog opens on: a new post on a day, or an existing post (a series for its occurrences). */
export type ScheduleTarget =
  | { mode: "create"; date: CalendarDate }
  | { mode: "edit"; post: Post; date: CalendarDate; time: string };

export type ScheduleValues = { date: string; time: string; recurringType: RecurringType; draftId: number | null; end: SeriesEndForm };
/**
 * `options`: a button is not right; every button's error shows until the next attempt. `end`:
 * the series' end. `draftId` also says a written post's missing title; `content` its text's problem.
 */
export type ScheduleErrors = { time?: string; draftId?: string; content?: string; form?: string; options?: boolean; end?: string };

export const EMPTY_VALUES: ScheduleValues = { date: "", time: "", recurringType: "none", draftId: null, end: seriesEndForm(null) };

/** A friendly first time: on today a few minutes ahead (rounded to 5), otherwise 10:00. */
export function defaultTime(date: CalendarDate, timeZone: string, current: ZonedDateTime = now(timeZone)): string {
  if (toCalendarDate(current).compare(date) !== 0) return "10:00";
  const minutes = Math.min(current.hour * 60 + current.minute + 15, 23 * 60 + 55);
  const rounded = Math.ceil(minutes / 5) * 5;
  return `${String(Math.floor(rounded / 60)).padStart(2, "0")}:${String(rounded % 60).padStart(2, "0")}`;
}

/** Each target starts from its own values: a new post from its day, an existing one from itself. */
export function initialValues(target: ScheduleTarget, timeZone: string): ScheduleValues {
  if (target.mode === "create") {
    return { date: target.date.toString(), time: defaultTime(target.date, timeZone), recurringType: "none", draftId: null, end: seriesEndForm(null) };
  }
  const { post } = target;
  return { date: target.date.toString(), time: target.time, recurringType: post.recurringType, draftId: post.draftId, end: seriesEndForm(post) };
}

/** "9:30" or "0930" typed in a hurry becomes "09:30"; anything else stays for the validator. */
export function normalizeTime(text: string): string {
  const match = /^\s*(\d{1,2})[:.\s]?(\d{2})\s*$/.exec(text);
  return match ? `${match[1].padStart(2, "0")}:${match[2]}` : text.trim();
}

/** Editing a field clears what was said about it (date and time together make the past-time error). */
export function errorsAfterChange(errors: ScheduleErrors, key: keyof ScheduleValues): ScheduleErrors {
  return {
    ...errors,
    form: undefined,
    ...(key === "time" ? { time: undefined } : {}),
    ...(key === "draftId" ? { draftId: undefined } : {}),
    // the end day is refused against the date, so a new date clears that too
    ...(key === "end" || key === "date" ? { end: undefined } : {}),
  };
}

/** Spec §4: choosing a repetition clears the chosen draft; a series takes drafts in turn. */
export function withRepeat(values: ScheduleValues, type: RecurringType): ScheduleValues {
  return { ...values, recurringType: type, draftId: type === "none" ? values.draftId : null };
}

/** A published post, or one being sent or in doubt, opens read-only, with no submit. */
export const isReadOnly = (status: Post["status"] | undefined) => status === "published" || status === "sending" || status === "uncertain";

/** An existing post keeps its kind: a one-time post stays one, a series stays a series. */
export function repeatChoices(editing: Pick<Post, "isRecurring"> | null): { value: RecurringType; disabled: boolean }[] {
  return [
    { value: "none", disabled: Boolean(editing?.isRecurring) },
    { value: "daily", disabled: Boolean(editing && !editing.isRecurring) },
    { value: "weekly", disabled: Boolean(editing && !editing.isRecurring) },
  ];
}

/** The drafts a one-time post may take: those no other live post holds, and the edited post's own. */
export function draftChoices(drafts: readonly DraftSummary[], editing: Pick<Post, "id" | "draftId" | "title"> | null) {
  const free = availableDrafts(drafts, editing?.id);
  const choices = free.map((draft) => ({ value: String(draft.id), label: draft.title }));
  if (editing?.draftId && !free.some((draft) => draft.id === editing.draftId)) {
    choices.unshift({ value: String(editing.draftId), label: editing.title });
  }
  return choices;
}

/**
 * A one-time post's options (issue 16 §5): as the person changed them; else the existing
 * post's own while it keeps its draft; else the chosen draft's.
 */
export function shownOptions(own: PostOptions | null, editing: Pick<Post, "draftId" | "options"> | null, draftId: number | null, draftOptions: PostOptions): PostOptions {
  return own ?? (editing && draftId === editing.draftId ? (editing.options ?? {}) : draftOptions);
}

/** The date field's bounds: not before today, and a series not beyond the horizon the server allows. */
export function dateBounds(timeZone: string, today: CalendarDate = toCalendarDate(now(timeZone))) {
  // the server refuses a series starting later (schedule.seriesStartsBeyondHorizon)
  return { min: today.toString(), maxSeries: today.add({ days: SERIES_HORIZON_DAYS - 1 }).toString() };
}

export function dialogTitleKey(editing: Pick<Post, "isRecurring"> | null, readOnly: boolean): TranslationKey {
  if (readOnly) return "schedule.form.viewTitle";
  if (editing?.isRecurring) return "schedule.form.editSeriesTitle";
  return editing ? "schedule.form.editTitle" : "schedule.form.createTitle";
}

export type ScheduleForm = {
  values: ScheduleValues;
  timeZone: string;
  /** The post being edited, or null for a new one. */
  editing: Post | null;
  /** The chosen draft as the drafts list has it (its title), and whole once loaded (its text and options). */
  chosenSummary?: Pick<DraftSummary, "title">;
  chosenDraft?: Pick<Draft, "title" | "content" | "options">;
  /** The options shown, and the chosen draft's own (sent only when they differ). */
  postOptions: PostOptions;
  draftOptions: PostOptions;
  /** A new one-time post written in the form (write, then schedule): its draft is made with it. */
  written?: WrittenPost;
};

/** A post written in the schedule form instead of picking a draft: its title, and its text with its formatting. */
export type WrittenPost = { title: string; body: FormattedText };

export const EMPTY_WRITTEN: WrittenPost = { title: "", body: { text: "", entities: [] } };

/** What is wrong with a written post's text (too long, formatting that does not fit), as its draft's own check says. */
function writtenContentProblem(written: WrittenPost): string | undefined {
  const parsed = v.safeParse(DraftCreateSchema, { title: "-", content: written.body.text, entities: written.body.entities });
  if (parsed.success) return undefined;
  const flat = v.flatten<typeof DraftCreateSchema>(parsed.issues);
  const nested = flat.nested ?? {};
  return nested.content?.[0] ?? Object.entries(nested).find(([path]) => path.startsWith("entities"))?.[1]?.[0] ?? flat.root?.[0];
}

/** The request body, or the errors to show instead (spec §5). */
export function scheduleRequest(t: TFunction, form: ScheduleForm): { input?: PostWriteInput; errors: ScheduleErrors } {
  const { values, timeZone, editing, chosenSummary, chosenDraft, postOptions, draftOptions, written } = form;
  const recurring = values.recurringType !== "none";
  const writing = !recurring && !editing && written !== undefined;
  const draftTitle = writing ? written.title.trim() : chosenSummary?.title ?? chosenDraft?.title ?? (values.draftId === editing?.draftId ? editing?.title : undefined) ?? "";
  const parsed = v.safeParse(ScheduleFormSchema, {
    title: recurring ? "" : draftTitle,
    scheduledTime: values.time,
    recurringType: values.recurringType,
    draftId: recurring || writing ? null : values.draftId,
  });
  const found: ScheduleErrors = {};
  if (!parsed.success) {
    const nested = v.flatten<typeof ScheduleFormSchema>(parsed.issues).nested ?? {};
    if (nested.scheduledTime) found.time = errorText(t, nested.scheduledTime[0]);
    if (nested.title) found.draftId = !writing && values.draftId === null ? t("schedule.selectDraft") : errorText(t, nested.title[0]);
  }
  if (!recurring && !writing && values.draftId === null) found.draftId = t("schedule.selectDraft");
  const contentProblem = writing ? writtenContentProblem(written) : undefined;
  if (contentProblem) found.content = errorText(t, contentProblem);
  if (!recurring && hasOptionErrors(postOptions)) found.options = true;
  const end = seriesEndOf(values.end);
  const endProblem = recurring ? seriesEndProblem(end, values.date) : null;
  if (endProblem) found.end = errorText(t, endProblem);
  let date: CalendarDate | null = null;
  try {
    date = parseDate(values.date);
  } catch {
    found.form = t("schedule.form.invalidDate");
  }
  const at = date && !found.time ? instantOn(date, values.time, timeZone) : null;
  if (date && !found.time && !at) found.time = t("schedule.invalidTime");
  // Spec §5: a time that has passed (e.g. earlier today) is refused before asking the server.
  if (at && at.compare(now(timeZone)) <= 0) found.form = t("schedule.pastTime");
  if (Object.values(found).some(Boolean) || !at) return { errors: found };

  const scheduledFor = at.toAbsoluteString();
  if (recurring) {
    const type = values.recurringType === "weekly" ? "weekly" : "daily";
    const title = editing?.title || t("schedule.recurringPlaceholderTitle");
    const content = editing?.content || t("schedule.recurringPlaceholderContent");
    return { input: { isRecurring: true, recurringType: type, scheduledFor, title, content, ...end }, errors: {} };
  }
  return {
    input: {
      isRecurring: false,
      draftId: writing ? null : values.draftId!,
      ...(writing ? { writeDraft: true } : {}),
      scheduledFor,
      title: draftTitle,
      content: writing ? written.body.text : (chosenDraft?.content ?? editing?.content ?? ""),
      // a written post's formatting comes with its text; a draft's is the server's to copy
      ...(writing && written.body.entities.length > 0 ? { entities: written.body.entities } : {}),
      // Sent only when they differ from the draft's: otherwise the server copies the draft's
      // own at that moment (docs/post-format.md), so a post nobody customised follows its
      // draft, a change saved to the draft in another tab meanwhile included, and the request
      // stays what it was for everyone who never opens the options. An existing post with
      // options of its own sends them every time: the server would put the draft's back.
      options: sameOptions(postOptions, draftOptions) ? undefined : cleanOptions(postOptions),
    },
    errors: {},
  };
}

/** A refusal from the server, shown by the field it is about (and always in a toast). */
export function refusalErrors(error: unknown, text: string): ScheduleErrors {
  // a time the server refused (past, or inside an ad's top window) is said under the time
  if (hasCode(error, "schedule.pastTime", "ads.topConflict", "ads.pinOverWindow")) return { form: text };
  if (hasCode(error, "schedule.selectDraft", "schedule.draftAlreadyScheduled")) return { draftId: text };
  if (hasCode(error, "schedule.seriesEndsAfterInvalid", "schedule.seriesEndsOnInvalid", "schedule.seriesEndsTwice", "schedule.seriesEndsBeforeStart")) {
    return { end: text };
  }
  return {};
}

/**
 * The ad's top window the picked time falls in, for the form to warn before it is submitted
 * (the server's rule, lib/adWindows.ts): for a one-off post the window its time is in; for an
 * ad (the chosen draft's, with minutes on top) also any window its own would meet; for a
 * series the window its first post would wait out (a series is held, not refused). The
 * edited post's own window is not in its way. Null while the time is not a time yet.
 */
export function pickedAdWindow(values: Pick<ScheduleValues, "date" | "time" | "recurringType">, timeZone: string, rows: readonly AdWindowSource[], options: {
  editingId?: number | null;
  /** The chosen draft's minutes on top, when it is an ad. */
  topMinutes?: number | null;
}): AdWindow | null {
  let at: ZonedDateTime | null = null;
  try {
    at = instantOn(parseDate(values.date), normalizeTime(values.time), timeZone);
  } catch {
    return null;
  }
  if (!at) return null;
  const from = at.toDate();
  const top = values.recurringType === "none" ? (options.topMinutes ?? 0) : 0;
  return adWindowAt(from, rows, options.editingId) ??
    (top > 0 ? adWindowOverlapping(from, new Date(from.getTime() + top * 60_000), rows, options.editingId) : null);
}
