/*
 * A job runs once while its worker lives, and one account's burst never holds the worker
 * hostage. Played as it was found: a slow Telegram holding a preview past the dead-worker
 * window (the job used to be taken from its live worker and run again, so the approver got
 * two previews with live buttons), and an account scheduling a burst of posts inside the
 * approval window while another account signs in and has a post due (the burst used to fill
 * every worker slot with previews waiting on Telegram's one-message-a-second budget for the
 * approver's chat).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEAD_WORKER_AFTER } from "../../tasks/worker.ts";
import { approvalPreview, buttonData, hasButton, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

type P = Awaited<ReturnType<typeof projectWithChannel>>;

/** The previews of `postId` the approver got: messages carrying its Approve button. */
const previewsOf = (stack: Stack, p: P, postId: number) =>
  stack.telegram!.messages(p.admin.id).filter((m) => hasButton(m, "approve", postId));

async function schedule(stack: Stack, p: P, draftIndex: number, inMs: number) {
  const res = await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[draftIndex].id, scheduledFor: new Date(Date.now() + inMs).toISOString(), isRecurring: false,
  }, p.cookie);
  expect(res.status, res.text).toBe(201);
  return res.json.id as number;
}

const deadWindowMs = Number.parseInt(DEAD_WORKER_AFTER) * 1000;

test("a preview Telegram holds longer than the dead-worker window reaches the approver once", async () => {
  const stack = await startStack({ telegram: true });
  try {
    const p = await projectWithChannel(stack, { drafts: ["slow Telegram"] });
    // the preview's first message is held past the window in which a silent worker counts as dead
    stack.telegram!.failNext("sendMessage", { delayMs: deadWindowMs + 3_000 });
    const postId = await schedule(stack, p, 0, 3600_000);
    await approvalPreview(stack, p, postId, deadWindowMs + 20_000);
    // long enough for a second run, had the job been taken from its live worker, to send again
    await new Promise((r) => setTimeout(r, 4_000));
    expect(previewsOf(stack, p, postId)).toHaveLength(1);
    expect(stack.telegram!.messages(p.admin.id).filter((m) => m.text === "slow Telegram")).toHaveLength(1);
    const [job] = await stack.sql`select attempts from graphile_worker.jobs where key = ${`post:${postId}:approval`}`;
    expect(job).toBeUndefined(); // done, not waiting for another attempt
  } finally {
    await stack.close();
  }
}, 90_000);

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

test("a burst of previews from one account: each reaches the approver once, with two workers, and another account's sign-in mail and due post do not wait for it", async () => {
  const BURST = 20;
  const a = await projectWithChannel(stack, { drafts: Array.from({ length: BURST }, (_, i) => `burst ${i}`) });
  // every post inside the approval window: all previews are due at once
  const burst: number[] = [];
  for (let i = 0; i < BURST; i++) burst.push(await schedule(stack, a, i, 30 * 60_000 + i * 60_000));
  const previewsSent = () => burst.filter((id) => previewsOf(stack, a, id).length > 0).length;

  // account B signs in and gets its own post out while A's previews still trickle out at
  // Telegram's pace for one private chat (about one message a second, two per preview)
  const b = await projectWithChannel(stack, { drafts: ["B's post"] });
  await stack.signIn(uniqueEmail("b-again"));
  expect(previewsSent()).toBeLessThan(BURST);
  const bPost = await schedule(stack, b, 0, 6_000);
  const bPreview = await approvalPreview(stack, b, bPost);
  const pressed = stack.telegram!.userPressesButton(b.admin.id, b.admin.id, bPreview.message_id, buttonData(bPreview, "approve", bPost));
  await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(pressed), 10_000);
  await stack.telegram!.waitFor(() => stack.telegram!.messages(b.channel.id).find((m) => m.text === "B's post"), 20_000);
  expect(previewsSent()).toBeLessThan(BURST);

  // every preview of the burst arrives, and none twice, although two workers share the queue
  await stack.telegram!.waitFor(() => previewsSent() === BURST || undefined, 120_000);
  await new Promise((r) => setTimeout(r, 3_000));
  for (const id of burst) expect(previewsOf(stack, a, id), `post ${id}`).toHaveLength(1);
  const recorded = await stack.sql<{ n: number }[]>`
    select count(*)::int as n from app_public.posts where id = any(${burst}::bigint[]) and approval_preview ? 'chatId'`;
  expect(recorded[0].n).toBe(BURST);
}, 180_000);
