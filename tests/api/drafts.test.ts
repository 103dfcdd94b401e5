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
      expect(res.json).toEqual({ message: "drafts.titleRequired", code: "drafts.titleRequired" });
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

  test("move puts one draft after another, first (afterId null) or last, and answers its new key", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Move", adminHandle: "admin_one" }, alice)).json.id;
    const made = (await stack.call("POST", `/api/projects/${pid}/drafts/bulk`, { titles: ["A", "B", "C", "D"] }, alice)).json;
    const [a, b, c, d] = made.map((draft: { id: number }) => draft.id);
    const move = (id: number, afterId: number | null) => stack.call("POST", `/api/projects/${pid}/drafts/${id}/move`, { afterId }, alice);
    const list = async () => (await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice)).json as { id: number; title: string; order: number }[];

    const after = await move(d, a);
    expect(after.status).toBe(200);
    // bulk-added drafts have adjacent keys (0, 1, 2, 3): room is made around the place
    expect(after.json).toMatchObject({ id: d, order: expect.any(Number) });
    expect(after.json.respaced.map((r: { id: number }) => r.id).sort()).toEqual([a, b, c].sort());
    expect((await list()).map((draft) => draft.title)).toEqual(["A", "D", "B", "C"]);
    const top = await move(c, null);
    expect(top.json).toEqual({ id: c, order: expect.any(Number), respaced: [] });
    expect((await list()).map((draft) => draft.title)).toEqual(["C", "A", "D", "B"]);
    const bottom = await move(a, b);
    expect(bottom.json).toEqual({ id: a, order: expect.any(Number), respaced: [] });
    const drafts = await list();
    expect(drafts.map((draft) => draft.title)).toEqual(["C", "D", "B", "A"]);
    // the answered key is the one the list shows, and keys are unique
    expect(drafts.find((draft) => draft.id === a)!.order).toBe(bottom.json.order);
    expect(new Set(drafts.map((draft) => draft.order)).size).toBe(4);
  });

  test("move: another account's draft or project, or a place after another account's draft, is 404 and nothing changes", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Move guard", adminHandle: "admin_one" }, alice)).json.id;
    const [a, b] = (await stack.call("POST", `/api/projects/${pid}/drafts/bulk`, { titles: ["A", "B"] }, alice)).json.map((d: { id: number }) => d.id);
    const bobDrafts = (await stack.call("POST", `/api/projects/${bobProjectId}/drafts/bulk`, { titles: ["Bob 1", "Bob 2"] }, bob)).json;
    const [bob1, bob2] = bobDrafts.map((d: { id: number }) => d.id);
    const snapshot = async () => ({
      alice: (await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice)).json,
      bob: (await stack.call("GET", `/api/projects/${bobProjectId}/drafts`, undefined, bob)).json,
    });
    const before = await snapshot();
    for (const [project, draft, afterId] of [
      [bobProjectId, bob2, null], // Bob's draft in Bob's project
      [bobProjectId, bob2, bob1],
      [pid, bob2, a], // Bob's draft named under Alice's project
      [pid, b, bob1], // after one of Bob's drafts
      [bobProjectId, b, null], // Alice's draft under Bob's project
      [pid, 99_999_999, null], // no such draft
    ]) {
      const res = await stack.call("POST", `/api/projects/${project}/drafts/${draft}/move`, { afterId }, alice);
      expect(res.status, `${project}/${draft} after ${afterId}`).toBe(404);
      expect(res.json).toEqual({ message: expect.any(String), code: expect.stringMatching(/^(drafts|projects)\.notFound$/) });
    }
    expect((await stack.call("POST", `/api/projects/${pid}/drafts/${b}/move`, { afterId: null })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  test("move: bad input is 400 JSON {message, code} and nothing changes", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Move input", adminHandle: "admin_one" }, alice)).json.id;
    const [a, b] = (await stack.call("POST", `/api/projects/${pid}/drafts/bulk`, { titles: ["A", "B"] }, alice)).json.map((d: { id: number }) => d.id);
    const path = `/api/projects/${pid}/drafts/${b}/move`;
    const before = (await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice)).json;
    for (const body of [{}, { afterId: String(a) }, { afterId: 1.5 }, { afterId: 0 }, { afterId: -a }, { beforeId: a }, [a], "{", "null"]) {
      const res = await stack.call("POST", path, body, alice);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.json.message).toBe("string");
      expect(typeof res.json.code).toBe("string");
    }
    expect((await stack.call("POST", path, { afterId: "1" }, alice)).json).toEqual({ message: "drafts.reorderFailed", code: "drafts.reorderFailed" });
    // after itself: only the database can tell
    expect((await stack.call("POST", path, { afterId: b }, alice)).json).toEqual({ message: "drafts.reorderFailed", code: "drafts.reorderFailed" });
    expect((await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice)).json).toEqual(before);
  });

  test("5,000 drafts: each move is one short call, concurrent moves all apply, and the whole-list reorder still works", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Big", adminHandle: "admin_one" }, alice)).json.id;
    const count = 5_000;
    const seeded = await stack.sql`
      insert into app_public.drafts (project_id, title, content, sort_order)
      select ${pid}, 'Draft ' || n, repeat('Text of the draft. ', 10), n from generate_series(1, ${count}) n returning id`;
    let order = seeded.map((r) => Number(r.id));
    const ids = [...order];
    const pick = () => ids[Math.floor(Math.random() * count)];
    const replay = (draft: number, after: number | null) => {
      order = order.filter((id) => id !== draft);
      order.splice(after === null ? 0 : order.indexOf(after) + 1, 0, draft);
    };
    const timed = async (draft: number, after: number | null) => {
      const started = performance.now();
      const res = await stack.call("POST", `/api/projects/${pid}/drafts/${draft}/move`, { afterId: after }, alice);
      expect(res.status).toBe(200);
      return { ms: performance.now() - started, respaced: (res.json.respaced as unknown[]).length };
    };

    const listStarted = performance.now();
    const listed = await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, alice);
    const listMs = performance.now() - listStarted;
    expect(listed.json).toHaveLength(count);

    // one after the other: the seeded keys are adjacent, so early moves make room around their place
    const sequential: { ms: number; respaced: number }[] = [];
    for (let i = 0; i < 200; i++) {
      const draft = pick();
      let after: number | null = i % 20 === 0 ? null : pick();
      if (after === draft) after = null;
      sequential.push(await timed(draft, after));
      replay(draft, after);
    }
    // two tabs at once, one draft to the top and another to the bottom: both apply
    const last = order.at(-1)!;
    const [toTop, toBottom] = order.slice(1000, 1002);
    const answers = await Promise.all([
      stack.call("POST", `/api/projects/${pid}/drafts/${toTop}/move`, { afterId: null }, alice),
      stack.call("POST", `/api/projects/${pid}/drafts/${toBottom}/move`, { afterId: last }, alice),
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    replay(toTop, null);
    replay(toBottom, last);
    const stored = await stack.sql`select id, sort_order from app_public.drafts where project_id = ${pid} order by sort_order, created_at, id`;
    expect(stored.map((r) => Number(r.id))).toEqual(order);
    expect(new Set(stored.map((r) => r.sortOrder)).size).toBe(count);

    const ms = sequential.map((m) => m.ms).sort((x, y) => x - y);
    const plain = sequential.filter((m) => m.respaced === 0).map((m) => m.ms).sort((x, y) => x - y);
    const respacing = sequential.filter((m) => m.respaced > 0);
    const at = (list: number[], q: number) => list[Math.min(list.length - 1, Math.floor(list.length * q))].toFixed(1);
    console.log(
      `move_draft with ${count} drafts, ${ms.length} moves through the API: p50 ${at(ms, 0.5)} ms, p95 ${at(ms, 0.95)} ms, max ${at(ms, 1)} ms; ` +
        `one row p50 ${at(plain, 0.5)} ms; ${respacing.length} made room (${respacing.map((m) => `${m.respaced} drafts ${m.ms.toFixed(0)} ms`).join(", ")}); GET list ${listMs.toFixed(0)} ms`,
    );

    // the spec's whole-list reorder keeps working on top of moved keys
    const reversed = [...order].reverse().map((id, index) => ({ id, order: index }));
    expect((await stack.call("POST", `/api/projects/${pid}/drafts/reorder`, { drafts: reversed }, alice)).status).toBe(200);
    const after = await stack.sql`select id from app_public.drafts where project_id = ${pid} order by sort_order, created_at, id`;
    expect(after.map((r) => Number(r.id))).toEqual([...order].reverse());
  }, 120_000);

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

  test("each draft says what holds it (a post, a series' occurrence, a content-plan slot) or which series takes it next; free ones match the queue's count", async () => {
    const pid = (await stack.call("POST", "/api/projects", { name: "Holders", adminHandle: "admin_one" }, alice)).json.id;
    const made = (await stack.call("POST", `/api/projects/${pid}/drafts/bulk`, { titles: ["One-time", "Repeat", "Slot", "Next", "Later"] }, alice)).json;
    const [oneTime, repeat, slot, next, later] = made.map((d: { id: number }) => d.id);
    const [series] = await stack.sql`insert into app_public.posts (project_id, title, scheduled_for, is_recurring, recurring_type, series_made)
      values (${pid}, '', now() + interval '1 day', true, 'daily', 1) returning id`;
    const [plan] = await stack.sql`insert into app_public.content_plans (project_id, day_of_week, time, timezone, post_length, active)
      values (${pid}, 1, '09:00', 'UTC', 500, false) returning id`;
    const [held] = await stack.sql`insert into app_public.posts (project_id, draft_id, title, scheduled_for)
      values (${pid}, ${oneTime}, 'One-time', now() + interval '2 days') returning id`;
    const [occurrence] = await stack.sql`insert into app_public.posts (project_id, draft_id, series_id, title, scheduled_for)
      values (${pid}, ${repeat}, ${series.id}, 'Repeat', now() + interval '3 hours') returning id`;
    const [filled] = await stack.sql`insert into app_public.posts (project_id, draft_id, plan_id, title, scheduled_for)
      values (${pid}, ${slot}, ${plan.id}, 'Slot', now() + interval '4 days') returning id`;

    for (const view of ["", "?view=list"]) {
      const list = (await stack.call("GET", `/api/projects/${pid}/drafts${view}`, undefined, alice)).json;
      const holder = (id: number) => {
        const d = list.find((x: { id: number }) => x.id === id);
        return [d.scheduledPostId, d.heldBySeriesId, d.heldByPlanId, d.nextForSeriesId];
      };
      expect(holder(oneTime)).toEqual([Number(held.id), null, null, null]);
      expect(holder(repeat)).toEqual([Number(occurrence.id), Number(series.id), null, null]);
      expect(holder(slot)).toEqual([Number(filled.id), null, Number(plan.id), null]);
      // the rotation takes the first free draft in the list's order: the owner sees which
      expect(holder(next)).toEqual([null, null, null, Number(series.id)]);
      expect(holder(later)).toEqual([null, null, null, null]);
    }
    const one = (await stack.call("GET", `/api/projects/${pid}/drafts/${next}`, undefined, alice)).json;
    expect(one.nextForSeriesId).toBe(Number(series.id));
    // the banner's free count is the list's free drafts
    const health = (await stack.call("GET", `/api/projects/${pid}/queue-health`, undefined, alice)).json;
    expect(health.draftsLeft).toBe(2);
    // another account reads neither the list nor one draft of it
    expect((await stack.call("GET", `/api/projects/${pid}/drafts?view=list`, undefined, bob)).status).toBe(404);
    expect((await stack.call("GET", `/api/projects/${pid}/drafts/${next}`, undefined, bob)).status).toBe(404);
    expect((await stack.call("GET", `/api/projects/${bobProjectId}/drafts/${next}`, undefined, bob)).status).toBe(404);
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
