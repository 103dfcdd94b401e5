/*
 * The content plan's slots (spec §3, §5, §9): created, listed in week order, changed and
 * removed by the project's owner; bad input refused with a precise code and nothing stored;
 * another account's slots out of reach.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

async function project() {
  const { cookie } = await stack.signIn(uniqueEmail("plan"));
  const { id } = (await stack.call("POST", "/api/projects", { name: "Plans", adminHandle: "plan_admin" }, cookie)).json;
  return { cookie, base: `/api/projects/${id}/content-plans`, projectId: id as number };
}

test("slots are created with the spec's defaults, listed in week order, changed and removed", async () => {
  const { cookie, base, projectId } = await project();
  const friday = await stack.call("POST", base, { dayOfWeek: 5, time: "18:30", postLength: 800 }, cookie);
  expect(friday.status).toBe(201);
  expect(friday.json).toMatchObject({ projectId, dayOfWeek: 5, time: "18:30", timezone: "Europe/Moscow", postLength: 800, active: true });
  const monday = await stack.call("POST", base, { dayOfWeek: 1, time: "09:00", postLength: 50, timezone: "America/New_York", active: false }, cookie);
  expect(monday.json).toMatchObject({ dayOfWeek: 1, time: "09:00", timezone: "America/New_York", postLength: 50, active: false });

  expect((await stack.call("GET", base, undefined, cookie)).json.map((p: { dayOfWeek: number }) => p.dayOfWeek)).toEqual([1, 5]);
  const changed = await stack.call("PATCH", `${base}/${friday.json.id}`, { time: "07:05", active: false, postLength: 5000 }, cookie);
  expect(changed.json).toMatchObject({ dayOfWeek: 5, time: "07:05", active: false, postLength: 5000 });
  expect((await stack.call("DELETE", `${base}/${monday.json.id}`, undefined, cookie)).status).toBe(200);
  expect((await stack.call("GET", base, undefined, cookie)).json).toHaveLength(1);
});

test("bad input is refused with a precise code and stores nothing", async () => {
  const { cookie, base } = await project();
  const cases: [Record<string, unknown>, string][] = [
    [{ dayOfWeek: 7, time: "10:00", postLength: 500 }, "contentPlans.dayInvalid"],
    [{ dayOfWeek: -1, time: "10:00", postLength: 500 }, "contentPlans.dayInvalid"],
    [{ dayOfWeek: 1, time: "24:00", postLength: 500 }, "contentPlans.timeInvalid"],
    [{ dayOfWeek: 1, time: "9:00", postLength: 500 }, "contentPlans.timeInvalid"],
    [{ dayOfWeek: 1, time: "10:00", postLength: 49 }, "contentPlans.postLengthInvalid"],
    [{ dayOfWeek: 1, time: "10:00", postLength: 5001 }, "contentPlans.postLengthInvalid"],
    [{ dayOfWeek: 1, time: "10:00", postLength: 500, timezone: "Mars/Olympus" }, "contentPlans.timezoneInvalid"],
    [{ dayOfWeek: 1, time: "10:00", postLength: 500, active: "yes" }, "contentPlans.activeInvalid"],
  ];
  for (const [input, code] of cases) {
    const res = await stack.call("POST", base, input, cookie);
    expect(res.status, code).toBe(400);
    expect(res.json.code, JSON.stringify(input)).toBe(code);
  }
  expect((await stack.call("GET", base, undefined, cookie)).json).toEqual([]);
  const { id } = (await stack.call("POST", base, { dayOfWeek: 2, time: "12:00", postLength: 300 }, cookie)).json;
  const bad = await stack.call("PATCH", `${base}/${id}`, { postLength: 10 }, cookie);
  expect(bad.json.code).toBe("contentPlans.postLengthInvalid");
  expect((await stack.call("GET", base, undefined, cookie)).json[0].postLength).toBe(300);
});

test("another account reaches none of a project's slots, and cannot add to it", async () => {
  const owner = await project();
  const { id } = (await stack.call("POST", owner.base, { dayOfWeek: 3, time: "11:00", postLength: 400 }, owner.cookie)).json;
  const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
  expect((await stack.call("GET", owner.base, undefined, stranger)).status).toBe(404);
  const add = await stack.call("POST", owner.base, { dayOfWeek: 3, time: "11:00", postLength: 400 }, stranger);
  expect(add.status).toBe(404);
  const patch = await stack.call("PATCH", `${owner.base}/${id}`, { active: false }, stranger);
  expect(patch.status).toBe(404);
  // the project itself is not theirs: not found, as it would be if it did not exist
  expect(patch.json.code).toBe("projects.notFound");
  expect((await stack.call("DELETE", `${owner.base}/${id}`, undefined, stranger)).status).toBe(404);
  // nor through their own project's address
  const theirs = await project();
  const through = await stack.call("PATCH", `${theirs.base}/${id}`, { active: false }, theirs.cookie);
  expect(through.status).toBe(404);
  expect(through.json.code).toBe("contentPlans.notFound");
  expect((await stack.call("GET", owner.base, undefined, owner.cookie)).json).toMatchObject([{ id, active: true }]);
  expect((await stack.call("GET", owner.base, undefined, undefined)).status).toBe(401);
  // the queue's forecast is the owner's too
  const health = `/api/projects/${owner.projectId}/queue-health`;
  expect((await stack.call("GET", health, undefined, stranger)).json.code).toBe("projects.notFound");
  expect((await stack.call("GET", health, undefined, undefined)).status).toBe(401);
});

test("the queue's forecast: drafts left, when they run out at the plan's pace, and whether that is soon", async () => {
  const { cookie, base, projectId } = await project();
  const health = () => stack.call("GET", `/api/projects/${projectId}/queue-health`, undefined, cookie);
  expect((await health()).json).toEqual({ draftsLeft: 0, runsDryAt: null, low: false, postsPerWeek: 0 });
  await stack.call("POST", `/api/projects/${projectId}/drafts/bulk`, { titles: ["One", "Two"] }, cookie);
  // every day at this minute: (no channel, so nothing is filled) the third day finds no draft
  const now = new Date(Date.now() + 3 * 3600_000 + 3 * 60_000);
  const moscow = new Date(now.getTime() + 3 * 3600_000);
  const time = `${String(moscow.getUTCHours()).padStart(2, "0")}:${String(moscow.getUTCMinutes()).padStart(2, "0")}`;
  for (let day = 0; day < 7; day += 1) await stack.call("POST", base, { dayOfWeek: day, time, postLength: 300 }, cookie);
  const answer = (await health()).json;
  expect(answer).toMatchObject({ draftsLeft: 2, low: true, postsPerWeek: 7 });
  const expected = new Date(now.getTime() + 2 * 86400_000);
  expected.setUTCSeconds(0, 0);
  expect(answer.runsDryAt).toBe(expected.toISOString());
});
