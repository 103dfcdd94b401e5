// @vitest-environment happy-dom
/*
 * The ad report's screen and the home card's income as a person reads them, in both languages
 * (web/src/pages/Ads.page.tsx, web/src/components/ProjectCard/ProjectCard.tsx): each ad's row
 * with its state of removal and price, the totals per currency, the empty state that says how
 * to sell a post (with the way to the drafts for those who may write them), and the card's
 * month of income, left out when there is none.
 */
import { screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { Route, Routes } from "react-router-dom";
import { SWRConfig } from "swr";
import { expect, test } from "vitest";
import type { AdReport } from "../../contract/ads.ts";
import type { Project } from "../../contract/projects.ts";
import type { ProjectOverview } from "../../contract/stats.ts";
import type { Role } from "../../contract/team.ts";
import { USER_KEY } from "../../web/src/api/auth.ts";
import { PROJECTS_KEY, projectKey } from "../../web/src/api/projects.ts";
import { ProjectCard } from "../../web/src/components/ProjectCard/ProjectCard.tsx";
import AdsPage from "../../web/src/pages/Ads.page.tsx";
import { renderIn } from "./render.tsx";

const HOUR = 3_600_000;
const project = (role: Role): Project => ({
  id: 7, userId: 1, role, name: "Кофейня", description: "", writingStyle: { formality: 2, seriousness: 2, emojiUsage: 1 },
  adminHandle: "coffee_admin", timezone: "Europe/Moscow", language: "ru", sources: "", createdAt: "2026-11-01T10:00:00Z",
  updatedAt: "2026-11-01T10:00:00Z",
});

/** The project in the cache as the API answered it; the report answered for any period. */
function Served({ role, report, children }: { role: Role; report: AdReport; children: ReactNode }) {
  const cache = new Map<string, { data: unknown }>([
    [USER_KEY, { data: { id: 2, email: "me@example.com", isAdmin: false } }],
    [projectKey(7), { data: project(role) }],
    [PROJECTS_KEY, { data: [project(role)] }],
  ]);
  const fetcher = (key: string) => key.startsWith("/api/projects/7/ads?") ? Promise.resolve(report) : new Promise(() => {});
  return <SWRConfig value={{ provider: () => cache as never, revalidateIfStale: false, fetcher }}>{children}</SWRConfig>;
}

const page = (role: Role, report: AdReport) => (
  <Served role={role} report={report}>
    <Routes>
      <Route path="/project/:id/ads" element={<AdsPage />} />
    </Routes>
  </Served>
);

const at = (hoursFromNow: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + hoursFromNow * HOUR).toISOString();
const ad = (postId: number, sentHoursAgo: number, fields: Partial<AdReport["items"][number]>): AdReport["items"][number] => ({
  postId, title: `Пост ${postId}`, advertiser: "ООО «Ромашка»", erid: "2VtzqvXyZ1", scheduledFor: at(-sentHoursAgo), publishedAt: at(-sentHoursAgo),
  topUntil: at(1 - sentHoursAgo), removeAt: at(24 - sentHoursAgo), removedAt: null, price: { amount: 15000, currency: "RUB" }, reactions: 0, ...fields,
});

const REPORT: AdReport = {
  items: [
    ad(4, -20, { publishedAt: null, removeAt: null, price: null }),
    ad(3, 2, { reactions: 1234, price: { amount: 99.99, currency: "USD" } }),
    ad(2, 80, { removeAt: at(-8), advertiser: "ИП Иванов" }),
    ad(1, 30, { removedAt: at(-6) }),
  ],
  totals: [{ currency: "RUB", amount: 30000 }, { currency: "USD", amount: 99.99 }],
};

const WORDS = {
  ru: { kept: "Без удаления", bot: "Бот удалит", dueByHand: "Удалите вручную", removed: "Удалена", planned: "Запланирована", noPrice: "Без цены", rub: "15 000 ₽", usd: "99,99 $" },
  en: { kept: "Kept, not removed", bot: "The bot removes it", dueByHand: "Due for removal by hand", removed: "Removed", planned: "Planned", noPrice: "No price", rub: "RUB 15,000", usd: "US$99.99" },
};

for (const language of ["ru", "en"] as const) {
  test(`each ad's row says where it stands, and the totals are per currency (${language})`, async () => {
    const words = WORDS[language];
    await renderIn(language, page("viewer", REPORT), "/project/7/ads");
    const rows = await screen.findAllByTestId("ad-row");
    expect(rows.map((row) => row.dataset.postId)).toEqual(["4", "3", "2", "1"]);
    const cell = (row: number, testId: string) => (within(rows[row]).getByTestId(testId).textContent ?? "").replace(/\s/g, " ");
    expect(cell(0, "ad-removal")).toBe(words.kept);
    expect(cell(0, "ad-published")).toContain(words.planned);
    expect(cell(0, "ad-price")).toBe(words.noPrice);
    expect(cell(1, "ad-removal")).toContain(words.bot);
    expect(cell(1, "ad-reactions")).toBe(language === "ru" ? "1 234" : "1,234");
    expect(cell(1, "ad-price")).toBe(words.usd);
    expect(cell(2, "ad-advertiser")).toBe("ИП Иванов");
    expect(cell(2, "ad-removal")).toContain(words.dueByHand);
    expect(cell(3, "ad-removal")).toContain(words.removed);
    expect(cell(3, "ad-price")).toBe(words.rub);
    expect(cell(3, "ad-erid")).toBe("2VtzqvXyZ1");
    const totals = screen.getAllByTestId("ads-total");
    expect(totals.map((total) => total.dataset.currency)).toEqual(["RUB", "USD"]);
    expect((totals[1].textContent ?? "").replace(/\s/g, " ")).toBe(words.usd);
    // a phone scrolls the table sideways: the hint says so
    expect(screen.getByTestId("ads-scroll-hint").textContent).toBe(language === "ru" ? "Таблицу можно прокрутить вбок, чтобы увидеть все столбцы." : "Swipe the table sideways to see every column.");
  });
}

test("no ads: the page says how to sell a post, and leads an editor to the drafts (a viewer gets the words alone)", async () => {
  const editor = await renderIn("ru", page("editor", { items: [], totals: [] }), "/project/7/ads");
  const empty = await screen.findByTestId("ads-empty");
  expect(empty.textContent).toContain("раздел «Реклама»");
  expect(within(empty).getByRole("link", { name: "Открыть черновики" }).getAttribute("href")).toBe("/project/7/drafts");
  editor.unmount();
  await renderIn("en", page("viewer", { items: [], totals: [] }), "/project/7/ads");
  const words = await screen.findByTestId("ads-empty");
  expect(words.textContent).toContain("“Advertising” section");
  expect(within(words).queryByRole("link")).toBeNull();
});

const figures = (adIncome: ProjectOverview["adIncome"]): ProjectOverview => ({
  projectId: 7, channelConnected: true, channelAwaitingHandle: null, subscribers: 1200, subscribersChange7d: 3, nextPostAt: null,
  nextPostTitle: null, nextPostRecurring: null, awaitingApproval: 0, lateApproval: 0, lateSince: null, failed: 0, uncertain: 0, inReview: 0, adIncome,
});

test("the home card shows the month's ad income per currency, and nothing when no ad went out", async () => {
  const card = (adIncome: ProjectOverview["adIncome"]) => (
    <Served role="owner" report={{ items: [], totals: [] }}>
      <ProjectCard project={project("owner")} figures={figures(adIncome)} figuresLoading={false} onAddTitles={() => {}} />
    </Served>
  );
  const ru = await renderIn("ru", card([{ currency: "RUB", amount: 45000.5 }, { currency: "XTR", amount: 300 }]));
  const income = await screen.findByTestId("card-ad-income");
  expect(income.textContent?.replace(/\s/g, " ")).toBe("Доход от рекламы за месяц45 000,50 ₽ · 300 ★");
  ru.unmount();
  const en = await renderIn("en", card([{ currency: "EUR", amount: 120 }]));
  expect((await screen.findByTestId("card-ad-income")).textContent).toBe("Ad income this month€120");
  en.unmount();
  await renderIn("en", card([]));
  await screen.findByTestId("project-figures");
  expect(screen.queryByTestId("card-ad-income")).toBeNull();
});
