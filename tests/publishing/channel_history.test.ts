/*
 * A channel's messages are touched only while it is the project's channel (docs/trust-model.md
 * ), played as the hostile owner of issue 23: their project published in channel X;
 * they disconnect X, connect their own channel Y (where they approve), and then try to
 * rewrite, delete, unpin or re-mark X's post. X's administrators were never asked, so every
 * door answers 409 posts.channelChanged and nothing reaches X, and jobs queued before the
 * change do nothing when they run. The post stays listed, read-only, with channelChanged.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approverAnswers, buttonData, buttonsOf, hasButton, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

type Project = Awaited<ReturnType<typeof projectWithChannel>>;
type ShownPost = { id: number; status: string; draftId: number; scheduledFor: string; channelChanged: boolean; pendingEdit: unknown };

const TEXT = "The fair opens on Saturday.";
const PHISH = "Claim your prize: log in again";

const postOf = async (p: Project, postId: number) =>
  ((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json as ShownPost[]).find((x) => x.id === postId)!;
const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status;
/** Telegram calls the bot made about chat `chat` with `method`. */
const callsTo = (method: string, chat: number) =>
  stack.telegram!.requests.filter((r) => r.method === method && r.params.chat_id === String(chat));
/** Waits until no job of the post with this key suffix is left in the queue (it ran). */
const jobRan = (postId: number, kind: string) =>
  expect.poll(async () => (await stack.sql`select count(*)::int as n from graphile_worker.jobs where key = ${`post:${postId}:${kind}`}`)[0].n, { timeout: 15_000 }).toBe(0);

/** Published in X (pinned, to be unpinned in 6 hours), as the project's channel then. */
async function publishedInX() {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, {
    title: "Fair", content: TEXT, options: { pin: true, unpinAfterHours: 6, buttons: [[{ text: "Tickets", url: "https://fair.example/tickets" }]] },
  }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 2_000);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  const message = telegram.messages(p.channel.id).find((m) => m.text === TEXT)!;
  await telegram.waitFor(() => telegram.pinnedMessageIds(p.channel.id).includes(message.message_id) || undefined, 10_000);
  return { p, postId, message, post: await postOf(p, postId) };
}

/** The owner swaps X for their own channel Y, where the same approver is creator. */
async function swapToY(p: Project) {
  const [old] = await stack.sql`select id from app_public.channels where project_id = ${p.project.id}`;
  expect((await stack.call("DELETE", `${p.base}/channels/${old.id}`, undefined, p.cookie)).status).toBe(200);
  const y = stack.telegram!.addChannel({ username: `${p.channel.username}_y`, title: "Channel Y", owner: p.admin.id });
  const added = await stack.call("POST", `${p.base}/channels`, { type: "telegram", link: `@${y.username}` }, p.cookie);
  expect(added.status, added.text).toBe(201);
  // the approver allows it in Telegram (docs/trust-model.md): only then is Y the project's channel
  const allowed = await approverAnswers(stack, p.admin.id, "allow");
  expect(allowed.text).toMatch(/^✅/);
  return y;
}

test("after the swap an edit of X's post is refused (posts.channelChanged): no preview, X's message unchanged", async () => {
  const telegram = stack.telegram!;
  const { p, postId, message, post } = await publishedInX();
  await swapToY(p);
  const adminMessages = telegram.messages(p.admin.id).length;

  const put = await stack.call("PUT", `${p.base}/posts/${postId}`, {
    draftId: post.draftId, scheduledFor: post.scheduledFor, content: PHISH, options: { buttons: [[{ text: "Log in", url: "https://evil.example" }]] },
  }, p.cookie);
  expect(put.status).toBe(409);
  expect(put.json).toMatchObject({ code: "posts.channelChanged" });
  expect((await stack.sql`select pending_edit from app_public.posts where id = ${postId}`)[0].pendingEdit).toBeNull();
  expect((await stack.sql`select count(*)::int as n from graphile_worker.jobs where key like ${`post:${postId}:%edit`}`)[0].n).toBe(0);

  // the history is shown as such
  expect(await postOf(p, postId)).toMatchObject({ status: "published", channelChanged: true });
  await new Promise((r) => setTimeout(r, 1_500));
  expect(telegram.messages(p.admin.id)).toHaveLength(adminMessages);
  expect(telegram.messageInfo(p.channel.id, message.message_id)!.message.text).toBe(TEXT);
  expect(callsTo("editMessageText", p.channel.id)).toHaveLength(0);
}, 60_000);

test("an edit previewed before the swap: the approver's Approve after it is stale, and an apply job queued before it does nothing", async () => {
  const telegram = stack.telegram!;
  const { p, postId, message, post } = await publishedInX();
  const put = await stack.call("PUT", `${p.base}/posts/${postId}`, { draftId: post.draftId, scheduledFor: post.scheduledFor, content: PHISH }, p.cookie);
  expect(put.status, put.text).toBe(200);
  const preview = await telegram.waitFor(() => telegram.messages(p.admin.id).findLast((m) => hasButton(m, "editok", postId)), 10_000);
  await expect.poll(async () => (await stack.sql`select pending_edit ? 'buttonsMessageId' as sent from app_public.posts where id = ${postId}`)[0].sent,
    { timeout: 10_000 }).toBe(true);
  await swapToY(p);

  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "editok", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  expect((await stack.sql`select pending_edit ? 'approved' as approved from app_public.posts where id = ${postId}`)[0].approved).toBe(false);

  // as if Approve had been pressed just before the swap: the approved edit's job runs after it
  await stack.sql`update app_public.posts set pending_edit = pending_edit || '{"approved": true}' where id = ${postId}`;
  await stack.sql`select graphile_worker.add_job('posts__apply_edit', json_build_object('postId', ${postId}::bigint),
    job_key := ${`post:${postId}:apply-edit`})`;
  await jobRan(postId, "apply-edit");
  expect(telegram.messageInfo(p.channel.id, message.message_id)!.message.text).toBe(TEXT);
  expect(callsTo("editMessageText", p.channel.id)).toHaveLength(0);
  expect((await stack.sql`select content from app_public.posts where id = ${postId}`)[0].content).toBe(TEXT);
}, 60_000);

test("the unpin queued at publication does not unpin in X after the swap; a pin job neither pins", async () => {
  const telegram = stack.telegram!;
  const { p, postId, message } = await publishedInX();
  await swapToY(p);
  await stack.sql`update graphile_worker._private_jobs set run_at = now() where key = ${`post:${postId}:unpin`}`;
  await jobRan(postId, "unpin");
  expect(telegram.pinnedMessageIds(p.channel.id)).toContain(message.message_id);
  expect(callsTo("unpinChatMessage", p.channel.id)).toHaveLength(0);

  const pins = callsTo("pinChatMessage", p.channel.id).length;
  await stack.sql`select graphile_worker.add_job('posts__pin', json_build_object('postId', ${postId}::bigint, 'pin', true),
    job_key := ${`post:${postId}:pin`})`;
  await jobRan(postId, "pin");
  expect(callsTo("pinChatMessage", p.channel.id)).toHaveLength(pins);
}, 60_000);

test("delete from channel after the swap is refused and X keeps its message; deleting the record alone works", async () => {
  const telegram = stack.telegram!;
  const { p, postId, message } = await publishedInX();
  await swapToY(p);
  const refused = await stack.call("DELETE", `${p.base}/posts/${postId}`, { deleteFromChannels: true }, p.cookie);
  expect(refused.status).toBe(409);
  expect(refused.json.code).toBe("posts.channelChanged");
  expect(telegram.messageInfo(p.channel.id, message.message_id)?.message.text).toBe(TEXT);
  expect(callsTo("deleteMessage", p.channel.id)).toHaveLength(0);
  expect(await postOf(p, postId)).toMatchObject({ status: "published", channelChanged: true });

  // Pressa's own record is the owner's to remove; the channel is not touched
  const removed = await stack.call("DELETE", `${p.base}/posts/${postId}`, undefined, p.cookie);
  expect(removed.status, removed.text).toBe(200);
  expect(telegram.messageInfo(p.channel.id, message.message_id)?.message.text).toBe(TEXT);
}, 60_000);

test("\"it is in the channel\" for a post uncertain in X is refused after the swap, from the app and from the bot", async () => {
  const telegram = stack.telegram!;
  const { p, postId } = await publishedInX();
  // a send whose answer was lost in X: nothing of it is known but the chat it was approved for
  const [x] = await stack.sql`select chat_id from app_public.channels where project_id = ${p.project.id}`;
  await stack.sql`update app_public.posts set status = 'uncertain', channel_chat_id = null, channel_message_ids = '[]',
    approved_chat_id = ${x.chatId} where id = ${postId}`;
  await stack.sql`select app_private.notify_admin(${postId}, 'uncertain')`;
  const notice = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => buttonsOf(m).includes(`inchannel:${postId}`)), 10_000);
  await swapToY(p);
  expect(await postOf(p, postId)).toMatchObject({ status: "uncertain", channelChanged: true });

  const owner = await stack.call("POST", `${p.base}/posts/${postId}/resolve`, { inChannel: true }, p.cookie);
  expect(owner.status).toBe(409);
  expect(owner.json.code).toBe("posts.channelChanged");
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, notice.message_id, `inchannel:${postId}`);
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  expect(await statusOf(postId)).toBe("uncertain");
}, 60_000);
