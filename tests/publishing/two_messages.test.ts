/*
 * A post whose image carries text over the 1024-character caption limit goes out as two
 * messages: the photo, then the text. Whatever happens to the text, the channel never
 * keeps a half post by our doing, and nothing appears twice.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { buttonData, buttonsOf, giveImage, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

const LONG = "Длинная история про наш город. ".repeat(50).trim(); // ~1500 characters

type P = Awaited<ReturnType<typeof projectWithChannel>>;

/** A two-message post, approved with `arm` set up just before the press. */
async function approvedLongPost(title: string, arm: () => void) {
  const p = await projectWithChannel(stack, { drafts: [title] });
  await giveImage(stack, p, p.drafts[0].id, LONG);
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3_000);
  arm();
  const query = stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(query), 10_000);
  return { p, postId };
}

const post = async (postId: number) =>
  (await stack.sql`select status, last_error_code, last_error_params, channel_message_ids, published_links from app_public.posts where id = ${postId}`)[0];
const statusOf = async (postId: number) => (await post(postId)).status;
const channel = (p: P) => stack.telegram!.messages(p.channel.id);
const photosSent = (p: P) =>
  stack.telegram!.requests.filter((r) => r.method === "sendPhoto" && String(r.params.chat_id) === String(p.channel.id) && r.status === 200);

async function adminNotice(p: P, pattern: RegExp) {
  const telegram = stack.telegram!;
  return await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => pattern.test(m.text ?? "")), 10_000);
}

/** The channel holds the post exactly once: its photo, then its text, nothing else. */
function expectWholeOnce(p: P) {
  const messages = channel(p);
  expect(messages).toHaveLength(2);
  expect(messages[0].photo?.length).toBeGreaterThan(0);
  expect(messages[0].caption).toBeUndefined();
  expect(messages[1].text).toBe(LONG);
  return messages;
}

test("the text refused after the photo: the photo is taken back, the post failed, the admin told", async () => {
  const { p, postId } = await approvedLongPost("Refused text", () =>
    stack.telegram!.failNext("sendMessage", { code: 400, description: "Bad Request: message must be non-empty" }));
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("failed");
  expect(photosSent(p)).toHaveLength(1);
  expect(channel(p)).toHaveLength(0);
  const row = await post(postId);
  expect(row.channelMessageIds).toEqual([]);
  expect(row).toMatchObject({ lastErrorCode: "posts.error.telegram", lastErrorParams: { description: "Bad Request: message must be non-empty" } });
  const notice = await adminNotice(p, /Не удалось опубликовать пост «Refused text»/);
  expect(notice.text).toMatch(/message must be non-empty/);
}, 60_000);

test("the text refused and the photo cannot be removed: failed, and the reason says the photo is there alone", async () => {
  const { p, postId } = await approvedLongPost("Stuck photo", () => {
    stack.telegram!.failNext("sendMessage", { code: 403, description: "Forbidden: not enough rights to send text messages to the chat" });
    stack.telegram!.failNext("deleteMessage", { code: 400, description: "Bad Request: message can't be deleted" });
  });
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("failed");
  const messages = channel(p);
  expect(messages).toHaveLength(1);
  const row = await post(postId);
  expect(row).toMatchObject({
    lastErrorCode: "posts.error.photoAlone",
    lastErrorParams: {
      description: "Forbidden: not enough rights to send text messages to the chat",
      removal: "Bad Request: message can't be deleted",
    },
  });
  // the photo stays recorded with the post, so deleting the post from the channel can find it
  expect(row.channelMessageIds).toEqual([messages[0].message_id]);
}, 60_000);

test("Telegram asks to wait longer than we hold a call: the photo is taken back and the post goes out whole later", async () => {
  const { p, postId } = await approvedLongPost("Rate limited", () =>
    stack.telegram!.failNext("sendMessage", { code: 429, retryAfter: 120 }));
  const telegram = stack.telegram!;
  await telegram.waitFor(() => telegram.requests.find((r) => r.method === "sendMessage" && r.status === 429), 20_000);
  await expect.poll(() => channel(p).length, { timeout: 10_000 }).toBe(0); // the photo was taken back
  await expect.poll(() => statusOf(postId), { timeout: 10_000 }).toBe("approved");
  expect(photosSent(p)).toHaveLength(1);
  expect(channel(p)).toHaveLength(0);
  const [job] = await stack.sql`select id, run_at from graphile_worker.jobs where key = ${`post:${postId}:publish`}`;
  expect(Date.parse(job.runAt) - Date.now()).toBeGreaterThan(100_000);
  // time passes (the job is moved to now rather than waiting two minutes)
  await stack.sql`select graphile_worker.reschedule_jobs(array[${job.id}]::bigint[], run_at := now())`;
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  expectWholeOnce(p);
}, 60_000);

test("the text's answer is lost and it never arrived: uncertain; 'Send again' takes the photo back and sends the post whole once", async () => {
  const { p, postId } = await approvedLongPost("Lost text", () => stack.telegram!.failNext("sendMessage", { drop: true }));
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("uncertain");
  const [firstPhoto] = channel(p);
  expect(channel(p)).toHaveLength(1);
  expect((await post(postId)).channelMessageIds).toEqual([firstPhoto.message_id]);

  const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => buttonsOf(m).includes(`resend:${postId}`)), 10_000);
  // the reason in the approver's language (the project's: Russian), in the words the owner's screen uses
  expect(notice.text).toMatch(/Фото уже в канале, а текст — может быть, нет/);
  // the lost connection is described without the Bot API URL (it carries the bot's token)
  expect(notice.text).not.toContain(stack.telegram!.token);
  expect((await post(postId)).lastErrorCode).toBe("posts.error.textUncertain");
  expect(JSON.stringify((await post(postId)).lastErrorParams)).not.toContain(stack.telegram!.token);
  stack.telegram!.userPressesButton(p.admin.id, p.admin.id, notice.message_id, `resend:${postId}`);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  const messages = expectWholeOnce(p);
  expect(messages[0].message_id).not.toBe(firstPhoto.message_id);
  expect(photosSent(p)).toHaveLength(2);
}, 60_000);

test("the text's answer is lost but it arrived: uncertain; 'It is in the channel' links the post to its photo", async () => {
  const { p, postId } = await approvedLongPost("Arrived text", () =>
    stack.telegram!.failNext("sendMessage", { drop: true, processed: true }));
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("uncertain");
  const messages = expectWholeOnce(p);

  const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => buttonsOf(m).includes(`inchannel:${postId}`)), 10_000);
  stack.telegram!.userPressesButton(p.admin.id, p.admin.id, notice.message_id, `inchannel:${postId}`);
  await expect.poll(() => statusOf(postId), { timeout: 10_000 }).toBe("published");
  const row = await post(postId);
  expect(row.publishedLinks).toEqual({ [p.channel.username!]: `https://t.me/${p.channel.username}/${messages[0].message_id}` });
  // the Published page shows the link
  const published = await stack.call("GET", `${p.base}/posts/published`, undefined, p.cookie);
  expect(JSON.stringify(published.json)).toContain(`https://t.me/${p.channel.username}/${messages[0].message_id}`);
  await new Promise((r) => setTimeout(r, 1000));
  expectWholeOnce(p);
}, 60_000);
