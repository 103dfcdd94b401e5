/*
 * POST /api/projects/:id/posts/:postId/resend (api/routes/posts.ts): the owner sends a post
 * awaiting approval to the approver again, or moves it. Only the project's owner, only a
 * post awaiting approval, only a future time; anything else is a 4xx that changes nothing.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approvalPreview, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
});
afterAll(() => stack.close());

const row = async (postId: number) =>
  (await stack.sql`select status, scheduled_for, approval_preview from app_public.posts where id = ${postId}`)[0];

test("another account, a post not awaiting approval, a past or malformed time: 4xx with a code, nothing changes", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Awaiting", "Still a draft"] });
  const { postId } = await sentForApproval(stack, p, p.drafts[0].id, 3600_000);
  // the preview is in the chat; its ids are recorded a moment after its last message went
  await expect.poll(async () => (await row(postId)).approvalPreview.buttonsMessageId, { timeout: 10_000 }).toBeDefined();
  const before = await row(postId);
  const { cookie: other } = await stack.signIn(uniqueEmail("other"));

  const foreign = await stack.call("POST", `${p.base}/posts/${postId}/resend`, undefined, other);
  expect(foreign.status).toBe(404);
  expect(foreign.json.code).toBe("projects.notFound");
  const foreignMove = await stack.call("POST", `${p.base}/posts/${postId}/resend`, { scheduledFor: new Date(Date.now() + 7200_000).toISOString() }, other);
  expect(foreignMove.status).toBe(404);

  // 3 hours ahead: its preview goes 2 hours before, so it is surely not awaiting approval yet
  // (exactly 2 hours ahead, the worker could send its preview before the resend below)
  const draft = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[1].id, scheduledFor: new Date(Date.now() + 3 * 3600_000).toISOString() }, p.cookie);
  const notWaiting = await stack.call("POST", `${p.base}/posts/${draft.json.id}/resend`, undefined, p.cookie);
  expect(notWaiting.status).toBe(409);
  expect(notWaiting.json).toEqual({ message: "Only a post awaiting approval can be sent again or moved", code: "schedule.notAwaitingApproval" });

  const past = await stack.call("POST", `${p.base}/posts/${postId}/resend`, { scheduledFor: new Date(Date.now() - 60_000).toISOString() }, p.cookie);
  expect(past.status).toBe(400);
  expect(past.json.code).toBe("schedule.pastTime");
  const malformed = await stack.call("POST", `${p.base}/posts/${postId}/resend`, { scheduledFor: "tomorrow" }, p.cookie);
  expect(malformed.status).toBe(400);
  expect(malformed.json.code).toBe("schedule.scheduledForInvalid");

  expect(await row(postId)).toEqual(before);
});

test("move: the post takes its new time, the old preview is withdrawn, and a new one is queued 2 hours before; a resend sends one at once", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Moved"] });
  const { postId } = await sentForApproval(stack, p, p.drafts[0].id, 3600_000);
  const round = (await row(postId)).approvalPreview.round;
  const to = new Date(Date.now() + 6 * 3600_000);
  const moved = await stack.call("POST", `${p.base}/posts/${postId}/resend`, { scheduledFor: to.toISOString() }, p.cookie);
  expect(moved.status, moved.text).toBe(200);
  expect(moved.json).toMatchObject({ status: "scheduled", scheduledFor: to.toISOString() });
  expect((await row(postId)).approvalPreview).toEqual({});
  const [job] = await stack.sql`select run_at from graphile_worker.jobs where key = ${`post:${postId}:approval`}`;
  expect(new Date(job.runAt).getTime()).toBe(to.getTime() - 2 * 3600_000);
  await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => m.text?.startsWith("🕒")), 20_000);

  // resent: a new preview at once (though the post is hours away), with a new round
  const resent = await stack.call("POST", `${p.base}/posts/${postId}/resend`, {}, p.cookie);
  expect(resent.status).toBe(200);
  await approvalPreview(stack, p, postId);
  expect((await row(postId)).approvalPreview.round).not.toBe(round);
});
