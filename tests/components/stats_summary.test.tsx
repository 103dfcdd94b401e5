// @vitest-environment happy-dom
/*
 * Statistics' sentences tell the same figures as the big numbers above them: the subscribers'
 * summary ends at the count shown now and gives the same change for the period, even when
 * joins and leaves since the last hourly sample have moved the count.
 */
import { screen } from "@testing-library/react";
import { expect, test } from "vitest";
import type { ChannelStats } from "../../contract/stats.ts";
import { JoinsPanel, SubscribersPanel } from "../../web/src/components/Stats/ChartPanels.tsx";
import { renderIn } from "./render.tsx";

const range = { from: "2026-11-21T00:00:00.000Z", to: "2026-11-28T21:00:00.000Z" };
// Two hourly samples of 2, then eleven people joined since the last one: the count is 13 now.
const stats: ChannelStats = {
  subscribers: { current: 13, points: [{ at: "2026-11-22T09:00:00.000Z", count: 2 }, { at: "2026-11-28T17:00:00.000Z", count: 2 }] },
  days: [{ day: "2026-11-28", joins: 12, leaves: 1 }],
  posts: [],
  bestTimes: [],
};

const figures = (text: string | null) => (text ?? "").match(/[+−-]?\d+/g) ?? [];

for (const language of ["ru", "en"] as const) {
  test(`the subscribers' summary agrees with the big number and the change (${language})`, async () => {
    await renderIn(language, <SubscribersPanel stats={stats} range={range} timeZone="Europe/Moscow" />);
    const now = await screen.findByTestId("stats-subscribers-now");
    const change = screen.getByTestId("stats-subscribers-change");
    const summary = screen.getByTestId("stats-subscribers-summary");
    expect(now.textContent).toBe("13");
    expect(change.textContent).toContain("+11");
    // the sentence starts at the first sample, ends at the figure shown and names the same change
    expect(summary.textContent).toContain("13");
    expect(summary.textContent).toContain("+11");
    expect(figures(summary.textContent)).toContain("2");
    expect(summary.textContent).toContain(language === "ru" ? "сейчас" : "now");
  });

  test(`the joins' summary adds up to the table's figures (${language})`, async () => {
    await renderIn(language, <JoinsPanel stats={stats} range={range} timeZone="Europe/Moscow" />);
    const summary = await screen.findByTestId("stats-joins-summary");
    expect(figures(summary.textContent)).toEqual(["12", "1", "+11"]);
  });
}
