// @vitest-environment happy-dom
/*
 * Advertising posts in the SPA's pieces (issue 37): the editor's section (a preset fills the
 * minutes, which read in words; errors in the reader's language), the ad's facts in the post's
 * details, the delete dialog's warning, and the calendar's list marking ads and their top windows.
 */
import { parseDate } from "@internationalized/date";
import { fireEvent, screen, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import type { Ad, AdState } from "../../contract/ads.ts";
import type { CalendarPostRow, Post } from "../../contract/posts.ts";
import { AdFields } from "../../web/src/components/AdFields/AdFields.tsx";
import { DeletePostDialog } from "../../web/src/components/DeletePostDialog/DeletePostDialog.tsx";
import { AdFacts } from "../../web/src/components/PostDetailsDialog/AdFacts.tsx";
import { ScheduleAgenda } from "../../web/src/components/ScheduleCalendar/ScheduleCalendar.tsx";
import { type AdValues, adValuesOf, validateAd } from "../../web/src/lib/adForm.ts";
import { renderIn } from "./render.tsx";

// 12:00 in Moscow, 4 May 2026
beforeEach(() => void vi.useFakeTimers({ now: Date.parse("2026-05-04T09:00:00Z"), toFake: ["Date"] }));
afterEach(() => void vi.useRealTimers());

const AD: Ad = { advertiser: "ООО Ромашка", advertiserInn: "7707083893", erid: "2VtzqvXYZ1", topMinutes: 60, feedMinutes: 1440, price: { amount: 15000, currency: "RUB" } };
const STATE: AdState = {
  topFrom: "2026-05-04T11:00:00Z",
  topUntil: "2026-05-04T12:00:00Z",
  removeAt: "2026-05-05T11:00:00Z",
  removedAt: null,
  removalRemindedAt: null,
};

/** The section as the editor holds it: its own state, errors once a save was tried. */
function Section({ start, attempted = false, onValue }: { start: AdValues; attempted?: boolean; onValue?: (value: AdValues) => void }) {
  const [value, setValue] = useState(start);
  const [opened, setOpened] = useState(true);
  return (
    <AdFields
      value={value}
      onChange={(next) => {
        setValue(next);
        onValue?.(next);
      }}
      opened={opened}
      onToggle={() => setOpened(!opened)}
      errors={attempted ? validateAd(value) : {}}
    />
  );
}

test("switched on, a preset fills both minutes, which read in words and stay editable (en)", async () => {
  let last: AdValues | undefined;
  await renderIn("en", <Section start={adValuesOf(null)} onValue={(value) => (last = value)} />);
  expect(screen.queryByTestId("ad-advertiser")).toBeNull();
  const enabled = await screen.findByTestId("ad-enabled");
  expect(enabled.getAttribute("role")).toBe("switch");
  fireEvent.click(enabled);
  expect(screen.getByRole("button", { name: "1/24", hidden: true }).getAttribute("aria-pressed")).toBe("true");
  expect(screen.getByText("1 hour on top: nothing else goes out in the channel meanwhile")).toBeTruthy();
  expect(screen.getByText("24 hours, then the bot deletes the post")).toBeTruthy();

  fireEvent.click(screen.getByRole("button", { name: "1/72", hidden: true }));
  expect([last?.topMinutes, last?.feedMinutes]).toEqual([60, 4320]);
  expect(screen.getByRole("button", { name: "1/72", hidden: true }).getAttribute("aria-pressed")).toBe("true");
  // past 48 hours the bot may not delete it: the owner will be told to
  expect(screen.getByText(/^3 days\. A bot may delete only posts younger than 48 hours/)).toBeTruthy();

  fireEvent.click(screen.getByRole("button", { name: "Without removal", hidden: true }));
  expect(screen.getByText("0: the post stays in the channel for good")).toBeTruthy();

  fireEvent.change(screen.getByLabelText("Minutes on top"), { target: { value: "90" } });
  expect(last?.topMinutes).toBe(90);
  expect(screen.getByTestId("ad-format-own").textContent).toBe("Own format");
  expect(screen.getByText("1 hour 30 minutes on top: nothing else goes out in the channel meanwhile")).toBeTruthy();
});

test("a refused field says why in Russian, by its code and limits, never the schema's English (ru)", async () => {
  const start = { ...adValuesOf(null), enabled: true, advertiser: "", advertiserInn: "123", erid: "ab-c" };
  await renderIn("ru", <Section start={start} attempted />);
  const fields = await screen.findByTestId("ad-fields");
  expect(within(fields).getByText("Укажите рекламодателя (от 1 до 200 символов)", { exact: false })).toBeTruthy();
  expect(fields.textContent).toMatch(/ИНН/);
  expect(fields.textContent).toContain("64");
  expect(fields.textContent).not.toMatch(/ads\.|[A-Za-z]{4,} [a-z]{3,} [a-z]{3,}/);
  // the heading sums up the sale while folded
  expect(screen.getByTestId("ad-summary").textContent).toBe("1/24");
});

test("a sale's options it rules out are said under the section in the reader's language (ru, en)", async () => {
  const start = { ...adValuesOf(AD), enabled: true };
  for (const [language, words] of [["ru", "отключите для неё «без звука»"], ["en", "turn off “silent” for it"]] as const) {
    const { unmount } = await renderIn(language, <AdFields value={start} onChange={() => {}} opened onToggle={() => {}} errors={{ format: "ads.silentAd" }} />);
    const alert = await screen.findByTestId("ad-format-error");
    expect(alert.getAttribute("role")).toBe("alert");
    expect(alert.textContent).toContain(words);
    unmount();
  }
});

test("the details name the advertiser, erid, format, price, the top window and the removal (ru, en)", async () => {
  const { unmount } = await renderIn("ru", <dl><AdFacts ad={AD} adState={STATE} timeZone="Europe/Moscow" /></dl>);
  expect((await screen.findByTestId("post-details-advertiser")).textContent).toBe("ООО Ромашка · ИНН 7707083893");
  expect(screen.getByTestId("post-details-erid").textContent).toBe("erid: 2VtzqvXYZ1");
  expect(screen.getByTestId("post-details-ad-format").textContent).toBe("1/24 (1 час в топе, 24 часа в ленте)");
  expect(screen.getByTestId("post-details-ad-price").textContent).toMatch(/^Цена: 15\s000\s₽$/);
  expect(screen.getByTestId("post-details-ad-top").textContent).toMatch(/^С .*, 14:00 до 15:00$/);
  expect(screen.getByTestId("post-details-ad-removal").textContent).toMatch(/^Бот удалит пост .*14:00$/);
  unmount();

  const due = { ...STATE, removeAt: "2026-05-07T11:00:00Z", removalRemindedAt: "2026-05-07T11:00:05Z" };
  await renderIn("en", <dl><AdFacts ad={{ ...AD, feedMinutes: 4320 }} adState={due} timeZone="Europe/Moscow" /></dl>);
  const removal = await screen.findByTestId("post-details-ad-removal");
  expect(removal.dataset.standing).toBe("dueByHand");
  expect(removal.textContent).toBe("Its term is over: delete it in the channel yourself (a bot may not delete posts older than 48 hours)");
});

const post = (overrides: Partial<Post>) =>
  ({
    id: 5, title: "Ромашка весной", status: "published", scheduledFor: STATE.topFrom, isRecurring: false, seriesId: null,
    channelChanged: false, ad: AD, adState: STATE, ...overrides,
  }) as Post;

test("deleting an ad within its term warns that the format breaks; after its removal it does not (en, ru)", async () => {
  const dialog = (shown: Post, language: "en" | "ru") =>
    renderIn(language, <DeletePostDialog projectId={1} post={shown} opened timeZone="Europe/Moscow" onClose={() => {}} onDeleted={() => {}} />);
  const { unmount } = await dialog(post({}), "en");
  expect((await screen.findByTestId("delete-ad-format")).textContent).toBe(
    "This is an ad for ООО Ромашка sold as 1/24, and its term is not over. Deleting it now breaks the format: the advertiser may ask for a refund.",
  );
  unmount();
  const planned = await dialog(post({ status: "scheduled" }), "ru");
  expect((await screen.findByTestId("delete-ad-format")).textContent).toContain("Удаление отменит размещение");
  planned.unmount();
  await dialog(post({ adState: { ...STATE, removedAt: "2026-05-05T11:00:02Z" } }), "en");
  await screen.findByTestId("confirm-delete");
  expect(screen.queryByTestId("delete-ad-format")).toBeNull();
});

test("the calendar's list marks an ad by a badge with its name and draws its top window, past midnight on both days (ru)", async () => {
  const row = (id: number, title: string, scheduledFor: string, adState: AdState | null) =>
    ({
      id, title, scheduledFor, adState, status: "scheduled", draftId: null, seriesId: null, isRecurring: false, recurringType: "daily",
      recurringLastPost: null, lastErrorCode: null, lastErrorParams: {}, planId: null, awaitingText: false, endsAfter: null, endsOn: null,
      occurrencesMade: 0, skippedOccurrences: [], hasImage: false,
    }) as CalendarPostRow;
  const late = { ...STATE, topFrom: "2026-05-04T20:30:00Z", topUntil: "2026-05-04T22:30:00Z" }; // 23:30–01:30 in Moscow
  const posts = [row(1, "Своё", "2026-05-04T10:00:00Z", null), row(2, "Ромашка", "2026-05-04T11:00:00Z", STATE), row(3, "Ночная реклама", late.topFrom, late)];
  await renderIn("ru", <ScheduleAgenda today={parseDate("2026-05-04")} timeZone="Europe/Moscow" posts={posts} onOpenPost={() => {}} />);

  const today = (await screen.findAllByTestId("agenda-day"))[0];
  const chips = within(today).getAllByTestId("calendar-post");
  expect(chips.map((chip) => chip.dataset.ad === "true")).toEqual([false, true, true]);
  expect(within(chips[1]).getByTestId("calendar-ad-badge").textContent).toBe("Реклама");
  expect(within(today).getAllByTestId("calendar-top-window").map((band) => band.textContent)).toEqual(["В топе 14:00–15:00", "В топе 23:30–24:00"]);

  const tomorrow = screen.getAllByTestId("agenda-day")[1];
  expect(within(tomorrow).getByTestId("calendar-top-window").textContent).toBe("В топе 00:00–01:30 · реклама предыдущего дня");
});
