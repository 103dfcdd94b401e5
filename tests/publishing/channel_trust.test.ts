/*
 * Channel trust after connecting (docs/trust-model.md), through the worker, the bot and the
 * local Bot API: rights are checked again before a preview and before a publication; an
 * approval belongs to the chat it was given for; a published post is never deleted from a
 * chat that is not the project's channel; a new approver is asked again.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approvalPreview, approverAnswers, buttonData, buttonsOf, hasButton, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

type Project = Awaited<ReturnType<typeof projectWithChannel>>;

const postOf = async (p: Project, postId: number) =>
  ((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json as { id: number; status: string; lastErrorCode: string | null; lastErrorParams: Record<string, string> }[])
    .find((x) => x.id === postId)!;
/** As if the last confirmation of the channel's rights were older than the 10 minutes it is trusted. */
const confirmationExpired = (p: Project) =>
  stack.sql`update app_public.channels set rights_checked_at = now() - interval '11 minutes' where project_id = ${p.project.id}`;

async function approve(p: Project, postId: number, preview: Parameters<typeof buttonData>[0] & { message_id: number }) {
  const telegram = stack.telegram!;
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  // approved, or already published when its time has passed
  await expect.poll(async () => ["approved", "sending", "published"].includes((await postOf(p, postId)).status), { timeout: 5000 }).toBe(true);
}

async function reconnect(p: Project) {
  const telegram = stack.telegram!;
  const [old] = await stack.sql`select id from app_public.channels where project_id = ${p.project.id}`;
  expect((await stack.call("DELETE", `${p.base}/channels/${old.id}`, undefined, p.cookie)).status).toBe(200);
  const next = telegram.addChannel({ username: `${p.channel.username}_b`, title: "Channel B", owner: p.admin.id });
  const added = await stack.call("POST", `${p.base}/channels`, { type: "telegram", link: `@${next.username}` }, p.cookie);
  expect(added.status, added.text).toBe(201);
  await approverAnswers(stack, p.admin.id, "allow");
  return next;
}

test("an approver demoted before the preview: the post fails saying so, and nobody is sent anything", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Secret plans"], approverRole: "administrator" });
  telegram.setMemberRights(p.channel.id, p.admin.id, "member");
  await confirmationExpired(p);
  const askedBefore = telegram.messages(p.admin.id).length; // the question that connected the channel
  const postId = (await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() + 3600_000).toISOString(),
  }, p.cookie)).json.id;
  expect((await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie)).status).toBe(200);

  await expect.poll(async () => (await postOf(p, postId)).status, { timeout: 10_000 }).toBe("failed");
  expect(await postOf(p, postId)).toMatchObject({
    lastErrorCode: "posts.error.approverLost",
    lastErrorParams: { handle: p.admin.username, channel: `@${p.channel.username}` },
  });
  expect(telegram.messages(p.admin.id)).toHaveLength(askedBefore);
  expect(telegram.messages(p.channel.id)).toHaveLength(0);
}, 30_000);

test("a confirmation younger than 10 minutes is reused: a preview right after connecting asks Telegram nothing more", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Fresh"] });
  const before = telegram.requests.filter((r) => r.method === "getChatMember").length;
  await sentForApproval(stack, p, p.drafts[0].id, 3600_000);
  expect(telegram.requests.filter((r) => r.method === "getChatMember").length).toBe(before);
}, 30_000);

test("an approver demoted after approving: at the post's time it fails, nothing goes out, no notice is sent", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Approved, then not"], approverRole: "administrator" });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 5_000);
  await approve(p, postId, preview);
  const adminMessages = telegram.messages(p.admin.id).length;
  telegram.setMemberRights(p.channel.id, p.admin.id, { can_post_messages: false });
  await confirmationExpired(p);

  await expect.poll(async () => (await postOf(p, postId)).status, { timeout: 20_000 }).toBe("failed");
  expect((await postOf(p, postId)).lastErrorCode).toBe("posts.error.approverLost");
  expect(telegram.messages(p.channel.id)).toHaveLength(0);
  expect(telegram.messages(p.admin.id)).toHaveLength(adminMessages);
  expect(telegram.requests.filter((r) => r.method === "sendMessage" && r.params.chat_id === String(p.channel.id))).toHaveLength(0);
}, 40_000);

test("the bot losing its right to post before the time: the post fails saying so, nothing is sent", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Bot demoted"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 5_000);
  await approve(p, postId, preview);
  telegram.setBotRights(p.channel.id, { can_post_messages: false });
  await confirmationExpired(p);
  await expect.poll(async () => (await postOf(p, postId)).status, { timeout: 20_000 }).toBe("failed");
  expect(await postOf(p, postId)).toMatchObject({ lastErrorCode: "posts.error.botLost", lastErrorParams: { channel: `@${p.channel.username}` } });
  expect(telegram.messages(p.channel.id)).toHaveLength(0);
}, 40_000);

test("the channel replaced between approval and the post's time: back to draft, nothing in either channel, a new approval for the new one", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Meant for A"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 6_000);
  await approve(p, postId, preview);
  const b = await reconnect(p);

  const back = await postOf(p, postId);
  expect(back.status).toBe("draft");
  expect(back).toMatchObject({ lastErrorCode: "posts.error.channelDisconnected", lastErrorParams: { channel: `@${p.channel.username}` } });
  // past its time: nothing went anywhere
  await new Promise((r) => setTimeout(r, 8_000));
  expect(telegram.messages(p.channel.id)).toHaveLength(0);
  expect(telegram.messages(b.id)).toHaveLength(0);
  expect((await postOf(p, postId)).status).toBe("draft");

  // a new Publish asks about the new channel, and only then does it go out there
  expect((await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie)).status).toBe(200);
  const header = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => m.text?.includes(`@${b.username}`)), 10_000);
  expect(header.text).toContain(`@${b.username}`);
  const second = await approvalPreview(stack, p, postId);
  expect(second.message_id).not.toBe(preview.message_id);
  await approve(p, postId, second);
  await telegram.waitFor(() => telegram.messages(b.id)[0], 10_000);
  expect(telegram.messages(b.id).map((m) => m.text)).toEqual(["Meant for A"]);
  expect(telegram.messages(p.channel.id)).toHaveLength(0);
}, 60_000);

test("a preview waiting when the channel is replaced loses its buttons; a press on it changes nothing", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Pending"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3600_000);
  await reconnect(p);
  expect((await postOf(p, postId)).status).toBe("draft");
  await telegram.waitFor(() => buttonsOf(telegram.messages(p.admin.id).find((m) => m.message_id === preview.message_id)!).length === 0, 10_000);
  // the stored decision guard: even a press that reached the bot before the edit decides nothing
  const [stale] = await stack.sql`select app_public.decide_post(${postId}, ${p.admin.id}, ${preview.message_id}, true, null) is null as stale`;
  expect(stale.stale).toBe(true);
}, 40_000);

test("delete from channel after a swap touches neither chat: the old one is history (posts.channelChanged), the new one has other messages under that id", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Published in A"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3_000);
  await approve(p, postId, preview);
  const inA = await telegram.waitFor(() => telegram.messages(p.channel.id)[0], 15_000);
  await expect.poll(async () => (await postOf(p, postId)).status, { timeout: 5000 }).toBe("published");

  const b = await reconnect(p);
  // channel B has its own message under the same id
  let unrelated = telegram.channelPost(b.id, "B's own news");
  while (unrelated.message_id < inA.message_id) unrelated = telegram.channelPost(b.id, "B's own news");
  expect(unrelated.message_id).toBe(inA.message_id);

  const res = await stack.call("DELETE", `${p.base}/posts/${postId}`, { deleteFromChannels: true }, p.cookie);
  expect(res.status, res.text).toBe(409);
  expect(res.json.code).toBe("posts.channelChanged");
  expect(telegram.messages(p.channel.id).map((m) => m.message_id)).toEqual([inA.message_id]);
  expect(telegram.messages(b.id).find((m) => m.message_id === inA.message_id)?.text).toBe("B's own news");
  expect(telegram.requests.filter((r) => r.method === "deleteMessage" && r.params.chat_id === String(b.id))).toHaveLength(0);
}, 40_000);

test("a new approver: a post waiting for approval is asked of them; the old preview's buttons are gone", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Ask Ivan"] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3600_000);
  const ivan = telegram.addUser({ username: `ivan_${p.admin.username}`.slice(0, 32), first_name: "Ivan", startedBot: true });
  await stack.sql`select app_public.record_admin_chat(${ivan.username!}, ${ivan.id})`;
  telegram.setMemberRights(p.channel.id, ivan.id, "administrator");

  const patched = await stack.call("PATCH", `/api/projects/${p.project.id}`, { adminHandle: ivan.username }, p.cookie);
  expect(patched.status, patched.text).toBe(200);
  await approverAnswers(stack, ivan.id, "allow");
  const asked = await telegram.waitFor(() => telegram.messages(ivan.id).find((m) => hasButton(m, "approve", postId)), 15_000);
  await telegram.waitFor(() => buttonsOf(telegram.messages(p.admin.id).find((m) => m.message_id === preview.message_id)!).length === 0, 10_000);
  expect((await postOf(p, postId)).status).toBe("scheduled");

  // only the new approver's press decides
  await expect.poll(async () =>
    (await stack.sql`select approval_preview ->> 'chatId' as chat from app_public.posts where id = ${postId}`)[0].chat, { timeout: 10_000 })
    .toBe(String(ivan.id));
  const query = telegram.userPressesButton(ivan.id, ivan.id, asked.message_id, buttonData(asked, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(async () => (await postOf(p, postId)).status, { timeout: 5000 }).toBe("approved");
}, 40_000);
