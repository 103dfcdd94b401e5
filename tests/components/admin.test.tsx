// @vitest-environment happy-dom
import { screen, within } from "@testing-library/react";
import { expect, test } from "vitest";
import { AdminStats } from "../../web/src/components/AdminStats/AdminStats.tsx";
import { UsersTable } from "../../web/src/components/AdminUsers/UsersTable.tsx";
import { renderIn } from "./render.tsx";

const USERS = [
  { id: 7, email: "owner@example.com", isAdmin: true, projectCount: 2, channelCount: 3, postCount: 41, draftCount: 0 },
  { id: 9, email: "writer@example.com", isAdmin: false, projectCount: 1, channelCount: 0, postCount: 5, draftCount: 2 },
];

test("the users table shows each account's e-mail, whether it is an admin and its counts", async () => {
  await renderIn("en", <UsersTable users={USERS} search="" />);
  const rows = await screen.findAllByTestId("admin-user-row");
  expect(rows.map((row) => within(row).getAllByRole("cell").map((cell) => cell.textContent))).toEqual([
    ["7", "owner@example.com", "Yes", "2", "3", "41", "0"],
    ["9", "writer@example.com", "No", "1", "0", "5", "2"],
  ]);
  expect(screen.getByRole("columnheader", { name: "E-mail" })).toBeTruthy();
});

for (const [language, none, noMatch] of [
  ["ru", "Пользователей пока нет", "Нет пользователей с «zed» в e-mail"],
  ["en", "No users yet", "No users with “zed” in their e-mail"],
] as const) {
  test(`an empty users list says whether nobody signed up or nobody matched (${language})`, async () => {
    const view = await renderIn(language, <UsersTable users={[]} search="" />);
    expect(await screen.findByText(none)).toBeTruthy();
    view.unmount();
    await renderIn(language, <UsersTable users={[]} search="zed" />);
    expect(await screen.findByText(noMatch)).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
  });
}

test("the dashboard's counters show placeholders until the counts arrive, then the counts", async () => {
  const view = await renderIn("ru", <AdminStats stats={undefined} />);
  expect(await screen.findByText("Всего пользователей")).toBeTruthy();
  expect(screen.queryByTestId("stat-users")).toBeNull();
  view.unmount();
  await renderIn("ru", <AdminStats stats={{ userCount: 12, postCount: 340, scheduledTodayCount: 4, bugReportCount: 2, newBugReportCount: 1 }} />);
  expect((await screen.findByTestId("stat-users")).textContent).toBe("12");
  expect(screen.getByTestId("stat-posts").textContent).toBe("340");
  expect(screen.getByTestId("stat-scheduled-today").textContent).toBe("4");
});
