// @vitest-environment happy-dom
/*
 * The home card's posts waiting for review (web/src/components/ProjectCard/ProjectCard.tsx,
 * docs/review.md), as each role reads it in both languages: an owner or editor sees how many
 * wait and is led to the review page; an author is told of their own posts in review, leading to
 * the same page, where their comments are; nothing shows when none waits.
 */
import { screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { SWRConfig } from "swr";
import { expect, test } from "vitest";
import type { Project } from "../../contract/projects.ts";
import type { ProjectOverview } from "../../contract/stats.ts";
import type { Role } from "../../contract/team.ts";
import { ProjectCard } from "../../web/src/components/ProjectCard/ProjectCard.tsx";
import { renderIn } from "./render.tsx";

const project = (role: Role): Project => ({
  id: 7, userId: 1, role, name: "Кофейня", description: "", writingStyle: { formality: 2, seriousness: 2, emojiUsage: 1 },
  adminHandle: "coffee_admin", timezone: "Europe/Moscow", language: "ru", sources: "", createdAt: "2026-11-01T10:00:00Z", updatedAt: "2026-11-01T10:00:00Z",
});

const figures = (inReview: number, awaitingApproval = 0): ProjectOverview => ({
  projectId: 7, channelConnected: true, channelAwaitingHandle: null, subscribers: 1200, subscribersChange7d: 3,
  nextPostAt: null, nextPostTitle: null, nextPostRecurring: null, awaitingApproval, lateApproval: 0, lateSince: null,
  failed: 0, uncertain: 0, inReview, adIncome: [],
});

/** The card alone: its queue forecast (a request of its own) never answers here. */
function Quiet({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ provider: () => new Map(), fetcher: () => new Promise(() => {}) }}>{children}</SWRConfig>;
}

const card = (role: Role, overview: ProjectOverview) => (
  <Quiet>
    <ProjectCard project={project(role)} figures={overview} figuresLoading={false} onAddTitles={() => {}} />
  </Quiet>
);

const WORDS = {
  ru: { all: "Ждут проверки: 3", own: "Ваши посты на проверке: 1", awaiting: "Ждут согласования: 2" },
  en: { all: "Waiting for review: 3", own: "Your posts in review: 1", awaiting: "Awaiting approval: 2" },
};

for (const language of ["ru", "en"] as const) {
  test(`a reviewer's card says how many posts wait for review and opens the review page; an author's says theirs (${language})`, async () => {
    const words = WORDS[language];
    for (const role of ["owner", "editor"] as const) {
      const shown = await renderIn(language, card(role, figures(3, 2)));
      const link = await screen.findByRole("link", { name: words.all });
      expect(link.getAttribute("href")).toBe("/project/7/review");
      expect(link.dataset.scope).toBe("all");
      // beside, not instead of, the posts waiting for the channel's approver
      expect(screen.getByTestId("card-awaiting").textContent).toBe(words.awaiting);
      shown.unmount();
    }
    const author = await renderIn(language, card("author", figures(1)));
    const own = await screen.findByRole("link", { name: words.own });
    expect(own.getAttribute("href")).toBe("/project/7/review");
    expect(own.dataset.scope).toBe("own");
    author.unmount();
  });
}

test("nothing waiting for review: the card says nothing of it", async () => {
  await renderIn("en", card("editor", figures(0)));
  await screen.findByTestId("project-figures");
  expect(screen.queryByTestId("card-in-review")).toBeNull();
  expect(screen.queryByText(/review/i)).toBeNull();
});
