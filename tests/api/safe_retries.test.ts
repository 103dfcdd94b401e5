/*
 * Safe retries (docs/api.md, shared/DESIGN.md "Idempotency" and "Preconditions"): a creating
 * POST with an Idempotency-Key answers its first answer again and creates nothing more, even
 * for two requests at once; another body under the key is 422; keys are per account. A
 * draft's or post's GET gives an ETag, and an update with a stale If-Match is 412 and changes
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const send = (method: string, path: string, cookie: string, body?: unknown, headers: Record<string, string> = {}) =>
  stack.call(method, path, body, cookie, headers);

async function project() {
  const { cookie } = await stack.signIn(uniqueEmail("retry"));
  const id = (await stack.call("POST", "/api/projects", { name: "Retries", adminHandle: "retry_admin" }, cookie)).json.id;
  return { cookie, base: `/api/projects/${id}`, id };
}
const draftCount = async (projectId: number) =>
  (await stack.sql`select count(*)::int as n from app_public.drafts where project_id = ${projectId}`)[0].n;

describe("Idempotency-Key", () => {
  test("a replay answers the first answer and creates nothing more; another body under the key is 422", async () => {
    const p = await project();
    const key = { "idempotency-key": "sheet-row-17" };
    const first = await send("POST", `${p.base}/drafts`, p.cookie, { title: "From the sheet", content: "Row 17" }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await send("POST", `${p.base}/drafts`, p.cookie, { title: "From the sheet", content: "Row 17" }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(await draftCount(p.id)).toBe(1);

    const other = await send("POST", `${p.base}/drafts`, p.cookie, { title: "Another row", content: "" }, key);
    expect(other.status).toBe(422);
    expect(other.json.code).toBe("idempotency.mismatch");
    expect(await draftCount(p.id)).toBe(1);

    // a key lives 24 hours: after them the same request is a new one
    await stack.sql`update app_private.idempotency_keys set created_at = created_at - interval '24 hours 1 minute'
      where key = ${key["idempotency-key"]} and user_id = (select user_id from app_public.drafts where id = ${first.json.id})`;
    const later = await send("POST", `${p.base}/drafts`, p.cookie, { title: "From the sheet", content: "Row 17" }, key);
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(later.json.id).not.toBe(first.json.id);
    expect(await draftCount(p.id)).toBe(2);

    // keys are per account: another account's same key is its own
    const q = await project();
    expect((await send("POST", `${q.base}/drafts`, q.cookie, { title: "From the sheet", content: "Row 17" }, key)).status).toBe(201);
    expect((await send("POST", `${p.base}/drafts`, p.cookie, { title: "x" }, { "idempotency-key": "" })).json.code).toBe("idempotency.keyInvalid");
  });

  test("two requests at once with one key create one post; a refused first attempt keeps nothing, so its retry runs", async () => {
    const p = await project();
    const bulk = { titles: ["One", "Two", "Three"] };
    const both = await Promise.all([0, 1].map(() => send("POST", `${p.base}/drafts/bulk`, p.cookie, bulk, { "idempotency-key": "burst" })));
    expect(both.map((a) => a.status)).toEqual([201, 201]);
    expect(both[0].json).toEqual(both[1].json);
    expect(both.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(1);
    expect(await draftCount(p.id)).toBe(3);

    const at = new Date(Date.now() + 86_400_000).toISOString();
    const key = { "idempotency-key": "plan-1" };
    const refused = await send("POST", `${p.base}/posts`, p.cookie, { draftId: 999_999_999, scheduledFor: at }, key);
    expect(refused.status).toBe(404);
    const ok = await send("POST", `${p.base}/posts`, p.cookie, { scheduledFor: at, title: "Written", content: "Here", writeDraft: true }, key);
    // the key was left free by the failure: same key, another body, and it runs
    expect(ok.status, ok.text).toBe(201);
    const replay = await send("POST", `${p.base}/posts`, p.cookie, { scheduledFor: at, title: "Written", content: "Here", writeDraft: true }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await stack.sql`select count(*)::int as n from app_public.posts where project_id = ${p.id}`)[0].n).toBe(1);
  });

  test("an invitation replays without a second mail", async () => {
    const p = await project();
    const email = uniqueEmail("invited");
    const key = { "idempotency-key": "invite-1" };
    const first = await send("POST", `${p.base}/invitations`, p.cookie, { email, role: "viewer" }, key);
    const again = await send("POST", `${p.base}/invitations`, p.cookie, { email, role: "viewer" }, key);
    expect(again.json).toEqual(first.json);
    await stack.smtp.waitForMail(email);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stack.smtp.mailsTo(email)).toHaveLength(1);
  });
});

describe("If-Match", () => {
  test("a stale version is 412 and changes nothing; the current one updates and answers the next version", async () => {
    const p = await project();
    const draft = (await stack.call("POST", `${p.base}/drafts`, { title: "Versioned", content: "v1" }, p.cookie)).json;
    const read = await send("GET", `${p.base}/drafts/${draft.id}`, p.cookie);
    const etag = read.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const updated = await send("PATCH", `${p.base}/drafts/${draft.id}`, p.cookie, { content: "v2" }, { "if-match": etag });
    expect(updated.status, updated.text).toBe(200);
    const next = updated.headers.get("etag");
    expect(next).not.toBe(etag);
    const stale = await send("PATCH", `${p.base}/drafts/${draft.id}`, p.cookie, { content: "v3" }, { "if-match": etag });
    expect(stale.status).toBe(412);
    expect(stale.json.code).toBe("precondition.failed");
    expect((await send("GET", `${p.base}/drafts/${draft.id}`, p.cookie)).json.content).toBe("v2");
    expect((await send("GET", `${p.base}/drafts/${draft.id}`, p.cookie)).headers.get("etag")).toBe(next);

    // a post too
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: draft.id, scheduledFor: at }, p.cookie)).json;
    const postTag = (await send("GET", `${p.base}/posts/${post.id}`, p.cookie)).headers.get("etag")!;
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    expect((await send("PUT", `${p.base}/posts/${post.id}`, p.cookie, { draftId: draft.id, scheduledFor: later }, { "if-match": '"0"' })).status).toBe(412);
    expect((await send("PUT", `${p.base}/posts/${post.id}`, p.cookie, { draftId: draft.id, scheduledFor: later }, { "if-match": postTag })).status).toBe(200);

    // a stranger learns nothing from a version
    const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
    expect((await send("PATCH", `${p.base}/drafts/${draft.id}`, stranger, { content: "x" }, { "if-match": '"0"' })).status).toBe(404);
  });
});
