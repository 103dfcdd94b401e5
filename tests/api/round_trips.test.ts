/*
 * What a signed-in read costs the database: one session lookup plus the query it needs, and
 * for the next few seconds (the per-process session cache) only the query it needs. A change
 * that slips in a write or an extra lookup per request shows up here.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
});
afterAll(() => stack.close());

async function statementsFor(path: string, cookie: string) {
  const before = stack.queries.length;
  const res = await stack.app.request(path, { headers: { cookie } });
  expect(res.status, path).toBe(200);
  await res.arrayBuffer();
  return stack.queries.slice(before).map((text) => text.replace(/\s+/g, " ").trim());
}

test("a signed-in read is one session lookup plus its query, then just its query", async () => {
  // a session not looked up yet: the lookup, then the list
  const { cookie } = await stack.signIn(uniqueEmail());
  const first = await statementsFor("/api/projects", cookie);
  expect(first).toHaveLength(2);
  expect(first[0]).toContain("session_user");
  expect(await statementsFor("/api/projects", cookie)).toHaveLength(1);
  expect(await statementsFor("/api/auth/user", cookie)).toHaveLength(0);

  const p = await projectWithChannel(stack, { drafts: ["one", "two"] });
  const at = new Date(Date.now() + 5 * 3600_000).toISOString();
  await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: at, isRecurring: false }, p.cookie);
  await statementsFor("/api/auth/user", p.cookie);
  for (const path of [`${p.base}/posts`, `${p.base}/drafts`, `${p.base}/channels`, "/api/projects"]) {
    const statements = await statementsFor(path, p.cookie);
    expect(statements, path).toHaveLength(1);
    expect(statements[0]).not.toContain("session");
  }
  // an empty list costs one more: "none" must be told apart from "not your project", and its
  // version (the ETag) is read alone
  const published = await statementsFor(`${p.base}/posts/published`, p.cookie);
  expect(published).toHaveLength(2);
  expect(published[1]).toContain("posts_version");
});
