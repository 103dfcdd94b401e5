import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { uploadedImage } from "../helpers/images.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let alice: string;
let bob: string;
let projectId: number;
let bobProjectId: number;
beforeAll(async () => {
  stack = await startStack();
  alice = (await stack.signIn(uniqueEmail("alice"))).cookie;
  bob = (await stack.signIn(uniqueEmail("bob"))).cookie;
  projectId = (await stack.call("POST", "/api/projects", { name: "Drafts", adminHandle: "admin_one" }, alice)).json.id;
  bobProjectId = (await stack.call("POST", "/api/projects", { name: "Bob's", adminHandle: "admin_two" }, bob)).json.id;
});
afterAll(() => stack.close());

const base = () => `/api/projects/${projectId}/drafts`;
const titles = async () => (await stack.call("GET", base(), undefined, alice)).json.map((d: { title: string }) => d.title);

describe("drafts", () => {
  test("create, list, update and delete one draft", async () => {
    const created = await stack.call("POST", base(), { title: " First ", content: "Body", imageUrl: "", order: -1, projectId }, alice);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ title: "First", content: "Body", imageUrl: null, order: -1, status: "draft", projectId });
    const id = created.json.id;
    const imageUrl = await uploadedImage(stack, projectId, alice);
    const patched = await stack.call("PATCH", `${base()}/${id}`, { title: "First, edited", imageUrl }, alice);
    expect(patched.json).toMatchObject({ title: "First, edited", content: "Body", imageUrl });
    const noImage = await stack.call("PATCH", `${base()}/${id}`, { imageUrl: null }, alice);
    expect(noImage.json.imageUrl).toBeNull();
    expect((await stack.call("DELETE", `${base()}/${id}`, undefined, alice)).status).toBe(200);
    expect(await titles()).not.toContain("First, edited");
  });

  test("a draft needs a title (drafts.titleRequired)", async () => {
    for (const body of [{}, { title: "" }, { title: "   " }, { title: 7 }]) {
      const res = await stack.call("POST", base(), body, alice);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message: "drafts.titleRequired", code: "validation" });
    }
    const res = await stack.call("PATCH", `${base()}/1`, { title: "" }, alice);
    expect(res.json.message).toBe("drafts.titleRequired");
  });

  test("bulk add: trimmed lines, blanks ignored, appended in order", async () => {
    const res = await stack.call("POST", `${base()}/bulk`, { titles: ["  Alpha ", "", "Beta", "   ", "Gamma"] }, alice);
    expect(res.status).toBe(201);
    expect(res.json.map((d: { title: string }) => d.title)).toEqual(["Alpha", "Beta", "Gamma"]);
    const list = await titles();
    expect(list.slice(-3)).toEqual(["Alpha", "Beta", "Gamma"]);
  });

  test("bulk add refuses 31 lines (drafts.bulkAddMaxLinesError) and blank-only input (drafts.bulkAddFailed), storing nothing", async () => {
    const before = await titles();
    const tooMany = await stack.call("POST", `${base()}/bulk`, { titles: Array.from({ length: 31 }, (_, i) => `T${i}`) }, alice);
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.message).toBe("drafts.bulkAddMaxLinesError");
    const blanks = await stack.call("POST", `${base()}/bulk`, { titles: ["", "  ", "\t"] }, alice);
    expect(blanks.status).toBe(400);
    expect(blanks.json.message).toBe("drafts.bulkAddFailed");
    expect(await titles()).toEqual(before);
    // exactly 30 is fine
    const thirty = await stack.call("POST", `${base()}/bulk`, { titles: [...Array.from({ length: 30 }, (_, i) => `Line ${i}`), "", " "] }, alice);
    expect(thirty.status).toBe(201);
    expect(thirty.json).toHaveLength(30);
  });

  test("reorder saves the whole order; a foreign id refuses the change", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Order", adminHandle: "admin_one" }, alice)).json.id;
    const made = (await stack.call("POST", `/api/projects/${pid}/drafts/bulk`, { titles: ["A", "B", "C"] }, alice)).json;
    const [a, b, c] = made.map((d: { id: number }) => d.id);
    const ok = await stack.call("POST", `/api/projects/${pid}/drafts/reorder`, { drafts: [{ id: c, order: 0 }, { id: a, order: 1 }, { id: b, order: 2 }] }, alice);
    expect(ok.status).toBe(200);
    const list = async () => (await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice)).json.map((d: { title: string }) => d.title);
    expect(await list()).toEqual(["C", "A", "B"]);

    const bobDraft = (await stack.call("POST", `/api/projects/${bobProjectId}/drafts`, { title: "Bob's" }, bob)).json.id;
    const foreign = await stack.call("POST", `/api/projects/${pid}/drafts/reorder`, { drafts: [{ id: a, order: 0 }, { id: bobDraft, order: 1 }] }, alice);
    expect(foreign.status).toBe(400);
    expect(foreign.json).toEqual({ message: "drafts.reorderFailed", code: "drafts.reorderFailed" });
    expect(await list()).toEqual(["C", "A", "B"]);
  });

  test("deleting a draft whose post is still a draft is refused; a batch delete skips it", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Guard", adminHandle: "admin_one" }, alice)).json.id;
    const made = (await stack.call("POST", `/api/projects/${pid}/drafts/bulk`, { titles: ["Planned", "Free 1", "Free 2"] }, alice)).json;
    await stack.sql`insert into app_public.posts (project_id, draft_id, title, scheduled_for)
                    values (${pid}, ${made[0].id}, 'Planned', now() + interval '1 day')`;
    const refused = await stack.call("DELETE", `/api/projects/${pid}/drafts/${made[0].id}`, undefined, alice);
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ message: "drafts.cannotDeleteScheduled", code: "drafts.cannotDeleteScheduled" });

    // the SPA's batch delete is one call per draft and counts the answers
    const answers = await Promise.all(made.map((d: { id: number }) => stack.call("DELETE", `/api/projects/${pid}/drafts/${d.id}`, undefined, alice)));
    const counts = { deleted: 0, skipped: 0, failed: 0 };
    for (const a of answers) {
      if (a.status === 200) counts.deleted++;
      else if (a.json?.code === "drafts.cannotDeleteScheduled") counts.skipped++;
      else counts.failed++;
    }
    expect(counts).toEqual({ deleted: 2, skipped: 1, failed: 0 });
    const left = (await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice)).json;
    expect(left.map((d: { title: string }) => d.title)).toEqual(["Planned"]);
  });

  test("a draft with a published post leaves the list", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Published", adminHandle: "admin_one" }, alice)).json.id;
    const [done, open] = (await stack.call("POST", `/api/projects/${pid}/drafts/bulk`, { titles: ["Done", "Open"] }, alice)).json;
    await stack.sql`insert into app_public.posts (project_id, draft_id, title, scheduled_for, status)
                    values (${pid}, ${done.id}, 'Done', now(), 'published')`;
    const list = (await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice)).json;
    expect(list.map((d: { id: number }) => d.id)).toEqual([open.id]);
  });

  test("another user's project or draft is 404 and nothing changes", async () => {
    const bobDraft = (await stack.call("POST", `/api/projects/${bobProjectId}/drafts`, { title: "Private" }, bob)).json;
    expect((await stack.call("GET", `/api/projects/${bobProjectId}/drafts`, undefined, alice)).status).toBe(404);
    expect((await stack.call("POST", `/api/projects/${bobProjectId}/drafts`, { title: "x" }, alice)).status).toBe(404);
    expect((await stack.call("POST", `/api/projects/${bobProjectId}/drafts/bulk`, { titles: ["x"] }, alice)).status).toBe(404);
    expect((await stack.call("PATCH", `/api/projects/${bobProjectId}/drafts/${bobDraft.id}`, { title: "x" }, alice)).status).toBe(404);
    expect((await stack.call("DELETE", `/api/projects/${bobProjectId}/drafts/${bobDraft.id}`, undefined, alice)).status).toBe(404);
    // a draft id of Bob's under Alice's own project is not found either
    expect((await stack.call("PATCH", `${base()}/${bobDraft.id}`, { title: "x" }, alice)).status).toBe(404);
    expect((await stack.call("DELETE", `${base()}/${bobDraft.id}`, undefined, alice)).status).toBe(404);
    const still = (await stack.call("GET", `/api/projects/${bobProjectId}/drafts`, undefined, bob)).json;
    expect(still.find((d: { id: number }) => d.id === bobDraft.id).title).toBe("Private");
  });

  test("without a session every drafts call is 401", async () => {
    expect((await stack.call("GET", base())).status).toBe(401);
    expect((await stack.call("POST", `${base()}/bulk`, { titles: ["x"] })).status).toBe(401);
  });

  test("bad input is a 4xx JSON answer", async () => {
    expect((await stack.call("POST", `${base()}/reorder`, { drafts: "nope" }, alice)).status).toBe(400);
    expect((await stack.call("POST", `${base()}/reorder`, "{", alice)).status).toBe(400);
    expect((await stack.call("POST", `${base()}/bulk`, { titles: "one" }, alice)).status).toBe(400);
    const badImage = await stack.call("POST", base(), { title: "x", imageUrl: "javascript:alert(1)" }, alice);
    expect(badImage.status).toBe(400);
    expect(badImage.json.message).toBe("drafts.invalidImageType");
  });
});
