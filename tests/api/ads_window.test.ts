/*
 * The top window through the API (docs/ads.md "The top window"): a one-off post planned into an ad's
 * window, or moved there, is 409 ads.topConflict naming the ad as a param (no English to read
 * back), and changes nothing; an ad's broken format is 400 with its code.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
});
afterAll(() => stack.close());

const AD = { advertiser: "Acme", erid: "abc123", topMinutes: 60, feedMinutes: 0 };
const at = (base: number, minutes: number) => new Date(base + minutes * 60_000).toISOString();

test("a post inside an ad's window, planned or moved there, is refused naming the ad; outside it is planned", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Coffee 1/24", "Our news"] });
  const base = Date.now() + 86400_000;
  const ad = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: at(base, 0), ad: AD }, p.cookie);
  expect(ad.status, ad.text).toBe(201);

  const inside = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[1].id, scheduledFor: at(base, 30) }, p.cookie);
  expect(inside.status).toBe(409);
  expect(inside.json).toMatchObject({ code: "ads.topConflict", params: { title: "Coffee 1/24" } });
  const written = await stack.call("POST", `${p.base}/posts`, { title: "Written here", content: "Text", writeDraft: true, scheduledFor: at(base, 59) }, p.cookie);
  expect(written.json.code).toBe("ads.topConflict");
  // neither left a post, nor the written post's draft
  expect((await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json.map((d: { title: string }) => d.title).sort()).toEqual(["Coffee 1/24", "Our news"]);

  const after = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[1].id, scheduledFor: at(base, 60) }, p.cookie);
  expect(after.status, after.text).toBe(201);
  const moved = await stack.call("PUT", `${p.base}/posts/${after.json.id}`, { draftId: p.drafts[1].id, scheduledFor: at(base, 15), isRecurring: false }, p.cookie);
  expect(moved.status).toBe(409);
  expect(moved.json).toMatchObject({ code: "ads.topConflict", params: { title: "Coffee 1/24" } });
  expect((await stack.call("GET", `${p.base}/posts/${after.json.id}`, undefined, p.cookie)).json.scheduledFor).toBe(at(base, 60));
});

test("an ad cannot go silent, and its unpin cannot outlive its time in the feed", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Sold"] });
  const scheduledFor = at(Date.now() + 86400_000, 0);
  const silent = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor, ad: AD, options: { silent: true } }, p.cookie);
  expect(silent.status).toBe(400);
  expect(silent.json.code).toBe("ads.silentAd");
  const pinned = await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[0].id, scheduledFor, ad: { ...AD, feedMinutes: 120 }, options: { pin: true, unpinAfterHours: 3 },
  }, p.cookie);
  expect(pinned.status).toBe(400);
  expect(pinned.json).toMatchObject({ code: "ads.pinOutlivesFeed", params: { hours: 3, minutes: 120 } });
});
