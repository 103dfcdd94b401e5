/*
 * A post past its time that nobody decided: the approver is reminded once per round
 * (tasks/posts__remind_approver.ts) however many workers or copies of the job run it; the
 * owner's resend starts a new round whose old buttons no longer count; and an approval
 * given late answers that the post goes out now, not at a time already gone.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approvalPreview, buttonData, postReaches, press, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
const workers: Deno.ChildProcess[] = [];
beforeAll(async () => {
  stack = await startStack({ bot: true, worker: false });
  // two instances of the worker, as several machines on one database run it
  workers.push(stack.spawnWorkerProcess(), stack.spawnWorkerProcess());
});
afterAll(async () => {
  for (const worker of workers) {
    worker.kill("SIGKILL");
    await worker.status;
  }
  await stack.close();
});

const reminderKey = (postId: number) => `post:${postId}:reminder`;
const remindersOf = (p: Awaited<ReturnType<typeof projectWithChannel>>) =>
  stack.telegram!.messages(p.admin.id).filter((m) => m.text?.startsWith("⏰"));

/** The reminder job's time, then runs it now (the clock shifted to its moment, as a test can). */
async function reminderDue(postId: number) {
  const [{ scheduledFor }] = await stack.sql`select scheduled_for from app_public.posts where id = ${postId}`;
  // the post is late first: a reminder before its time would not be sent
  await new Promise((r) => setTimeout(r, Math.max(0, new Date(scheduledFor).getTime() + 200 - Date.now())));
  const [job] = await stack.sql`select id, run_at, queue_name from graphile_worker.jobs where key = ${reminderKey(postId)}`;
  await stack.sql`select graphile_worker.reschedule_jobs(array[${job.id}]::bigint[], run_at := now())`;
  return { runAt: new Date(job.runAt), queueName: job.queueName as string };
}

test("a late post's approver is reminded once, in their queue and language, however many workers and copies run it", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Evening digest"], language: "en" });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 5_000);
  const [{ scheduledFor }] = await stack.sql`select scheduled_for from app_public.posts where id = ${postId}`;

  // queued for 10 minutes past the post's time, behind the approver's other messages
  const job = await reminderDue(postId);
  expect(job.runAt.getTime() - new Date(scheduledFor).getTime()).toBe(10 * 60_000);
  expect(job.queueName).toBe(`approver:${p.admin.id}`);
  // a second copy of the job (a retry after a crash, an older round's job) on the other worker
  await stack.sql`select graphile_worker.add_job('posts__remind_approver', json_build_object('postId', ${postId}::bigint))`;

  const [reminder] = await telegram.waitFor(() => remindersOf(p).length > 0 ? remindersOf(p) : undefined, 20_000);
  expect(reminder.text).toMatch(/^⏰ The post for @channel_\S+ was due .* and is \d+ min late: it waits for your decision/);
  expect(reminder.reply_to_message?.message_id).toBe(preview.message_id);
  await expect.poll(async () => (await stack.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'posts__remind_approver'`)[0].n, { timeout: 15_000 }).toBe(0);
  expect(remindersOf(p)).toHaveLength(1);

  // approved late: the answer says it goes out now, and it does
  const answer = await press(stack, p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  expect(answer.text).toMatch(/^✅ Approved\. The post's time \(.*\) has passed, so it goes out now\.$/);
  await postReaches(stack, postId, "published");
});

test("the owner's resend is a new round: the old buttons stop counting, the new preview decides, its reminder is its own", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Late again"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 1_000);
  await reminderDue(postId);
  await telegram.waitFor(() => remindersOf(p)[0], 20_000);

  const resent = await stack.call("POST", `${p.base}/posts/${postId}/resend`, undefined, p.cookie);
  expect(resent.status, resent.text).toBe(200);
  expect(resent.json.status).toBe("scheduled");
  // the old preview says it no longer applies, and a new one comes
  await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => m.text?.startsWith("🔁")), 20_000);
  const fresh = await telegram.waitFor(() =>
    telegram.messages(p.admin.id).find((m) => m.message_id > preview.message_id && buttonDataOrNull(m, postId) !== null), 20_000);
  await approvalPreview(stack, p, postId);
  expect(buttonData(fresh, "approve", postId)).not.toBe(buttonData(preview, "approve", postId));

  // the old Approve (still on a client that has not refreshed the message) counts no more: the post still waits
  const old = await press(stack, p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId), { forged: true });
  expect(old.text).toMatch(/устарело/);
  expect((await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status).toBe("scheduled");

  // the new round is reminded once more
  await reminderDue(postId);
  await telegram.waitFor(() => remindersOf(p).length === 2 ? true : undefined, 20_000);
  expect(remindersOf(p).at(-1)?.reply_to_message?.message_id).toBe(fresh.message_id);
  expect(remindersOf(p).at(-1)?.text).toMatch(/опаздывает уже на \d+ мин/);

  const answer = await press(stack, p.admin.id, p.admin.id, fresh.message_id, buttonData(fresh, "approve", postId));
  expect(answer.text).toMatch(/уже прошло — он выходит сейчас/);
  await postReaches(stack, postId, "published");
  expect(telegram.messages(p.channel.id)).toHaveLength(1);
});

function buttonDataOrNull(m: Parameters<typeof buttonData>[0], postId: number) {
  try {
    return buttonData(m, "approve", postId);
  } catch {
    return null;
  }
}
