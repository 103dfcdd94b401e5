/*
 * A formatted post end to end (docs/post-format.md): the draft's entities and options reach
 * the approver's preview and then the channel exactly; a pinned post is pinned once it is
 * out and unpinned when its hours are up; a draft the AI writes in Markdown arrives as text
 * plus entities, with no markup left in it; a published post's edit changes the channel's
 * message in place only once the approver approves it.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { MessageEntity } from "../../contract/entities.ts";
import { buttonData, buttonsOf, giveImage, hasButton, previewButtons, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true, openai: true });
});
afterAll(() => stack.close());

const TEXT = "🔥 Big news: the bridge opens today. Details inside.";
const ENTITIES: MessageEntity[] = [
  { type: "bold", offset: 3, length: 8 },
  { type: "spoiler", offset: 16, length: 6 },
  { type: "text_link", offset: 37, length: 7, url: "https://city.example/bridge" },
];
const BUTTONS = [[{ text: "Map", url: "https://maps.example/bridge" }]];

const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status;

test("the preview and the channel get the exact entities and buttons; silent; pinned, then unpinned on time", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const options = { silent: true, pin: true, unpinAfterHours: 6, buttons: BUTTONS };
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Bridge", content: TEXT, entities: ENTITIES, options }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 3_000);

  // the preview: the post as it will look, with its own buttons, then the decision apart
  const shown = telegram.messages(p.admin.id).find((m) => m.text === TEXT)!;
  expect(shown.entities).toEqual(ENTITIES);
  expect(shown.reply_markup?.inline_keyboard).toEqual(BUTTONS);
  expect(preview.message_id).toBeGreaterThan(shown.message_id);
  expect(buttonsOf(preview)).toEqual(previewButtons(postId));

  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");

  const [published] = telegram.messages(p.channel.id).filter((m) => !m.pinned_message);
  expect(published.text).toBe(TEXT);
  expect(published.entities).toEqual(ENTITIES);
  expect(published.reply_markup?.inline_keyboard).toEqual(BUTTONS);
  expect(telegram.messageInfo(p.channel.id, published.message_id)!.silent).toBe(true);
  await telegram.waitFor(() => telegram.pinnedMessageIds(p.channel.id).includes(published.message_id), 10_000);

  // the unpin waits its six hours as a job; bring it forward instead of waiting
  const [unpin] = await stack.sql`select run_at from graphile_worker.jobs where key = ${`post:${postId}:unpin`}`;
  expect(Date.parse(unpin.runAt) - Date.now()).toBeGreaterThan(5.9 * 3_600_000);
  await stack.sql`update graphile_worker._private_jobs set run_at = now() where key = ${`post:${postId}:unpin`}`;
  await telegram.waitFor(() => !telegram.pinnedMessageIds(p.channel.id).includes(published.message_id) || undefined, 10_000);
  expect(telegram.messages(p.channel.id).filter((m) => !m.pinned_message)).toHaveLength(1);
}, 60_000);

test("a draft the AI writes in Markdown gets text and entities, no markup", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Bridge"] });
  stack.openai!.reply(() => "**The bridge opens** today — _finally_.\n\nSee [the map](https://maps.example/bridge).");
  const job = await stack.call("POST", `${p.base}/drafts/generate-content`, { draftIds: [p.drafts[0].id] }, p.cookie);
  expect(job.status).toBeLessThan(300);
  await expect.poll(async () => (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json[0].content, { timeout: 20_000 })
    .toBe("The bridge opens today — finally.\n\nSee the map.");
  const [draft] = (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json;
  const marked = draft.entities.map((e: MessageEntity) => [e.type, draft.content.slice(e.offset, e.offset + e.length)]);
  expect(marked).toEqual([["bold", "The bridge opens"], ["italic", "finally"], ["text_link", "the map"]]);
}, 60_000);

/** A published post of `p` made from a new draft, and its message in the channel. */
async function publishedPost(p: Awaited<ReturnType<typeof projectWithChannel>>, draft: Record<string, unknown>) {
  const telegram = stack.telegram!;
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, draft, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 2_000);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  const post = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === postId);
  return { postId, post, message: telegram.messages(p.channel.id).at(-1)! };
}

/** The approver's Approve or Reject on the newest edit preview. */
async function decideEdit(p: Awaited<ReturnType<typeof projectWithChannel>>, postId: number, approve: boolean) {
  const telegram = stack.telegram!;
  const preview = await telegram.waitFor(
    () => telegram.messages(p.admin.id).findLast((m) => hasButton(m, "editok", postId)),
    10_000,
  );
  await expect.poll(async () => (await stack.sql`select pending_edit ? 'buttonsMessageId' as sent from app_public.posts where id = ${postId}`)[0].sent,
    { timeout: 10_000 }).toBe(true);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, approve ? "editok" : "editno", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  return preview;
}

test("an edit of a published post: previewed as an edit, applied in place on Approve, nothing on Reject", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const { postId, post, message } = await publishedPost(p, { title: "Bridge", content: TEXT, entities: ENTITIES });
  const put = (body: Record<string, unknown>) =>
    stack.call("PUT", `${p.base}/posts/${postId}`, { draftId: post.draftId, scheduledFor: post.scheduledFor, ...body }, p.cookie);

  // its time stays history
  const moved = await put({ scheduledFor: new Date(Date.now() + 86_400_000).toISOString(), content: "x" });
  expect(moved.status).toBe(409);
  expect(moved.json.code).toBe("schedule.cannotEditPublished");

  const EDITED = "🔥 Big news: the bridge opened. Photos tomorrow.";
  const EDITED_ENTITIES: MessageEntity[] = [{ type: "bold", offset: 3, length: 8 }, { type: "italic", offset: 31, length: 6 }];
  const requested = await put({ content: EDITED, entities: EDITED_ENTITIES, options: { buttons: BUTTONS } });
  expect(requested.status).toBe(200);
  expect(requested.json).toMatchObject({ content: TEXT, status: "published", pendingEdit: { content: EDITED } });

  // rejected: the channel keeps the post as it was
  const rejected = await decideEdit(p, postId, false);
  expect(telegram.messages(p.admin.id).find((m) => m.message_id < rejected.message_id && /✏️ Правка поста/.test(m.text ?? ""))).toBeTruthy();
  await expect.poll(async () => (await stack.sql`select pending_edit from app_public.posts where id = ${postId}`)[0].pendingEdit).toBeNull();
  expect(telegram.messageInfo(p.channel.id, message.message_id)!.message.text).toBe(TEXT);

  // approved: the same message, edited in place, with the new formatting and buttons
  await put({ content: EDITED, entities: EDITED_ENTITIES, options: { buttons: BUTTONS } });
  await decideEdit(p, postId, true);
  await telegram.waitFor(() => telegram.messageInfo(p.channel.id, message.message_id)!.message.text === EDITED || undefined, 15_000);
  const edited = telegram.messageInfo(p.channel.id, message.message_id)!.message;
  expect(edited.entities).toEqual(EDITED_ENTITIES);
  expect(edited.reply_markup?.inline_keyboard).toEqual(BUTTONS);
  expect(edited.edit_date).toBeGreaterThan(0);
  expect(telegram.messages(p.channel.id)).toHaveLength(1);
  await expect.poll(async () => {
    const shown = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === postId);
    return shown.editedAt !== null && shown.pendingEdit === null && shown.content === EDITED;
  }, { timeout: 10_000 }).toBe(true);
}, 90_000);

test("a photo's caption edit must still fit a caption", async () => {
  const p = await projectWithChannel(stack, { drafts: ["With photo"] });
  await giveImage(stack, p, p.drafts[0].id, "A short caption");
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 2_000);
  const query = stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(query), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  const post = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === postId);
  const tooLong = await stack.call("PUT", `${p.base}/posts/${postId}`, { draftId: post.draftId, scheduledFor: post.scheduledFor, content: "x".repeat(1025) }, p.cookie);
  expect(tooLong.status).toBe(400);
  expect(tooLong.json.code).toBe("posts.editTooLong");
  expect((await stack.sql`select pending_edit from app_public.posts where id = ${postId}`)[0].pendingEdit).toBeNull();
}, 60_000);

test("an approved edit Telegram refuses for good is dropped with the reason; the post keeps its text", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const { postId, post, message } = await publishedPost(p, { title: "Gone", content: TEXT, entities: ENTITIES });
  await stack.call("PUT", `${p.base}/posts/${postId}`, { draftId: post.draftId, scheduledFor: post.scheduledFor, content: "Edited text" }, p.cookie);
  // the channel's admins delete the message in Telegram before the edit is approved
  const deleted = await fetch(`${telegram.apiRoot}/bot${telegram.token}/deleteMessage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chat_id: p.channel.id, message_id: message.message_id }),
  });
  expect((await deleted.json()).ok).toBe(true);
  await decideEdit(p, postId, true);
  await expect.poll(async () => (await stack.sql`select pending_edit, last_error_code, last_error_params from app_public.posts where id = ${postId}`)[0], { timeout: 15_000 })
    .toMatchObject({
      pendingEdit: null,
      lastErrorCode: "posts.error.editRefused",
      lastErrorParams: { description: expect.stringMatching(/message to edit not found/) },
    });
  const shown = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === postId);
  expect(shown).toMatchObject({ content: TEXT, editedAt: null, status: "published" });
  expect(telegram.messageInfo(p.channel.id, message.message_id)).toBeUndefined();
}, 60_000);
