// @vitest-environment happy-dom
/*
 * The schedule form warns before submitting a time inside an ad's top window (the server's
 * rule, web/src/lib/adWindows.ts), from the calendar's rows: naming the ad and when its window
 * ends, in the project's time, in both languages; the window's own end is free again.
 */
import { CalendarDate } from "@internationalized/date";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "vitest";
import { AdWindowNote } from "../../web/src/components/ScheduleDialog/ScheduleNotes.tsx";
import { ScheduleDialog } from "../../web/src/components/ScheduleDialog/ScheduleDialog.tsx";
import type { AdWindowSource } from "../../web/src/lib/adWindows.ts";
import { renderIn } from "./render.tsx";

const TIME_ZONE = "Europe/Moscow";
const year = new Date().getUTCFullYear() + 1;
const day = new CalendarDate(year, 3, 10);
// 10:30-11:30 in Moscow (UTC+3)
const rows: AdWindowSource[] = [
  { id: 1, title: "Coffee 1/24", status: "approved", adState: { topFrom: `${year}-03-10T07:30:00.000Z`, topUntil: `${year}-03-10T08:30:00.000Z`, removeAt: null, removedAt: null, removalRemindedAt: null } },
  { id: 2, title: "Our own post", status: "draft", adState: null },
  { id: 3, title: "Refused ad", status: "rejected", adState: { topFrom: `${year}-03-10T06:00:00.000Z`, topUntil: `${year}-03-10T07:00:00.000Z`, removeAt: null, removedAt: null, removalRemindedAt: null } },
];

const WORDS = {
  ru: { warns: ["Это время попадает в окно рекламы «Coffee 1/24» в топе, оно заканчивается 10 мар.", "11:30. Пока реклама в топе"], series: "Первый пост серии попадает в окно рекламы «Coffee 1/24» в топе" },
  en: { warns: ["This time falls in the top window of the ad “Coffee 1/24”, which ends 10 Mar", "11:30. Nothing else goes out"], series: "The first post falls in the top window of the ad “Coffee 1/24”" },
} as const;

for (const language of ["ru", "en"] as const) {
  test(`a time inside an ad's window is warned of, naming the ad and its end; outside it nothing is said (${language})`, async () => {
    await renderIn(language, (
      <ScheduleDialog projectId={1} timeZone={TIME_ZONE} target={{ mode: "create", date: day }} opened drafts={[]} createdDraft={null}
        adRows={rows} onCreateDraft={() => {}} onClose={() => {}} />
    ));
    const time = await screen.findByTestId("schedule-time");
    // 10:00 (the form's first time) is before the window
    expect(screen.queryByTestId("schedule-ad-window")).toBeNull();
    fireEvent.change(time, { target: { value: "10:45" } });
    await waitFor(() => expect(screen.getByTestId("schedule-ad-window").textContent).toContain(WORDS[language].warns[0]));
    expect(screen.getByTestId("schedule-ad-window").textContent).toContain(WORDS[language].warns[1]);
    // the minute the window ends is free again
    fireEvent.change(time, { target: { value: "11:30" } });
    await waitFor(() => expect(screen.queryByTestId("schedule-ad-window")).toBeNull());
    // a rejected ad holds no window
    fireEvent.change(time, { target: { value: "09:15" } });
    await waitFor(() => expect(screen.queryByTestId("schedule-ad-window")).toBeNull());
  });

  test(`a series' first post is told it waits for the window's end (${language})`, async () => {
    await renderIn(language, (
      <AdWindowNote window={{ postId: 1, title: "Coffee 1/24", from: new Date(rows[0].adState!.topFrom), until: new Date(rows[0].adState!.topUntil) }} recurring timeZone={TIME_ZONE} />
    ));
    expect((await screen.findByTestId("schedule-ad-window")).textContent).toContain(WORDS[language].series);
  });
}
