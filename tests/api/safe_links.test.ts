/*
 * A hostile account tries to put a Telegram sign-in (or proxy) link in front of a channel's
 * approver and readers: as a URL button or a text link, on a draft, a scheduled post and
 * the edit of a published one. Each is refused with posts.unsafeLink and nothing is stored.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import { SAFE_LINKS, UNSAFE_LINKS } from "../cases/safe_links.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
});
afterAll(() => stack.close());

const TEXT = "Verify your account";

test("a tg://login button or text link is refused on drafts and posts, in every spelling; nothing is stored", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Plain"] });
  const when = new Date(Date.now() + 3600_000).toISOString();
  for (const url of UNSAFE_LINKS) {
    const button = await stack.call("POST", `${p.base}/drafts`, { title: "Bait", content: TEXT, options: { buttons: [[{ text: "Verify", url }]] } }, p.cookie);
    expect([button.status, button.json.code], url).toEqual([400, "posts.unsafeLink"]);
    const link = await stack.call("POST", `${p.base}/drafts`, {
      title: "Bait", content: TEXT, entities: [{ type: "text_link", offset: 0, length: 6, url }],
    }, p.cookie);
    expect([link.status, link.json.code], url).toEqual([400, "posts.unsafeLink"]);
    const patched = await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { options: { buttons: [[{ text: "Verify", url }]] } }, p.cookie);
    expect([patched.status, patched.json.code], url).toEqual([400, "posts.unsafeLink"]);
    const scheduled = await stack.call("POST", `${p.base}/posts`, {
      draftId: p.drafts[0].id, scheduledFor: when, options: { buttons: [[{ text: "Verify", url }]] },
    }, p.cookie);
    expect([scheduled.status, scheduled.json.code], url).toEqual([400, "posts.unsafeLink"]);
  }
  expect(scheduledCount(await stack.call("GET", `${p.base}/posts`, undefined, p.cookie))).toBe(0);
  const drafts = (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json as { options: object }[];
  expect(drafts).toHaveLength(1);
  expect(drafts[0].options).toEqual({});
}, 60_000);

test("the harmless tg:// actions pass as buttons and text links", async () => {
  const p = await projectWithChannel(stack);
  for (const url of SAFE_LINKS) {
    const created = await stack.call("POST", `${p.base}/drafts`, {
      title: "Fine", content: TEXT, entities: [{ type: "text_link", offset: 0, length: 6, url }], options: { buttons: [[{ text: "Open", url }]] },
    }, p.cookie);
    expect(created.status, `${url}: ${created.text}`).toBe(201);
  }
});

const scheduledCount = (res: { json: unknown }) => (res.json as unknown[]).length;
