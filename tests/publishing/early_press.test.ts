/*
 * A press that comes before the product has recorded the message it was made on. The task
 * records a preview's (or the connection question's) message ids only once Telegram has
 * answered the send; a watchful approver sees the buttons and presses at once, and a slow way
 * back from Telegram (or a slow database) widens that gap. Here Telegram shows the buttons at
 * once but answers the send 3 s later: the press lands in the gap, and it must count.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { buttonData, buttonsOf, hasButton, postReaches, press, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

const HELD_MS = 3_000;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

/** Whether the preview's message ids are recorded yet. */
const previewRecorded = async (postId: number) =>
  (await stack.sql`select approval_preview ? 'buttonsMessageId' as sent from app_public.posts where id = ${postId}`)[0].sent;

test("Approve pressed before the preview's ids are recorded counts, and the post goes out once", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Early bird"] });
  await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { content: "Pressed in a blink." }, p.cookie);
  const postId = (await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() + 8_000).toISOString(),
  }, p.cookie)).json.id;
  // the header, then the post with the buttons: Telegram shows both at once, answers the second late
  telegram.failNext("sendMessage", { answerAfterMs: 0 });
  telegram.failNext("sendMessage", { answerAfterMs: HELD_MS });
  await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);

  const preview = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "approve", postId)), 10_000);
  expect(await previewRecorded(postId)).toBe(false);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  const answer = await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  expect(answer.text).toMatch(/Одобрено/);
  // decided while the task still waited for Telegram's answer
  expect(await previewRecorded(postId)).toBe(false);
  expect((await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status).toBe("approved");

  await postReaches(stack, postId, "published", 30_000);
  expect(telegram.messages(p.channel.id).filter((m) => m.text === "Pressed in a blink.")).toHaveLength(1);
  // one preview: the late answer asked nothing again
  expect(telegram.messages(p.admin.id).filter((m) => m.text === "Pressed in a blink.")).toHaveLength(1);
}, 60_000);

test("a press on an older preview of a post still waiting tells the approver where to decide, and changes nothing", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Twice asked"] });
  const postId = (await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() + 3_600_000).toISOString(),
  }, p.cookie)).json.id;
  await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
  const first = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "approve", postId)), 10_000);
  await expect.poll(() => previewRecorded(postId), { timeout: 10_000 }).toBe(true);
  // the preview is asked again (as after a change of time): the first one's buttons are outdated
  await stack.sql`update app_public.posts set approval_preview = '{}' where id = ${postId}`;
  await stack.sql`select graphile_worker.add_job('posts__send_approval', json_build_object('postId', ${postId}::bigint))`;
  const second = await telegram.waitFor(
    () => telegram.messages(p.admin.id).find((m) => m.message_id !== first.message_id && hasButton(m, "approve", postId)),
    10_000,
  );
  await expect.poll(() => previewRecorded(postId), { timeout: 10_000 }).toBe(true);
  expect(buttonData(second, "approve", postId)).not.toBe(buttonData(first, "approve", postId));

  const stale = await press(stack, p.admin.id, p.admin.id, first.message_id, buttonData(first, "approve", postId));
  expect(stale.text).toMatch(/последним превью/);
  expect((await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status).toBe("scheduled");
  const counted = await press(stack, p.admin.id, p.admin.id, second.message_id, buttonData(second, "approve", postId));
  expect(counted.text).toMatch(/Одобрено/);
}, 60_000);

test("Allow pressed before the connection question's id is recorded connects the channel", async () => {
  const telegram = stack.telegram!;
  const { cookie } = await stack.signIn(uniqueEmail("early"));
  const handle = `early_${Date.now().toString(36)}`;
  const admin = telegram.addUser({ username: handle, first_name: "Admin", language_code: "ru", startedBot: true });
  await stack.sql`select app_public.record_admin_chat(${handle}, ${admin.id})`;
  const channel = telegram.addChannel({ username: `early_${Date.now().toString(36)}`, title: "Early", owner: admin.id });
  const project = (await stack.call("POST", "/api/projects", { name: "Early", adminHandle: handle }, cookie)).json;
  telegram.failNext("sendMessage", { answerAfterMs: HELD_MS });
  const added = await stack.call("POST", `/api/projects/${project.id}/channels`, { type: "telegram", link: `@${channel.username}` }, cookie);
  expect(added.status).toBe(201);

  const question = await telegram.waitFor(() => telegram.messages(admin.id).find((m) => buttonsOf(m).some((d) => d?.startsWith("ar:allow:"))), 10_000);
  const [request] = await stack.sql`select message_id from app_public.approver_requests where approver_user_id = ${admin.id}`;
  expect(request.messageId).toBeNull();
  const allow = buttonsOf(question).find((d) => d?.startsWith("ar:allow:"))!;
  const answer = await press(stack, admin.id, admin.id, question.message_id, allow);
  expect(answer.text?.startsWith("✅")).toBe(true);
  const channels = (await stack.call("GET", `/api/projects/${project.id}/channels`, undefined, cookie)).json;
  expect(channels[0].status).toBe("connected");
}, 60_000);

test("an edit's Approve pressed before its preview's ids are recorded counts: the channel's post is edited", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Edited soon", content: "First words." }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 2_000);
  await press(stack, p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await postReaches(stack, postId, "published", 30_000);

  const post = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === postId);
  telegram.failNext("sendMessage", { answerAfterMs: 0 });
  telegram.failNext("sendMessage", { answerAfterMs: HELD_MS });
  const put = await stack.call("PUT", `${p.base}/posts/${postId}`, { draftId: post.draftId, scheduledFor: post.scheduledFor, content: "Better words." }, p.cookie);
  expect(put.status, put.text).toBe(200);
  const editPreview = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "editok", postId)), 10_000);
  expect((await stack.sql`select pending_edit ? 'buttonsMessageId' as sent from app_public.posts where id = ${postId}`)[0].sent).toBe(false);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, editPreview.message_id, buttonData(editPreview, "editok", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await telegram.waitFor(() => telegram.messages(p.channel.id).find((m) => m.text === "Better words."), 15_000);
  expect(telegram.messages(p.channel.id).map((m) => m.text)).toEqual(["Better words."]);
}, 60_000);
