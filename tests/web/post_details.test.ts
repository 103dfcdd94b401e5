/*
 * The post details dialog's pieces, by the rules they draw (web/src/lib/postDetails.ts,
 * publishedEdit.ts): which actions a post offers (PostActions), the facts it reads
 * (PostFacts), the uncertain post's two answers and what each sends (UncertainResolution),
 * and the published text's edit: where it starts, what may be sent, when it opens and where
 * the focus goes after (PostTextSection, PublishedPostEdit). The browser tests
 * (schedule, post_edit, channel_history, series_end) drive the same pieces in a page.
 */
import { describe, expect, test } from "vitest";
import { PHOTO_CAPTION_MAX, POST_CONTENT_MAX } from "../../contract/limits.ts";
import {
  localClock,
  optionLines,
  postDetailsState,
  seriesEndText,
  skipRequest,
  TEXT_EDIT_CLOSED,
  type TextEditEvent,
  textEditReducer,
  UNCERTAIN_ANSWERS,
  uncertainOutcome,
} from "../../web/src/lib/postDetails.ts";
import { hasButtonErrors } from "../../web/src/lib/postOptions.ts";
import { canSendPublishedEdit, publishedEditLimit, publishedEditStart } from "../../web/src/lib/publishedEdit.ts";
import type { VirtualPost } from "../../web/src/lib/recurrence.ts";
import { DICTIONARIES, translator } from "../helpers/i18n.ts";
import { post } from "../helpers/posts.ts";

const en = translator(DICTIONARIES.en);
const at = "2027-03-12T06:00:00Z";
const planned = post({ id: 1, scheduledFor: at, title: "Spring sale" });
const series = post({ id: 7, scheduledFor: at, isRecurring: true, recurringType: "daily", status: "scheduled" });
const occurrence = (skipped: boolean) => ({ ...series, id: 7001, isVirtual: true, originalPostId: 7, offset: 1, skipped } as VirtualPost<typeof series>);
const published = post({ id: 2, scheduledFor: at, status: "published", publishedLinks: { city_news: "https://t.me/city_news/41" } });

describe("what a post offers (PostActions, PostTextSection)", () => {
  test("only a planned one-time post is sent for approval from its details", () => {
    expect(postDetailsState(planned).canPublish).toBe(true);
    expect(postDetailsState({ ...planned, status: "scheduled" }).canPublish).toBe(false);
    expect(postDetailsState({ ...series, status: "draft" }).canPublish).toBe(false);
    expect(postDetailsState(occurrence(false)).canPublish).toBe(false);
  });

  test("a stopped series offers no schedule edit; a failed one-time post still does", () => {
    expect(postDetailsState({ ...series, status: "failed" }).canEditSchedule).toBe(false);
    expect(postDetailsState({ ...planned, status: "failed" }).canEditSchedule).toBe(true);
  });

  test("a date of a series is skipped or brought back as that date of that series", () => {
    expect(postDetailsState(occurrence(false))).toMatchObject({ virtual: true, skipped: false });
    expect(skipRequest(occurrence(false))).toEqual({ seriesId: 7, at, skip: true });
    expect(skipRequest(occurrence(true))).toEqual({ seriesId: 7, at, skip: false });
  });

  test("a published post shows its channel links and offers its text to edit, unless its channel changed", () => {
    expect(postDetailsState(published)).toMatchObject({ isPublished: true, canEditText: true, links: [["city_news", "https://t.me/city_news/41"]] });
    expect(postDetailsState({ ...published, channelChanged: true })).toMatchObject({ history: true, canEditText: false });
    // links of a post that is no longer published are not offered
    expect(postDetailsState({ ...published, status: "failed" }).links).toEqual([]);
    expect(postDetailsState(planned).canEditText).toBe(false);
  });
});

describe("the uncertain post's question (UncertainResolution)", () => {
  test("asked of an uncertain post of the current channel only", () => {
    const uncertain = { ...planned, status: "uncertain" as const, lastErrorCode: "posts.error.workerStopped" as const };
    expect(postDetailsState(uncertain).asksUncertain).toBe(true);
    expect(postDetailsState({ ...uncertain, channelChanged: true }).asksUncertain).toBe(false);
    expect(postDetailsState({ ...uncertain, status: "failed" }).asksUncertain).toBe(false);
  });

  test("two buttons, in the interface's words, each sending its own answer", () => {
    expect(UNCERTAIN_ANSWERS.map(({ testId, inChannel, label }) => [testId, inChannel, en(label)])).toEqual([
      ["post-in-channel", true, "It is in the channel"],
      ["post-send-again", false, "Send again"],
    ]);
  });

  test("the answer that took is confirmed; when the admin answered first the person is told so", () => {
    expect(en(uncertainOutcome(true, { status: "published" }))).toBe("Marked as published");
    expect(en(uncertainOutcome(false, { status: "approved" }))).toBe("The post will be sent again");
    // the admin chose the other way in Telegram a moment earlier: the server kept theirs
    expect(uncertainOutcome(true, { status: "approved" })).toBe("schedule.uncertain.alreadyAnswered");
    expect(uncertainOutcome(false, { status: "published" })).toBe("schedule.uncertain.alreadyAnswered");
  });
});

describe("the facts (PostFacts)", () => {
  test("a published post's options read as short lines, in the order a reader scans them", () => {
    const options = { silent: true, pin: true, unpinAfterHours: 24, linkPreview: "above" as const, buttons: [[{ text: "Shop", url: "https://a.example" }], [{ text: "Map", url: "tg://resolve?domain=x" }]] };
    expect(optionLines(en, { options })).toEqual(["Silent", "Pinned, unpinned after 24 h", "Link preview: above the text", "Buttons: Shop, Map"]);
    expect(optionLines(en, { options: { pin: true } })).toEqual(["Pinned"]);
    expect(optionLines(en, { options: {} })).toEqual([]);
  });

  test("a series' end: after N posts with those made so far, on a day (with its year when not this one), or none", () => {
    expect(seriesEndText(en, { endsAfter: 5, endsOn: null, occurrencesMade: 2 }, "en-GB", "UTC")).toBe("After post 5 (2 made so far)");
    expect(seriesEndText(en, { endsAfter: null, endsOn: "2099-12-03", occurrencesMade: 0 }, "en-GB", "UTC")).toBe("3 Dec 2099 is the last day");
    expect(seriesEndText(en, { endsAfter: null, endsOn: null, occurrencesMade: 0 }, "en-GB", "UTC")).toBeNull();
  });

  test("the reader's own clock is added only when it reads differently", () => {
    // 09:00 in Moscow
    expect(localClock(at, "Europe/Moscow", "UTC")).toBe("06:00");
    expect(localClock(at, "Europe/Moscow", "Europe/Moscow")).toBeNull();
    // Istanbul keeps UTC+3 all year too: the same hour on the same day says nothing new
    expect(localClock(at, "Europe/Moscow", "Europe/Istanbul")).toBeNull();
    // 02:00 on the 13th in Tokyo is 17:00 on the 12th in Los Angeles (PST before 14 March)
    expect(localClock("2027-03-12T17:00:00Z", "Asia/Tokyo", "America/Los_Angeles")).toBe("09:00");
  });
});

describe("the published text's edit (PostTextSection, PublishedPostEdit)", () => {
  const run = (...events: TextEditEvent[]) => events.reduce(textEditReducer, TEXT_EDIT_CLOSED);
  const show = (fields: Partial<{ opened: boolean; startEditing: boolean; history: boolean }> = {}): TextEditEvent => ({
    type: "show", opened: true, startEditing: false, history: false, ...fields,
  });

  test("the Published page's Edit opens it straight away, but not on a post of a former channel", () => {
    expect(run(show({ startEditing: true })).editing).toBe(true);
    expect(run(show({ startEditing: true, history: true })).editing).toBe(false);
    expect(run(show({ startEditing: true, opened: false })).editing).toBe(false);
    expect(run(show()).editing).toBe(false);
  });

  test("sent or given up, it closes and the focus goes back to Edit text once; another post drops it without that", () => {
    const done = run(show(), { type: "open" }, { type: "done" });
    expect(done).toEqual({ editing: false, returnFocus: true });
    expect(textEditReducer(done, { type: "focusReturned" })).toEqual(TEXT_EDIT_CLOSED);
    expect(run(show(), { type: "open" }, show({ opened: false }))).toEqual({ editing: false, returnFocus: false });
  });

  test("an edit still waiting for approval is where the next one starts", () => {
    const waiting = { content: "Sale ends Friday", entities: [], buttons: [[{ text: "Shop", url: "https://a.example" }]], requestedAt: at };
    const own = { ...published, content: "Sale ends Thursday", options: { buttons: [[{ text: "Old", url: "https://b.example" }]] } };
    expect(publishedEditStart(own)).toEqual({ body: { text: "Sale ends Thursday", entities: [] }, buttons: own.options.buttons });
    expect(publishedEditStart({ ...own, pendingEdit: waiting })).toEqual({ body: { text: "Sale ends Friday", entities: [] }, buttons: waiting.buttons });
  });

  test("the counter uses the limit of the message the text went out in: a caption 1024, a text message 4096, an album's text beside its buttons 4096", () => {
    const post = { title: "Sale", imageUrl: null, imageUrls: [] as string[], content: "short", options: {} };
    const buttons = [[{ text: "Buy", url: "https://shop.example" }]];
    expect(publishedEditLimit({ ...post, imageUrls: ["a.jpg"] })).toBe(PHOTO_CAPTION_MAX);
    expect(publishedEditLimit({ ...post, imageUrls: ["a.jpg"], content: "x".repeat(PHOTO_CAPTION_MAX + 1) })).toBe(POST_CONTENT_MAX);
    expect(publishedEditLimit(post)).toBe(POST_CONTENT_MAX);
    expect(publishedEditLimit({ ...post, imageUrls: ["a.jpg", "b.jpg"], options: { buttons } })).toBe(POST_CONTENT_MAX);
    expect(publishedEditLimit({ ...post, imageUrls: ["a.jpg", "b.jpg"] })).toBe(PHOTO_CAPTION_MAX);
  });

  test("an empty text or one over the limit cannot be sent; a broken button holds the send back", () => {
    expect(canSendPublishedEdit({ text: "New words", entities: [] }, PHOTO_CAPTION_MAX)).toBe(true);
    expect(canSendPublishedEdit({ text: "  \n ", entities: [] }, PHOTO_CAPTION_MAX)).toBe(false);
    expect(canSendPublishedEdit({ text: "x".repeat(PHOTO_CAPTION_MAX + 1), entities: [] }, PHOTO_CAPTION_MAX)).toBe(false);
    expect(hasButtonErrors([[{ text: "Shop", url: "javascript:alert(1)" }]])).toBe(true);
    expect(hasButtonErrors([[{ text: "", url: "https://a.example" }]])).toBe(true);
    // a blank button is dropped on save, not refused
    expect(hasButtonErrors([[{ text: "", url: "" }]])).toBe(false);
  });
});
