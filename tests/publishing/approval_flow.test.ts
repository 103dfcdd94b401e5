/*
 * The whole path through the local Bot API: schedule, Publish, the admin gets the preview,
 * presses Approve (or Reject) on it, and the channel gets the post at its time.
 * Home of tasks/posts__send_approval.ts (the preview) and bot/features/approval.ts (the
 * press), docs/testing.md.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approvalPreview, buttonData, buttonsOf, giveImage, previewButtons, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());



test("approve: published within 2 s of scheduledFor, with its link; the draft leaves the list", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Morning news"] });
  await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { content: "Today in the city: sunshine and a new park." }, p.cookie);
  const scheduledFor = new Date(Date.now() + 20_000);
  const created = await stack.call("POST", `${p.base}/posts`, {
    projectId: p.project.id, draftId: p.drafts[0].id, scheduledFor: scheduledFor.toISOString(), isRecurring: false,
  }, p.cookie);
  expect(created.status).toBe(201);
  expect(created.json).toMatchObject({ status: "draft", title: "Morning news", draftId: p.drafts[0].id });
  const postId = created.json.id;

  const published = await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
  expect(published.status).toBe(200);
  expect(published.json.status).toBe("scheduled");

  // the admin receives the preview exactly as it will appear, with the buttons on it
  const preview = await approvalPreview(stack, p, postId, 10_000);
  expect(preview.text).toBe("Today in the city: sunshine and a new park.");
  expect(buttonsOf(preview)).toEqual(previewButtons(postId));
  const header = telegram.messages(p.admin.id).find((m) => m.message_id !== p.question.message_id && m.text?.includes(`@${p.channel.username}`));
  expect(header?.text).toContain("Публикация:");
  expect(telegram.messages(p.channel.id)).toHaveLength(0);

  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  expect(telegram.callbackAnswer(query)?.text).toMatch(/Одобрено/);
  await expect.poll(async () => (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json[0].status, { timeout: 5000 }).toBe("approved");
  // nothing goes out before its time
  expect(telegram.messages(p.channel.id)).toHaveLength(0);

  const inChannel = await telegram.waitFor(() => telegram.messages(p.channel.id)[0], 30_000);
  const arrivedAt = Date.now();
  expect(inChannel.text).toBe("Today in the city: sunshine and a new park.");
  expect(arrivedAt).toBeGreaterThanOrEqual(scheduledFor.getTime() - 100);
  expect(arrivedAt - scheduledFor.getTime()).toBeLessThan(2000);

  await expect.poll(async () => (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json[0].status, { timeout: 5000 }).toBe("published");
  const post = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json[0];
  expect(post.publishedLinks).toEqual({ [p.channel.username!]: `https://t.me/${p.channel.username}/${inChannel.message_id}` });
  const publishedList = (await stack.call("GET", `${p.base}/posts/published`, undefined, p.cookie)).json;
  expect(publishedList.map((x: { id: number }) => x.id)).toEqual([postId]);
  const drafts = (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json;
  expect(drafts.find((d: { id: number }) => d.id === p.drafts[0].id)).toBeUndefined();

  // the approval message was edited to show the decision; a second press changes nothing
  expect(telegram.messages(p.admin.id).find((m) => m.message_id === header!.message_id)?.text).toMatch(/Одобрено/);
  // one preview, though the automatic request (the post is due within 2 hours) met Publish
  expect(telegram.messages(p.admin.id).filter((m) => m.text === "Today in the city: sunshine and a new park.")).toHaveLength(1);
  expect(telegram.messages(p.channel.id)).toHaveLength(1);
}, 60_000);

test("reject: the post is rejected, the message says so, a second press does nothing", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Not this one"] });
  const postId = (await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() + 20_000).toISOString(), isRecurring: false,
  }, p.cookie)).json.id;
  await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
  const preview = await approvalPreview(stack, p, postId, 10_000);
  // two presses before the buttons are gone (a double tap, or two devices): one decides
  const first = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "reject", postId));
  const second = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(first) && telegram.callbackAnswer(second), 10_000);
  expect(telegram.callbackAnswer(first)?.text).toMatch(/Отклонено/);
  expect(telegram.callbackAnswer(second)?.text).toMatch(/устарело/);
  await expect.poll(async () => (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json[0].status, { timeout: 5000 }).toBe("rejected");
  // the buttons are gone from the preview and the header shows the decision
  await expect.poll(() => buttonsOf(telegram.messages(p.admin.id).find((m) => m.message_id === preview.message_id)!)).toEqual([]);
  expect(telegram.messages(p.admin.id).filter((m) => m.message_id !== p.question.message_id)[0].text).toMatch(/Отклонено/);
  await new Promise((r) => setTimeout(r, 500));
  expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json[0].status).toBe("rejected");
  expect(telegram.messages(p.channel.id)).toHaveLength(0);
}, 60_000);

test("an image with text over the 1024-character caption limit goes out as the photo, then the text, with nothing in between", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Photo story", "Short photo"] });
  const long = "Длинная история. ".repeat(90).trim(); // ~1500 characters
  await giveImage(stack, p, p.drafts[0].id, long);
  await giveImage(stack, p, p.drafts[1].id, "Short caption");
  const ids: number[] = [];
  for (const draft of p.drafts) {
    const id = (await stack.call("POST", `${p.base}/posts`, { draftId: draft.id, scheduledFor: new Date(Date.now() + 4_000).toISOString() }, p.cookie)).json.id;
    await stack.call("POST", `${p.base}/posts/${id}/publish`, undefined, p.cookie);
    ids.push(id);
  }
  const previews: Awaited<ReturnType<typeof approvalPreview>>[] = [];
  for (const id of ids) {
    previews.push(await approvalPreview(stack, p, id, 10_000));
  }
  // The long post's text (the only sendMessage to come) is held by Telegram: the other
  // post, due at the same moment, must wait for it rather than land between photo and text.
  telegram.failNext("sendMessage", { delayMs: 1_500 });
  ids.forEach((id, i) => telegram.userPressesButton(p.admin.id, p.admin.id, previews[i].message_id, buttonData(previews[i], "approve", id)));
  await telegram.waitFor(() => telegram.messages(p.channel.id).length >= 3, 20_000);
  const messages = telegram.messages(p.channel.id);
  const longPhoto = messages.findIndex((m) => m.photo && !m.caption);
  expect(longPhoto).toBeGreaterThanOrEqual(0);
  expect(messages[longPhoto + 1].text).toBe(long);
  const short = messages.find((m) => m.caption === "Short caption");
  expect(short?.photo?.length).toBeGreaterThan(0);
  await expect.poll(async () => (await stack.sql`select status from app_public.posts where id = any(${ids})`).map((r) => r.status), { timeout: 5000 }).toEqual(["published", "published"]);
  const [row] = await stack.sql`select published_links, channel_message_ids from app_public.posts where id = ${ids[0]}`;
  expect(row.channelMessageIds).toEqual([messages[longPhoto].message_id, messages[longPhoto + 1].message_id]);
  expect(Object.values(row.publishedLinks)).toEqual([`https://t.me/${p.channel.username}/${messages[longPhoto].message_id}`]);
}, 60_000);

/** A post whose send Telegram dropped (`processed`: carried out anyway, or not): uncertain. */
async function uncertainPost(title: string, processed: boolean) {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: [title] });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3_000);
  telegram.failNext("sendMessage", { drop: true, processed });
  const q = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(q), 10_000);
  await expect.poll(async () => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status, { timeout: 20_000 }).toBe("uncertain");
  const notice = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => buttonsOf(m).includes(`resend:${postId}`)), 10_000);
  return { p, postId, notice };
}
const inChannel = (p: Awaited<ReturnType<typeof projectWithChannel>>, text: string) =>
  stack.telegram!.messages(p.channel.id).filter((m) => m.text === text);

test("Telegram posts the message but the answer is lost: one copy in the channel, the post uncertain", async () => {
  const telegram = stack.telegram!;
  // the send is carried out, then its connection drops before the answer
  const { p } = await uncertainPost("Lost answer", true);
  await new Promise((r) => setTimeout(r, 1500));
  expect(inChannel(p, "Lost answer")).toHaveLength(1);
  expect(telegram.requests.filter((r) => r.method === "sendMessage" && r.params.text === "Lost answer" && String(r.params.chat_id) === String(p.channel.id))).toHaveLength(1);
}, 60_000);

test("the owner answers an uncertain post in the app: 'Send again' publishes it once; the admin's later press changes nothing", async () => {
  const telegram = stack.telegram!;
  const { p, postId, notice } = await uncertainPost("Owner resends", false);
  expect(inChannel(p, "Owner resends")).toHaveLength(0);
  const answered = await stack.call("POST", `${p.base}/posts/${postId}/resolve`, { inChannel: false }, p.cookie);
  expect(answered.status, answered.text).toBe(200);
  expect(answered.json.status).toBe("approved");
  await expect.poll(async () => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status, { timeout: 20_000 }).toBe("published");
  expect(inChannel(p, "Owner resends")).toHaveLength(1);
  const q = telegram.userPressesButton(p.admin.id, p.admin.id, notice.message_id, `resend:${postId}`);
  expect((await telegram.waitFor(() => telegram.callbackAnswer(q), 10_000)).text).toMatch(/устарело|уже принято/);
  await new Promise((r) => setTimeout(r, 1000));
  expect(inChannel(p, "Owner resends")).toHaveLength(1);
}, 60_000);

test("the owner says an uncertain post is in the channel: published; a second answer and another user change nothing", async () => {
  const { p, postId } = await uncertainPost("Owner confirms", true);
  expect(inChannel(p, "Owner confirms")).toHaveLength(1);
  const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
  const foreign = await stack.call("POST", `${p.base}/posts/${postId}/resolve`, { inChannel: false }, stranger);
  expect(foreign.status).toBe(404);
  expect(foreign.json.code).toBe("projects.notFound");
  const bad = await stack.call("POST", `${p.base}/posts/${postId}/resolve`, { inChannel: "yes" }, p.cookie);
  expect(bad.status).toBe(400);
  const answered = await stack.call("POST", `${p.base}/posts/${postId}/resolve`, { inChannel: true }, p.cookie);
  expect(answered.json.status).toBe("published");
  const again = await stack.call("POST", `${p.base}/posts/${postId}/resolve`, { inChannel: false }, p.cookie);
  expect(again.status).toBe(200);
  expect(again.json.status).toBe("published"); // answered as it is
  await new Promise((r) => setTimeout(r, 1500));
  expect(inChannel(p, "Owner confirms")).toHaveLength(1);
  const published = (await stack.call("GET", `${p.base}/posts/published`, undefined, p.cookie)).json;
  expect(published.map((x: { id: number }) => x.id)).toContain(postId);
}, 60_000);
