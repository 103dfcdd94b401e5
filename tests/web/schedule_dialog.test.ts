/*
 * The schedule dialog's pieces, by the rules they draw (web/src/lib/scheduleForm.ts): the
 * day and time (WhenFields), the repetition and a series' end (RecurrenceFields), the draft
 * picker and options (DraftPicker), what an edit clears, what is refused before the server is
 * asked, and the request each kind of post sends. The browser tests (schedule,
 * schedule_options, series_end) drive the same pieces in a page.
 */
import { CalendarDate, now, toCalendarDate, ZonedDateTime } from "@internationalized/date";
import { describe, expect, test } from "vitest";
import { SERIES_HORIZON_DAYS } from "../../contract/limits.ts";
import { ApiRequestError } from "../../web/src/api/fetcher.ts";
import {
  dateBounds,
  defaultTime,
  dialogTitleKey,
  draftChoices,
  EMPTY_VALUES,
  errorsAfterChange,
  initialValues,
  isReadOnly,
  normalizeTime,
  refusalErrors,
  repeatChoices,
  type ScheduleForm,
  scheduleRequest,
  type ScheduleValues,
  shownOptions,
  withRepeat,
  type WrittenPost,
} from "../../web/src/lib/scheduleForm.ts";
import { DICTIONARIES, translator } from "../helpers/i18n.ts";
import { draft, post } from "../helpers/posts.ts";

const en = translator(DICTIONARIES.en);
const zone = "Europe/Moscow";
const today = toCalendarDate(now(zone));
const tomorrow = today.add({ days: 1 }).toString();
const at = "2027-03-12T06:00:00Z";

describe("day and time (WhenFields)", () => {
  test("a new post starts at 10:00 on another day, and 15 minutes ahead (rounded up to 5) today", () => {
    const morning = new ZonedDateTime(2027, 3, 12, zone, 3 * 3600_000, 9, 2);
    const day = new CalendarDate(2027, 3, 12);
    expect(defaultTime(day.add({ days: 1 }), zone, morning)).toBe("10:00");
    expect(defaultTime(day, zone, morning)).toBe("09:20");
    // late in the evening it stays on the same day
    expect(defaultTime(day, zone, morning.set({ hour: 23, minute: 50 }))).toBe("23:55");
  });

  test("a time typed in a hurry is tidied on leaving the field; anything else is left for the check", () => {
    for (const typed of ["9:30", "930", "0930", "9.30", " 9 30 "]) expect(normalizeTime(typed), typed).toBe("09:30");
    expect(normalizeTime(" noon ")).toBe("noon");
    expect(normalizeTime("9:5")).toBe("9:5");
  });

  test("the date may not be before today; a series may not start beyond the server's horizon", () => {
    const bounds = dateBounds(zone, new CalendarDate(2027, 1, 1));
    expect(bounds.min).toBe("2027-01-01");
    expect(bounds.maxSeries).toBe(new CalendarDate(2027, 1, 1).add({ days: SERIES_HORIZON_DAYS - 1 }).toString());
  });
});

describe("what the form opens on and what an edit clears", () => {
  test("a new post on a day, an existing series with its kind and end", () => {
    const created = initialValues({ mode: "create", date: new CalendarDate(2099, 5, 1) }, zone);
    expect(created).toEqual({ date: "2099-05-01", time: "10:00", recurringType: "none", draftId: null, end: { mode: "never", after: "", on: "" } });
    const weekly = post({ id: 7, scheduledFor: at, isRecurring: true, recurringType: "weekly", endsAfter: 5 });
    expect(initialValues({ mode: "edit", post: weekly, date: new CalendarDate(2027, 3, 12), time: "09:00" }, zone)).toEqual({
      date: "2027-03-12", time: "09:00", recurringType: "weekly", draftId: null, end: { mode: "after", after: 5, on: "" },
    });
  });

  test("changing a field clears what was said about it and the form's line, nothing else", () => {
    const shown = { time: "bad time", draftId: "choose", form: "in the past", end: "before start" };
    expect(errorsAfterChange(shown, "time")).toEqual({ draftId: "choose", end: "before start", time: undefined, form: undefined });
    expect(errorsAfterChange(shown, "draftId")).toMatchObject({ time: "bad time", draftId: undefined, end: "before start" });
    // the end day is judged against the date, so a new date clears that too
    expect(errorsAfterChange(shown, "date")).toMatchObject({ time: "bad time", draftId: "choose", end: undefined, form: undefined });
  });

  test("a published, sending or uncertain post opens read-only, titled to say so", () => {
    for (const status of ["published", "sending", "uncertain"] as const) expect(isReadOnly(status)).toBe(true);
    for (const status of ["draft", "scheduled", "approved", "failed", undefined] as const) expect(isReadOnly(status)).toBe(false);
    expect(dialogTitleKey(null, false)).toBe("schedule.form.createTitle");
    expect(dialogTitleKey({ isRecurring: true }, false)).toBe("schedule.form.editSeriesTitle");
    expect(dialogTitleKey({ isRecurring: false }, false)).toBe("schedule.form.editTitle");
    expect(dialogTitleKey({ isRecurring: true }, true)).toBe("schedule.form.viewTitle");
  });
});

describe("repetition and a series' end (RecurrenceFields)", () => {
  test("choosing a repetition lets go of the chosen draft: a series takes drafts in turn", () => {
    const oneTime: ScheduleValues = { ...EMPTY_VALUES, draftId: 4 };
    expect(withRepeat(oneTime, "weekly")).toMatchObject({ recurringType: "weekly", draftId: null });
    expect(withRepeat(oneTime, "none")).toMatchObject({ recurringType: "none", draftId: 4 });
  });

  test("an existing post keeps its kind; a new one may be either", () => {
    const disabled = (editing: { isRecurring: boolean } | null) => repeatChoices(editing).filter((c) => c.disabled).map((c) => c.value);
    expect(disabled(null)).toEqual([]);
    expect(disabled({ isRecurring: false })).toEqual(["daily", "weekly"]);
    expect(disabled({ isRecurring: true })).toEqual(["none"]);
  });

  const seriesForm = (values: Partial<ScheduleValues>, editing: ScheduleForm["editing"] = null): ScheduleForm => ({
    values: { ...EMPTY_VALUES, date: tomorrow, time: "09:00", recurringType: "weekly", ...values },
    timeZone: zone, editing, postOptions: {}, draftOptions: {},
  });

  test("a new series sends its kind, time, placeholder words and only the chosen way's end", () => {
    const { input, errors } = scheduleRequest(en, seriesForm({ end: { mode: "after", after: 5, on: "2099-01-01" } }));
    expect(errors).toEqual({});
    expect(input).toEqual({
      isRecurring: true, recurringType: "weekly", scheduledFor: `${tomorrow}T06:00:00.000Z`,
      title: "Recurring post", content: "Each repeat takes the text of the next draft.", endsAfter: 5, endsOn: null,
    });
  });

  test("an edited series keeps its own title and text", () => {
    const own = post({ id: 7, scheduledFor: at, isRecurring: true, recurringType: "daily", title: "Morning news", content: "Good morning" });
    const { input } = scheduleRequest(en, seriesForm({ recurringType: "daily" }, own));
    expect(input).toMatchObject({ recurringType: "daily", title: "Morning news", content: "Good morning", endsAfter: null, endsOn: null });
  });

  test("an end before the first day, or an empty count, is refused by the end field and nothing is sent", () => {
    const before = scheduleRequest(en, seriesForm({ end: { mode: "on", after: "", on: today.toString() } }));
    expect(before).toEqual({ errors: { end: "A series cannot end before its first post" } });
    expect(scheduleRequest(en, seriesForm({ end: { mode: "after", after: "", on: "" } })).errors.end).toBeTruthy();
  });
});

describe("the draft and options (DraftPicker)", () => {
  const drafts = [draft(1, "Free", 1), draft(2, "Taken", 2, 50), draft(3, "Mine", 3, 60)];

  test("drafts another live post holds are not offered; the edited post keeps its own, first when it is held", () => {
    expect(draftChoices(drafts, null)).toEqual([{ value: "1", label: "Free" }]);
    expect(draftChoices(drafts, { id: 60, draftId: 3, title: "Mine" })).toEqual([{ value: "1", label: "Free" }, { value: "3", label: "Mine" }]);
    // its draft gone from the list (published elsewhere, say): still shown, by the post's title
    expect(draftChoices(drafts, { id: 70, draftId: 9, title: "Old one" })[0]).toEqual({ value: "9", label: "Old one" });
  });

  test("the options shown: the person's own, else the post's while it keeps its draft, else the draft's", () => {
    const editing = { draftId: 3, options: { silent: true } };
    expect(shownOptions({ pin: true }, editing, 3, { linkPreview: "above" })).toEqual({ pin: true });
    expect(shownOptions(null, editing, 3, { linkPreview: "above" })).toEqual({ silent: true });
    expect(shownOptions(null, editing, 1, { linkPreview: "above" })).toEqual({ linkPreview: "above" });
    expect(shownOptions(null, null, 1, {})).toEqual({});
  });

  const oneTime = (values: Partial<ScheduleValues>, fields: Partial<ScheduleForm> = {}): ScheduleForm => ({
    values: { ...EMPTY_VALUES, date: tomorrow, time: "9:30", draftId: 1, ...values },
    timeZone: zone, editing: null, chosenSummary: { title: "Spring sale" },
    chosenDraft: { title: "Spring sale", content: "20% off", options: { silent: true } },
    postOptions: { silent: true }, draftOptions: { silent: true }, ...fields,
  });

  test("a one-time post sends its draft, its instant in UTC, and options only when they differ from the draft's", () => {
    const same = scheduleRequest(en, oneTime({}));
    expect(same.input).toEqual({
      isRecurring: false, draftId: 1, scheduledFor: `${tomorrow}T06:30:00.000Z`, title: "Spring sale", content: "20% off", options: undefined,
    });
    const pinned = scheduleRequest(en, oneTime({}, { postOptions: { silent: true, pin: true, buttons: [[{ text: " ", url: "" }]] } }));
    expect(pinned.input).toMatchObject({ options: { silent: true, pin: true } });
  });

  test("no draft chosen, a broken button, a bad time or day, or a time already past: errors instead of a request", () => {
    expect(scheduleRequest(en, oneTime({ draftId: null }, { chosenSummary: undefined, chosenDraft: undefined }))).toEqual({
      errors: { draftId: "Choose a draft for the post" },
    });
    const broken = scheduleRequest(en, oneTime({}, { postOptions: { buttons: [[{ text: "Shop", url: "http://plain.example" }]] } }));
    expect(broken).toEqual({ errors: { options: true } });
    expect(scheduleRequest(en, oneTime({ time: "25:00" })).errors).toEqual({ time: "Please enter a valid time in HH:mm format" });
    expect(scheduleRequest(en, oneTime({ date: "" })).errors).toEqual({ form: "Choose a date" });
    const past = scheduleRequest(en, oneTime({ date: today.subtract({ days: 1 }).toString() }));
    expect(past).toEqual({ errors: { form: "Cannot schedule posts in the past. Please select a future time." } });
  });

  test("write, then schedule: a post written in the form sends its own title and text with writeDraft, and needs a title", () => {
    const written: WrittenPost = { title: " Fresh post ", body: { text: "Written in the calendar", entities: [] } };
    const writing = (values: Partial<ScheduleValues>, text = written) =>
      scheduleRequest(en, oneTime({ draftId: null, ...values }, { chosenSummary: undefined, chosenDraft: undefined, postOptions: {}, draftOptions: {}, written: text }));
    expect(writing({}).input).toEqual({
      isRecurring: false, draftId: null, writeDraft: true, scheduledFor: `${tomorrow}T06:30:00.000Z`,
      title: "Fresh post", content: "Written in the calendar", options: undefined,
    });
    expect(writing({}, { title: "  ", body: { text: "text", entities: [] } })).toEqual({ errors: { draftId: en("schedule.titleRequired") } });
    // its formatting goes with its text, as the draft made from it keeps it
    const bold = { title: "Fresh post", body: { text: "Written in bold", entities: [{ type: "bold" as const, offset: 11, length: 4 }] } };
    expect(writing({}, bold).input).toMatchObject({ content: "Written in bold", entities: [{ type: "bold", offset: 11, length: 4 }] });
    // what a draft may not be is refused under the text, before the server is asked: too long,
    // or formatting past the text's end
    const long = { title: "Fresh post", body: { text: "x".repeat(20_001), entities: [] } };
    expect(writing({}, long)).toEqual({ errors: { content: "The text is too long" } });
    const past = { title: "Fresh post", body: { text: "Short", entities: [{ type: "bold" as const, offset: 2, length: 9 }] } };
    expect(writing({}, past).errors.content).toBe(en("entities.outOfRange"));
    // a series takes drafts in turn: what was written is not sent as a one-time post
    expect(writing({ recurringType: "daily" }).input).toMatchObject({ isRecurring: true });
  });

  test("a refusal from the server is shown by the field it is about", () => {
    const refused = (code: string) => refusalErrors(new ApiRequestError(400, "", { code, message: "" }), "words");
    expect(refused("schedule.draftAlreadyScheduled")).toEqual({ draftId: "words" });
    expect(refused("schedule.pastTime")).toEqual({ form: "words" });
    expect(refused("schedule.seriesEndsTwice")).toEqual({ end: "words" });
    expect(refused("auth.required")).toEqual({});
    expect(refusalErrors(new TypeError("Failed to fetch"), "words")).toEqual({});
  });
});
