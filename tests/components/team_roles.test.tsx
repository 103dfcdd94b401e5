// @vitest-environment happy-dom
/*
 * The SPA follows the project role (docs/teams.md): useProjectRole reads the role the API
 * answers with the project, and the pieces it drives leave out what the role cannot use
 * (not shown disabled): the Members screen's invite form and buttons, the drafts' handles
 * and buttons, a post's Publish and Delete, the content plan's edits; a shared project's
 * card names the role. The data comes from the SWR cache, as the API would have filled it.
 */
import { screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { Route, Routes } from "react-router-dom";
import { SWRConfig } from "swr";
import { expect, test } from "vitest";
import type { DraftSummary } from "../../contract/drafts.ts";
import type { Post } from "../../contract/posts.ts";
import type { Project } from "../../contract/projects.ts";
import { type Action, ROLES, type Role } from "../../contract/team.ts";
import { USER_KEY } from "../../web/src/api/auth.ts";
import { PROJECTS_KEY, projectKey } from "../../web/src/api/projects.ts";
import { membersKey } from "../../web/src/api/team.ts";
import { contentPlansKey } from "../../web/src/api/contentPlans.ts";
import { ContentPlan } from "../../web/src/components/ContentPlan/ContentPlan.tsx";
import { DraftList } from "../../web/src/components/DraftList/DraftList.tsx";
import { PostActions } from "../../web/src/components/PostDetailsDialog/PostActions.tsx";
import { ProjectCard } from "../../web/src/components/ProjectCard/ProjectCard.tsx";
import { useProjectRole } from "../../web/src/hooks/useProjectRole.ts";
import { postDetailsState, withRole } from "../../web/src/lib/postDetails.ts";
import MembersPage from "../../web/src/pages/Members.page.tsx";
import { renderIn } from "./render.tsx";

const project = (role: Role): Project => ({
  id: 7, userId: 1, role, name: "Кофейня", description: "", writingStyle: { formality: 2, seriousness: 2, emojiUsage: 1 },
  adminHandle: "coffee_admin", timezone: "Europe/Moscow", language: "ru", sources: "", createdAt: "2026-11-01T10:00:00Z",
  updatedAt: "2026-11-01T10:00:00Z",
});

/** What the API would have answered, already in the cache: nothing is fetched. */
function Cached({ role, extra = {}, children }: { role: Role | null; extra?: Record<string, unknown>; children: ReactNode }) {
  const entries: [string, unknown][] = [
    [USER_KEY, { id: 2, email: "me@example.com", isAdmin: false }],
    ...(role ? [[projectKey(7), project(role)], [PROJECTS_KEY, [project(role)]]] as [string, unknown][] : []),
    ...Object.entries(extra),
  ];
  const cache = new Map(entries.map(([key, data]) => [key, { data }]));
  return (
    <SWRConfig value={{ provider: () => cache as never, revalidateOnMount: false, revalidateIfStale: false, fetcher: () => new Promise(() => {}) }}>
      {children}
    </SWRConfig>
  );
}

const ACTIONS: Action[] = ["project.update", "members.manage", "channel.manage", "drafts.write", "ai.use", "posts.publish", "plans.write"];

function RoleProbe() {
  const { role, can } = useProjectRole(7);
  return <output data-testid="probe">{`${role ?? "none"}: ${ACTIONS.filter(can).join(" ")}`}</output>;
}

test("useProjectRole answers the project's role and what it lets the account do; nothing before it is known", async () => {
  const seen: Record<string, string> = {};
  for (const role of ROLES) {
    const view = await renderIn("en", <Cached role={role}><RoleProbe /></Cached>);
    seen[role] = (await screen.findByTestId("probe")).textContent ?? "";
    view.unmount();
  }
  expect(seen).toEqual({
    owner: "owner: project.update members.manage channel.manage drafts.write ai.use posts.publish plans.write",
    editor: "editor: drafts.write ai.use posts.publish plans.write",
    author: "author: drafts.write ai.use",
    viewer: "viewer: ",
  });
  await renderIn("en", <Cached role={null}><RoleProbe /></Cached>);
  expect((await screen.findByTestId("probe")).textContent).toBe("none: ");
});

const team = {
  members: [
    { userId: 1, email: "owner@example.com", role: "owner", joinedAt: "2026-11-01T10:00:00Z" },
    { userId: 2, email: "me@example.com", role: "editor", joinedAt: "2026-11-02T10:00:00Z" },
  ],
  invitations: [{ id: 5, email: "new@example.com", role: "author", createdAt: "2026-11-28T10:00:00Z", expiresAt: "2026-12-05T10:00:00Z" }],
};
const membersPage = (role: Role, language: "ru" | "en") =>
  renderIn(
    language,
    <Cached role={role} extra={{ [membersKey(7)]: team }}>
      <Routes><Route path="/project/:id/members" element={<MembersPage />} /></Routes>
    </Cached>,
    "/project/7/members",
  );

test("an owner's Members screen: the invite form, a role select per member, remove and withdraw", async () => {
  await membersPage("owner", "en");
  await screen.findByTestId("invite-form");
  expect(screen.getAllByTestId("member-role")).toHaveLength(2);
  // every member but the account itself, which leaves instead
  expect(screen.getAllByRole("button", { name: /^Remove / })).toHaveLength(1);
  expect(screen.getByRole("button", { name: "Withdraw the invitation to new@example.com" })).toBeTruthy();
  expect(screen.queryByTestId("members-owner-only")).toBeNull();
});

test("an editor's Members screen is read-only with one hint, and leaving is there (ru)", async () => {
  await membersPage("editor", "ru");
  expect((await screen.findByTestId("members-owner-only")).textContent).toBe("Приглашать людей может только владелец");
  expect(screen.queryByTestId("invite-form")).toBeNull();
  expect(screen.queryAllByTestId("member-role")).toHaveLength(0);
  expect(screen.getAllByTestId("member-role-badge").map((badge) => badge.textContent)).toEqual(["Владелец", "Редактор"]);
  expect(screen.queryByTestId("remove-member")).toBeNull();
  expect(screen.queryByTestId("withdraw-invitation")).toBeNull();
  expect(screen.getByRole("button", { name: "Покинуть проект" })).toBeTruthy();
});

const draft = (id: number, title: string) => ({ id, projectId: 7, title, excerpt: "Текст", imageUrl: null, imageCount: 0, order: id,
  status: "draft", createdAt: "2026-11-01T10:00:00Z" }) as unknown as DraftSummary;

test("a viewer's drafts: the titles in order, without handles, checkboxes or buttons", async () => {
  const drafts = [draft(1, "Новые зёрна"), draft(2, "Мастер-класс")];
  const props = { drafts, selected: new Set<number>(), onToggle: () => {}, onEdit: () => {}, onDelete: () => {}, onMove: () => {} };
  const viewer = await renderIn("en", <DraftList readOnly {...props} />);
  expect((await screen.findAllByTestId("draft-row-title")).map((row) => row.textContent)).toEqual(["Новые зёрна", "Мастер-класс"]);
  for (const testId of ["drag-handle", "draft-checkbox", "edit-draft", "delete-draft"]) expect(screen.queryAllByTestId(testId)).toHaveLength(0);
  viewer.unmount();
  await renderIn("en", <DraftList {...props} />);
  expect(await screen.findAllByTestId("edit-draft")).toHaveLength(2);
  expect(screen.getAllByTestId("drag-handle")).toHaveLength(2);
});

const planned = { id: 9, projectId: 7, title: "Анонс", status: "draft", isRecurring: false, seriesId: null, scheduledFor: "2026-12-01T10:00:00Z" } as unknown as Post;
const scheduled = { ...planned, status: "scheduled" } as Post;

async function postButtons(role: Role, post: Post) {
  const state = withRole(postDetailsState(post), post, (action) => (
    { owner: true, editor: action !== "members.manage", author: ["posts.write", "drafts.write"].includes(action), viewer: false }[role] as boolean
  ));
  const view = await renderIn("en", <PostActions projectId={7} post={post} state={state} onEdit={() => {}} onDelete={() => {}} />);
  const shown = ["post-publish", "post-edit", "post-delete"].filter((testId) => screen.queryByTestId(testId));
  view.unmount();
  return shown;
}

test("a post's details: an editor publishes; an author sends for review and edits but does not take back what reached Telegram; a viewer only reads", async () => {
  expect(await postButtons("editor", planned)).toEqual(["post-publish", "post-edit", "post-delete"]);
  expect(await postButtons("author", planned)).toEqual(["post-publish", "post-edit", "post-delete"]);
  expect(await postButtons("author", scheduled)).toEqual(["post-edit"]);
  expect(await postButtons("viewer", planned)).toEqual([]);
});

const slot = { id: 3, projectId: 7, dayOfWeek: 1, time: "09:00", postLength: 1500, timezone: "Europe/Moscow", active: true };

test("the content plan: an editor adds and changes slots; an author sees them without a control", async () => {
  const editor = await renderIn("en", <Cached role="editor" extra={{ [contentPlansKey(7)]: [slot] }}><ContentPlan projectId={7} projectTimeZone="Europe/Moscow" /></Cached>);
  expect(await screen.findAllByTestId("content-plan-slot")).toHaveLength(1);
  for (const testId of ["content-plan-add", "content-plan-slot-edit", "content-plan-slot-active"]) expect(screen.getAllByTestId(testId).length).toBeGreaterThan(0);
  editor.unmount();
  await renderIn("en", <Cached role="author" extra={{ [contentPlansKey(7)]: [slot] }}><ContentPlan projectId={7} projectTimeZone="Europe/Moscow" /></Cached>);
  expect(await screen.findAllByTestId("content-plan-slot")).toHaveLength(1);
  for (const testId of ["content-plan-add", "content-plan-add-slot", "content-plan-suggest", "content-plan-slot-edit", "content-plan-slot-active"]) {
    expect(screen.queryAllByTestId(testId)).toHaveLength(0);
  }
});

test("a shared project's card names the role; the owner's own card does not", async () => {
  const card = (role: Role) => <Cached role={role}><ProjectCard project={project(role)} figures={undefined} figuresLoading={false} onAddTitles={() => {}} /></Cached>;
  const shared = await renderIn("en", card("author"));
  expect((await screen.findByTestId("card-role")).textContent).toBe("Author");
  shared.unmount();
  const viewer = await renderIn("ru", card("viewer"));
  expect((await screen.findByTestId("card-role")).textContent).toBe("Наблюдатель");
  viewer.unmount();
  const own = await renderIn("en", card("owner"));
  await screen.findAllByTestId("project-card");
  expect(own.queryByTestId("card-role")).toBeNull();
});
