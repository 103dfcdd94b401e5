// @vitest-environment happy-dom
import { screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { PostStatusBadge } from "../../web/src/components/PostStatus/PostStatus.tsx";
import type { CalendarPost, GridPost } from "../../web/src/lib/recurrence.ts";
import { renderIn } from "./render.tsx";

// The badge reads only the state: whether the post is a series' repeat, a series, and its status.
function post(fields: Partial<CalendarPost<GridPost>>): CalendarPost<GridPost> {
  return { status: "scheduled", isRecurring: false, ...fields } as CalendarPost<GridPost>;
}

const CASES = [
  { name: "a published post", post: post({ status: "published" }), ru: "Опубликован", en: "Published" },
  { name: "a rejected post", post: post({ status: "rejected" }), ru: "Отклонён", en: "Rejected" },
  { name: "a series that failed (it stopped)", post: post({ status: "failed", isRecurring: true }), ru: "Остановлен", en: "Stopped" },
  { name: "a series' future repeat", post: post({ isVirtual: true, isRecurring: true, originalPostId: 1, offset: 1 }), ru: "Будущий повтор", en: "Upcoming repeat" },
] as const;

for (const language of ["ru", "en"] as const) {
  for (const { name, post, ...words } of CASES) {
    test(`${name} reads '${words[language]}' (${language})`, async () => {
      await renderIn(language, <PostStatusBadge post={post} />);
      expect((await screen.findByTestId("post-status")).textContent).toBe(words[language]);
    });
  }
}
