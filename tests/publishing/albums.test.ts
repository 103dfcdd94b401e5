/*
 * A post of several images goes out as one album; with a text too long for a caption, as
 * the album, then the text. Whatever happens between the two, the channel never keeps half
 * a post by our doing and nothing appears twice (docs/post-format.md).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { makePng } from "../helpers/images.ts";
import { buttonData, buttonsOf, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

type P = Awaited<ReturnType<typeof projectWithChannel>>;
const LONG = "Фотоотчёт с открытия моста, все подробности. ".repeat(40).trim(); // ~1800 characters

async function upload(p: P, rgb: [number, number, number]) {
  const form = new FormData();
  form.append("image", new File([makePng(80, 60, rgb)], "photo.png", { type: "image/png" }));
  const res = await stack.app.request(`${p.base}/upload-image`, { method: "POST", body: form, headers: { cookie: p.cookie } });
  return ((await res.json()) as { imageUrl: string }).imageUrl;
}

/** An approved album post of three images with `content`; `arm` runs just before the press. */
async function approvedAlbum(content: string, arm: () => void = () => {}) {
  const p = await projectWithChannel(stack);
  const imageUrls = [await upload(p, [200, 0, 0]), await upload(p, [0, 200, 0]), await upload(p, [0, 0, 200])];
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Bridge", content, imageUrls }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 3_000);
  arm();
  const query = stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await stack.telegram!.waitFor(() => stack.telegram!.callbackAnswer(query), 10_000);
  return { p, postId };
}

const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status;
const channel = (p: P) => stack.telegram!.messages(p.channel.id);
const albumsSent = (p: P) =>
  stack.telegram!.requests.filter((r) => r.method === "sendMediaGroup" && String(r.params.chat_id) === String(p.channel.id) && r.status === 200);

/** The channel holds the post exactly once: three photos of one album, then the text. */
function expectWholeOnce(p: P) {
  const messages = channel(p);
  expect(messages).toHaveLength(4);
  expect(new Set(messages.slice(0, 3).map((m) => m.media_group_id)).size).toBe(1);
  expect(messages.slice(0, 3).every((m) => (m.photo?.length ?? 0) > 0 && m.caption === undefined)).toBe(true);
  expect(messages[3].text).toBe(LONG);
}

test("three images and a short text: one album carrying the caption", async () => {
  const { p, postId } = await approvedAlbum("Мост открыт! 🎉");
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  const messages = channel(p);
  expect(messages).toHaveLength(3);
  expect(messages[0].caption).toBe("Мост открыт! 🎉");
  const [row] = await stack.sql`select channel_message_ids from app_public.posts where id = ${postId}`;
  expect(row.channelMessageIds).toEqual(messages.map((m) => m.message_id));

  // Telegram puts no buttons on an album: an edit that adds some is refused at once, not
  // sent to the approver to fail later; a new caption alone is fine
  const post = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === postId);
  const edit = (body: Record<string, unknown>) =>
    stack.call("PUT", `${p.base}/posts/${postId}`, { draftId: post.draftId, scheduledFor: post.scheduledFor, ...body }, p.cookie);
  const withButtons = await edit({ content: "Мост открыт!", options: { buttons: [[{ text: "Карта", url: "https://example.com/map" }]] } });
  expect(withButtons.status).toBe(400);
  expect(withButtons.json.code).toBe("posts.editAlbumButtons");
  expect((await stack.sql`select pending_edit from app_public.posts where id = ${postId}`)[0].pendingEdit).toBeNull();
  expect((await edit({ content: "Мост открыт!", options: { buttons: [] } })).status).toBe(200);
}, 60_000);

test("the text refused after the album: the album is taken back and the post failed", async () => {
  const { p, postId } = await approvedAlbum(LONG, () =>
    stack.telegram!.failNext("sendMessage", { code: 400, description: "Bad Request: message must be non-empty" }));
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("failed");
  expect(albumsSent(p)).toHaveLength(1);
  expect(channel(p)).toHaveLength(0);
}, 60_000);

test("the text's answer is lost and it never arrived: uncertain; 'Send again' takes the album back and sends the post whole once", async () => {
  const { p, postId } = await approvedAlbum(LONG, () => stack.telegram!.failNext("sendMessage", { drop: true }));
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("uncertain");
  const firstAlbum = channel(p).map((m) => m.message_id);
  expect(firstAlbum).toHaveLength(3);
  const [row] = await stack.sql`select channel_message_ids from app_public.posts where id = ${postId}`;
  expect(row.channelMessageIds).toEqual(firstAlbum);

  const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => buttonsOf(m).includes(`resend:${postId}`)), 10_000);
  stack.telegram!.userPressesButton(p.admin.id, p.admin.id, notice.message_id, `resend:${postId}`);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");
  expectWholeOnce(p);
  expect(channel(p).some((m) => firstAlbum.includes(m.message_id))).toBe(false);
  expect(albumsSent(p)).toHaveLength(2);
}, 60_000);
