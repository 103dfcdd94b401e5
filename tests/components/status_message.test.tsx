// @vitest-environment happy-dom
import { screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { StatusMessage } from "../../web/src/components/StatusMessage/StatusMessage.tsx";
import { renderIn } from "./render.tsx";

test("a status page shows its code, names why there is nothing here and links back home", async () => {
  await renderIn(
    "en",
    <StatusMessage code={404} title="Page not found" message="It was moved." homeLabel="Back home" testId="not-found" />,
  );
  expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeTruthy();
  expect(screen.getByText("404")).toBeTruthy();
  expect(screen.getByText("It was moved.")).toBeTruthy();
  expect(screen.getByRole("link", { name: "Back home" }).getAttribute("href")).toBe("/");
});
