/*
 * Never twice, never lost: the real worker process (main/worker.ts) is killed with SIGKILL
 * at each step of a publication and started again. The local Bot API's channel must end
 * with each post at most once, and every post either published or visibly uncertain with
 * the admin asked — none silently stuck or lost. A SIGTERM, by contrast, lets the running
 * send finish before the worker exits. An ad's removal at its term, killed mid-delete, is
 * finished by the next worker: each message deleted once, the removal recorded once.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approvalPreview, buttonData, buttonsOf, giveImage, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
let worker: Deno.ChildProcess | undefined;

function startWorkerProcess() {
  worker = stack.spawnWorkerProcess();
}

async function killWorker() {
  worker!.kill("SIGKILL");
  await worker!.status;
  worker = undefined;
}

beforeAll(async () => {
  stack = await startStack({ bot: true, worker: false });
  startWorkerProcess();
});
afterAll(async () => {
  if (worker) {
    worker.kill("SIGKILL");
    await worker.status;
  }
  await stack.close();
});

type P = Awaited<ReturnType<typeof projectWithChannel>>;

async function schedule(p: P, draftIndex: number, inMs: number) {
  const res = await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[draftIndex].id, scheduledFor: new Date(Date.now() + inMs).toISOString(), isRecurring: false,
  }, p.cookie);
  expect(res.status, res.text).toBe(201);
  return res.json.id as number;
}
const publish = (p: P, postId: number) => stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0]?.status;

const previewOf = (p: P, postId: number) => approvalPreview(stack, p, postId);
async function press(p: P, messageId: number, data: string) {
  const query = stack.telegram!.userPressesButton(p.admin.id, p.admin.id, messageId, data);
  return await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(query), 10_000);
}
const inChannel = (p: P, text: string) => stack.telegram!.messages(p.channel.id).filter((m) => m.text === text);

/**
 * A project whose one post is approved and being sent while Telegram holds the send (and
 * then carries it out, or drops it with `processed: false`). The hold is armed before the
 * approval: under load the post's time may already have come, and the send then follows
 * the press at once.
 */
async function postHeldInTelegram(title: string, hold: { delayMs: number; processed?: boolean }, withImage?: string) {
  const p = await projectWithChannel(stack, { drafts: [title] });
  if (withImage) await giveImage(stack, p, p.drafts[0].id, withImage);
  const postId = await schedule(p, 0, 10_000);
  await publish(p, postId);
  const preview = await previewOf(p, postId);
  stack.telegram!.failNext("sendMessage", hold);
  await press(p, preview.message_id, buttonData(preview, "approve", postId));
  await expect.poll(() => statusOf(postId), { timeout: 15_000, interval: 50 }).toBe("sending");
  return { p, postId };
}
/** The send to the channel reached Telegram (the admin's preview carries the same text). */
const sendArrived = (p: P, text: string) =>
  stack.telegram!.waitFor(() =>
    stack.telegram!.requests.find((r) =>
      r.method === "sendMessage" && String(r.params.chat_id) === String(p.channel.id) && r.params.text === text
    ), 5_000);

test("killed with work queued at every step before sending: each post goes out exactly once", async () => {
  const p = await projectWithChannel(stack, { drafts: ["far", "awaiting", "approved"] });
  const far = await schedule(p, 0, 3 * 3600_000); // its approval job waits for T − 2 h
  const awaiting = await schedule(p, 1, 25_000);
  const approved = await schedule(p, 2, 25_000);
  await publish(p, awaiting);
  await publish(p, approved);
  const awaitingPreview = await previewOf(p, awaiting);
  await press(p, (await previewOf(p, approved)).message_id, buttonData((await previewOf(p, approved)), "approve", approved));
  expect(await statusOf(approved)).toBe("approved");

  await killWorker();
  // the admin decides while no worker runs: the decision is kept and acted on later
  await press(p, awaitingPreview.message_id, buttonData(awaitingPreview, "approve", awaiting));
  startWorkerProcess();

  await stack.telegram!.waitFor(() => inChannel(p, "awaiting").length > 0 && inChannel(p, "approved").length > 0, 40_000);
  await new Promise((r) => setTimeout(r, 2000));
  expect(inChannel(p, "awaiting")).toHaveLength(1);
  expect(inChannel(p, "approved")).toHaveLength(1);
  expect(await statusOf(awaiting)).toBe("published");
  expect(await statusOf(approved)).toBe("published");
  // the far post is not lost: still planned, its approval request still queued
  expect(await statusOf(far)).toBe("draft");
  const [job] = await stack.sql`select run_at from graphile_worker.jobs where key = ${`post:${far}:approval`}`;
  expect(job).toBeDefined();
}, 90_000);

test("killed while Telegram holds the send and then carries it out: one message, the post uncertain until the admin says it is there", async () => {
  const { p, postId } = await postHeldInTelegram("held and sent", { delayMs: 2_000 });
  const send = await sendArrived(p, "held and sent");
  expect(send.status).toBeUndefined(); // still held: the worker dies mid-call
  await killWorker();
  startWorkerProcess();

  await expect.poll(() => statusOf(postId), { timeout: 30_000 }).toBe("uncertain");
  expect(inChannel(p, "held and sent")).toHaveLength(1);
  const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => buttonsOf(m).includes(`inchannel:${postId}`)), 15_000);
  expect(notice.text).toMatch(/Неизвестно, вышел ли пост/);
  await press(p, notice.message_id, `inchannel:${postId}`);
  await expect.poll(() => statusOf(postId), { timeout: 5_000 }).toBe("published");
  await new Promise((r) => setTimeout(r, 1500));
  expect(inChannel(p, "held and sent")).toHaveLength(1);
}, 90_000);

test("killed while Telegram holds the send and then drops it: nothing sent, uncertain, and 'Send again' publishes it once", async () => {
  const { p, postId } = await postHeldInTelegram("held and lost", { delayMs: 2_000, processed: false });
  await killWorker();
  startWorkerProcess();

  await expect.poll(() => statusOf(postId), { timeout: 30_000 }).toBe("uncertain");
  expect(inChannel(p, "held and lost")).toHaveLength(0);
  const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => buttonsOf(m).includes(`resend:${postId}`)), 15_000);
  await press(p, notice.message_id, `resend:${postId}`);
  await stack.telegram!.waitFor(() => inChannel(p, "held and lost").length > 0, 15_000);
  await expect.poll(() => statusOf(postId), { timeout: 5_000 }).toBe("published");
  await new Promise((r) => setTimeout(r, 1500));
  expect(inChannel(p, "held and lost")).toHaveLength(1);
}, 90_000);

test("killed between a long post's photo and its text: uncertain, and 'Send again' takes the photo back and sends the post whole once", async () => {
  const long = "Фото и длинный текст. ".repeat(60).trim();
  const { p, postId } = await postHeldInTelegram("photo then crash", { delayMs: 2_000, processed: false }, long);
  const send = await sendArrived(p, long);
  expect(send.status).toBeUndefined();
  const [photo] = stack.telegram!.messages(p.channel.id);
  expect(photo.photo?.length).toBeGreaterThan(0);
  await killWorker();
  startWorkerProcess();

  await expect.poll(() => statusOf(postId), { timeout: 30_000 }).toBe("uncertain");
  const [row] = await stack.sql`select channel_message_ids from app_public.posts where id = ${postId}`;
  expect(row.channelMessageIds).toEqual([photo.message_id]); // recorded before the text was sent
  const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => buttonsOf(m).includes(`resend:${postId}`)), 15_000);
  await press(p, notice.message_id, `resend:${postId}`);
  await expect.poll(() => statusOf(postId), { timeout: 15_000 }).toBe("published");
  const messages = stack.telegram!.messages(p.channel.id);
  expect(messages).toHaveLength(2);
  expect(messages[0].message_id).not.toBe(photo.message_id);
  expect(messages[0].photo?.length).toBeGreaterThan(0);
  expect(messages[1].text).toBe(long);
}, 90_000);

test("SIGTERM while Telegram holds a send: the running job finishes, the post is published once, the worker exits cleanly", async () => {
  const { p, postId } = await postHeldInTelegram("finished on shutdown", { delayMs: 2_000 });
  const send = await sendArrived(p, "finished on shutdown");
  expect(send.status).toBeUndefined();

  worker!.kill("SIGTERM");
  const exit = await worker!.status;
  worker = undefined;
  expect(exit.code).toBe(0);
  // the worker answered the signal only after the held send came back and was recorded
  expect(await statusOf(postId)).toBe("published");
  expect(inChannel(p, "finished on shutdown")).toHaveLength(1);
  const [post] = await stack.sql`select published_links from app_public.posts where id = ${postId}`;
  expect(Object.values(post.publishedLinks as Record<string, string>)[0]).toMatch(/^https:\/\/t\.me\//);

  startWorkerProcess();
  await new Promise((r) => setTimeout(r, 1500));
  expect(inChannel(p, "finished on shutdown")).toHaveLength(1);
  expect(await statusOf(postId)).toBe("published");
}, 60_000);

test("killed while Telegram holds an ad's delete at its term (tasks/posts__remove_ad.ts): each message deleted once, the removal recorded once, nothing left", async () => {
  const p = await projectWithChannel(stack);
  const ad = { advertiser: "ООО «Ромашка»", erid: "2VtzqvXyZ1", topMinutes: 0, feedMinutes: 60 };
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Sold", content: "ad", ad }, p.cookie)).json;
  await giveImage(stack, p, draftId, "Реклама с фото и длинным текстом. ".repeat(40).trim()); // the photo, then the text
  const created = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: new Date(Date.now() + 3000).toISOString() }, p.cookie);
  expect(created.status, created.text).toBe(201);
  const postId = created.json.id as number;
  await publish(p, postId);
  const preview = await previewOf(p, postId);
  await press(p, preview.message_id, buttonData(preview, "approve", postId));
  await expect.poll(() => statusOf(postId), { timeout: 20_000, interval: 100 }).toBe("published");
  const sent = stack.telegram!.messages(p.channel.id).map((m) => m.message_id);
  expect(sent).toHaveLength(2);

  // the term comes (published_at moved back by the feed time, the job due now: see
  // tests/publishing/ad_removal.test.ts), and Telegram holds the first delete, then carries it out
  stack.telegram!.failNext("deleteMessage", { delayMs: 3_000 });
  await stack.sql`update app_public.posts set published_at = published_at - interval '60 minutes' where id = ${postId}`;
  await stack.sql`update graphile_worker._private_jobs set run_at = now() where key = ${`post:${postId}:removal`}`;
  const held = await stack.telegram!.waitFor(() =>
    stack.telegram!.requests.find((r) => r.method === "deleteMessage" && String(r.params.chat_id) === String(p.channel.id)), 15_000);
  expect(held.status).toBeUndefined(); // still held: the worker dies mid-removal
  await killWorker();
  startWorkerProcess();

  const removedAt = async () => (await stack.sql`select ad_removed_at from app_public.posts where id = ${postId}`)[0].adRemovedAt as string | null;
  await expect.poll(removedAt, { timeout: 40_000, interval: 200 }).not.toBeNull();
  const recorded = await removedAt();
  expect(stack.telegram!.messages(p.channel.id)).toEqual([]);
  const deleted = (id: number) =>
    stack.telegram!.requests.filter((r) =>
      r.method === "deleteMessage" && String(r.params.chat_id) === String(p.channel.id) && Number(r.params.message_id) === id && r.status === 200
    );
  for (const id of sent) expect(deleted(id), `message ${id}`).toHaveLength(1);
  expect((await stack.sql`select 1 from graphile_worker._private_jobs where key = ${`post:${postId}:removal`}`)).toHaveLength(0);

  // a stray second run (another worker, a retry) finds it done: nothing deleted, nothing recorded again
  const calls = stack.telegram!.requests.length;
  await stack.sql`select app_private.queue_ad_removal(${postId}, now())`;
  await expect.poll(async () => (await stack.sql`select 1 from graphile_worker._private_jobs where key = ${`post:${postId}:removal`}`).length,
    { timeout: 15_000 }).toBe(0);
  expect(await removedAt()).toBe(recorded);
  expect(stack.telegram!.requests.slice(calls).filter((r) => r.method === "deleteMessage" && String(r.params.chat_id) === String(p.channel.id)))
    .toEqual([]);
}, 120_000);
