/*
 * GET /api/projects/{id}/content-plans/suggested-times as the owner and as an attacker sees it:
 * too little data says how much more is needed; enough reactions (recorded by the SQL rule the
 * bot calls) answer the best hours of the week in the contract's shape, and a slot added at one
 * marks it as in the plan; another account's project is not found, a visitor is not signed in.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { SuggestedTimes } from "../../contract/content_plans.ts";
import { pastWeekAt, publishedWithReactions } from "../helpers/reactions.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let p: Awaited<ReturnType<typeof projectWithChannel>>;
let path: string;

beforeAll(async () => {
  stack = await startStack({ telegram: true });
  p = await projectWithChannel(stack, { timezone: "Europe/Moscow" });
  path = `${p.base}/content-plans/suggested-times`;
});
afterAll(async () => {
  await stack?.close();
});

/** A post at `weekday` (1 = Monday) `hour` Moscow time (UTC+3 all year), `weeksBack` weeks earlier. */
const publish = (weekday: number, hour: number, weeksBack: number, reactions: number) =>
  publishedWithReactions(stack.sql, p.project.id, p.channel.id, pastWeekAt(3, weekday, hour, weeksBack), reactions);

test("too little data: how many more posts with reactions, and at how many more hours", async () => {
  const empty = await stack.call("GET", path, undefined, p.cookie);
  expect(empty.status, empty.text).toBe(200);
  expect(empty.json).toEqual({ ready: false, postsNeeded: 10, timesNeeded: 3 });
  for (let week = 0; week < 4; week++) await publish(4, 19, week, 9 - week);
  for (let week = 0; week < 3; week++) await publish(1, 8, week, 2);
  const short = await stack.call("GET", path, undefined, p.cookie);
  expect(short.json).toEqual({ ready: false, postsNeeded: 3, timesNeeded: 1 });
});

test("enough data: the best hours in the project's timezone, and a slot added at one is in the plan", async () => {
  for (let week = 0; week < 3; week++) await publish(6, 12, week, 4);
  const res = await stack.call("GET", path, undefined, p.cookie);
  expect(res.status).toBe(200);
  expect(res.json as SuggestedTimes).toEqual({
    ready: true,
    times: [
      { weekday: 4, hour: 19, avgReactions: 7.5, posts: 4, inPlan: false },
      { weekday: 6, hour: 12, avgReactions: 4, posts: 3, inPlan: false },
      { weekday: 1, hour: 8, avgReactions: 2, posts: 3, inPlan: false },
    ],
  });
  const slot = await stack.call("POST", `${p.base}/content-plans`, { dayOfWeek: 4, time: "19:00", postLength: 500 }, p.cookie);
  expect(slot.status, slot.text).toBe(201);
  const after = (await stack.call("GET", path, undefined, p.cookie)).json as SuggestedTimes & { ready: true };
  expect(after.times.map((t) => t.inPlan)).toEqual([true, false, false]);
});

test("another account's project is not found, and a visitor must sign in", async () => {
  const { cookie: mallory } = await stack.signIn(uniqueEmail("mallory"));
  const theirs = await stack.call("GET", path, undefined, mallory);
  expect(theirs.status).toBe(404);
  expect(theirs.json).toMatchObject({ code: "projects.notFound", message: expect.any(String) });
  expect(JSON.stringify(theirs.json)).not.toContain("avgReactions");
  expect((await stack.call("GET", path, undefined, undefined)).status).toBe(401);
  const garbled = await stack.call("GET", "/api/projects/1%20or%201=1/content-plans/suggested-times", undefined, p.cookie);
  expect(garbled.status).toBe(404);
  expect(garbled.json).toMatchObject({ code: "notFound" });
});
