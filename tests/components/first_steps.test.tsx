// @vitest-environment happy-dom
/*
 * A new project's path to its first post (web/src/lib/firstSteps.ts, FirstSteps.tsx): each
 * step ticks itself off from what the project has; the next one carries the button there;
 * the path leaves once all three are done.
 */
import { screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { FirstSteps } from "../../web/src/components/FirstSteps/FirstSteps.tsx";
import { firstSteps } from "../../web/src/lib/firstSteps.ts";
import { renderIn } from "./render.tsx";

test("a fresh project: nothing done, the next step is to connect the channel", async () => {
  await renderIn("en", <FirstSteps projectId={7} steps={firstSteps({ channelConnected: false, drafts: 0, planned: false })} />);
  const path = await screen.findByTestId("first-steps");
  expect(path.textContent).toContain("0 of 3 done");
  const next = screen.getByRole("link", { name: "Connect a channel" });
  expect(next.getAttribute("href")).toBe("/project/7/channels");
  expect(screen.getAllByRole("link")).toHaveLength(1);
});

test("drafts written before the channel: that step ticks, connecting is still next (in Russian)", async () => {
  await renderIn("ru", <FirstSteps projectId={7} steps={firstSteps({ channelConnected: false, drafts: 3, planned: false })} />);
  expect((await screen.findByTestId("first-steps")).textContent).toContain("Готово: 1 из 3");
  expect(screen.getByTestId("first-step-drafts").textContent).toContain("готово");
  expect(screen.getByTestId("first-step-connect").textContent).not.toContain("готово");
  expect(screen.getByRole("link", { name: "Подключить канал" }).getAttribute("href")).toBe("/project/7/channels");
});

test("channel and drafts there: planning is next, on the calendar", async () => {
  await renderIn("en", <FirstSteps projectId={7} steps={firstSteps({ channelConnected: true, drafts: 2, planned: false })} />);
  expect((await screen.findByTestId("first-steps")).textContent).toContain("2 of 3 done");
  expect(screen.getByRole("link", { name: "Open the calendar" }).getAttribute("href")).toBe("/project/7/schedule");
});

test("all three done: the path is gone", async () => {
  await renderIn("en", <FirstSteps projectId={7} steps={firstSteps({ channelConnected: true, drafts: 2, planned: true })} />);
  expect(screen.queryByTestId("first-steps")).toBeNull();
});
