// @vitest-environment happy-dom
/*
 * Write, then schedule, as the keyboard meets it: choosing to write the post here puts the
 * typing in its title (the button that had the focus is gone), coming back puts it in the
 * draft list, not back at the top of the form; a post without a title is refused under the
 * title in the interface language.
 */
import { CalendarDate } from "@internationalized/date";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, test } from "vitest";
import type { DraftSummary } from "../../contract/drafts.ts";
import { ScheduleDialog } from "../../web/src/components/ScheduleDialog/ScheduleDialog.tsx";
import { renderIn } from "./render.tsx";

const day = new CalendarDate(new Date().getUTCFullYear() + 1, 3, 10);
const ready: DraftSummary = {
  id: 7, projectId: 1, title: "Ready draft", imageUrl: null, order: 0, status: "draft", createdAt: "2026-01-01T00:00:00.000Z",
  scheduledPostId: null, heldBySeriesId: null, heldByPlanId: null, nextForSeriesId: null, excerpt: "", imageCount: 0,
};

const WORDS = { ru: "Для разового поста нужен заголовок", en: "Title is required for non-recurring posts" } as const;

for (const language of ["ru", "en"] as const) {
  test(`writing here takes the focus to the title and back to the list; no title is refused under it (${language})`, async () => {
    await renderIn(language, (
      <ScheduleDialog projectId={1} timeZone="Europe/Moscow" target={{ mode: "create", date: day }} opened drafts={[ready]} createdDraft={null}
        onCreateDraft={() => {}} onClose={() => {}} />
    ));
    fireEvent.click(await screen.findByTestId("schedule-write-post"));
    const title = await screen.findByTestId("schedule-written-title");
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(screen.queryByTestId("schedule-draft")).toBeNull();

    fireEvent.submit(screen.getByTestId("schedule-form"));
    await waitFor(() => expect(screen.getByText(WORDS[language])).toBeTruthy());
    expect(title.getAttribute("aria-invalid")).toBe("true");

    fireEvent.click(screen.getByTestId("schedule-pick-draft"));
    const list = await screen.findByTestId("schedule-draft");
    await waitFor(() => expect(document.activeElement).toBe(list));
    // what was said of the written title goes with it
    expect(screen.queryByText(WORDS[language])).toBeNull();
  });
}
