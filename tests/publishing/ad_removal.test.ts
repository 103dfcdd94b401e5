/*
 * An ad's feed time through the real bot, worker (tasks/posts__remove_ad.ts) and the Bot API
 * double (docs/ads.md "The feed time"):
 * a sold post is previewed with its label, approved and published; at its term the bot deletes
 * every message of it (photo and text); a term of 48 hours or more reminds the owner by e-mail
 * and the approver in Telegram instead; and a bot without the right to delete is refused when
 * the ad is planned, or, losing it later, the owner and approver are told how to grant it and
 * the removal is tried again.
 *
 * Time: nobody waits an hour. An ad's term runs from its real send (published_at), and its
 * removal job is one graphile-worker job (key post:<id>:removal). A test "moves the clock" by
 * moving published_at back by the feed time and the job's run_at to now, through stack.sql,
 * as if the term had come; Telegram's own clock is untouched, so the messages are younger than
 * 48 hours and the bot may delete them, as it would at a real term under 48 hours.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adLabel } from "../../contract/ads.ts";
import { approvalPreview, buttonData, giveImage, postReaches, press, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

type P = Awaited<ReturnType<typeof projectWithChannel>>;
const AD = { advertiser: "ООО «Ромашка»", advertiserInn: "7707083893", erid: "2VtzqvXyZ1", topMinutes: 0, feedMinutes: 60 };

const removalJob = async (postId: number) =>
  (await stack.sql<{ runAt: string; attempts: number }[]>`
    select run_at, attempts from graphile_worker._private_jobs where key = ${`post:${postId}:removal`}`)[0];

/** The term has come: the ad went out `feedMinutes` ago, and its job is due now. */
async function termComes(postId: number, feedMinutes: number) {
  await stack.sql`update app_public.posts set published_at = published_at - make_interval(mins => ${feedMinutes}) where id = ${postId}`;
  await jobDueNow(postId);
}
async function jobDueNow(postId: number) {
  const moved = await stack.sql`
    update graphile_worker._private_jobs set run_at = now() where key = ${`post:${postId}:removal`} and locked_at is null returning id`;
  expect(moved, "the removal job is queued").toHaveLength(1);
}
const adRow = async (postId: number) =>
  (await stack.sql<{ adRemovedAt: string | null; adRemovalRemindedAt: string | null; adRemovalBlockedAt: string | null; publishedAt: string }[]>`
    select ad_removed_at, ad_removal_reminded_at, ad_removal_blocked_at, published_at from app_public.posts where id = ${postId}`)[0];
const ownerEmail = async (p: P) =>
  (await stack.sql`select u.email from app_public.users u join app_public.projects pr on pr.user_id = u.id where pr.id = ${p.project.id}`)[0]
    .email as string;
/** deleteMessage calls Telegram carried out in the chat (status 200). */
const deletesIn = (chatId: number) =>
  stack.telegram!.requests.filter((r) => r.method === "deleteMessage" && String(r.params.chat_id) === String(chatId) && r.status === 200);

/** A published ad of the project: its draft (text, optionally with a photo first), approved by the admin, out in the channel. */
async function publishedAd(p: P, ad: typeof AD, content: string, withImage = false) {
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Sold", content, ad }, p.cookie)).json;
  if (withImage) await giveImage(stack, p, draftId, content);
  const created = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: new Date(Date.now() + 3000).toISOString() }, p.cookie);
  expect(created.status, created.text).toBe(201);
  const postId = created.json.id as number;
  await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
  const preview = await approvalPreview(stack, p, postId);
  await press(stack, p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await postReaches(stack, postId, "published");
  return { postId, preview };
}

describe("at its term", () => {
  test("an ad kept under 48 hours: previewed with its label, published, and every message of it deleted at its term, once", async () => {
    const p = await projectWithChannel(stack);
    const long = "Цветы к празднику со скидкой. ".repeat(45).trim(); // over a caption: the photo, then the text
    const { postId } = await publishedAd(p, AD, long, true);
    const label = adLabel(AD, "ru");
    const sent = stack.telegram!.messages(p.channel.id);
    expect(sent).toHaveLength(2);
    expect(sent[0].photo?.length).toBeGreaterThan(0);
    expect(sent[1].text).toBe(`${long}\n\n${label}`);
    // the approver saw it as the channel does: the photo, then the text with the label
    expect(stack.telegram!.messages(p.admin.id).some((m) => m.text === `${long}\n\n${label}`)).toBe(true);

    // queued when it was recorded published, half an hour before its term to check the bot's right
    const { publishedAt } = await adRow(postId);
    const term = Date.parse(publishedAt) + 60 * 60_000;
    expect(Math.abs(Date.parse((await removalJob(postId)).runAt) - (term - 30 * 60_000))).toBeLessThan(2_000);
    // the early check: the bot may delete, so the job comes back at the term, nothing touched
    await jobDueNow(postId);
    await expect.poll(async () => Date.parse((await removalJob(postId))?.runAt ?? "0"), { timeout: 10_000 }).toBe(term);
    expect(stack.telegram!.messages(p.channel.id)).toHaveLength(2);

    await termComes(postId, 60);
    await expect.poll(async () => (await adRow(postId)).adRemovedAt, { timeout: 10_000 }).not.toBeNull();
    expect(stack.telegram!.messages(p.channel.id)).toEqual([]);
    expect(deletesIn(p.channel.id).map((r) => Number(r.params.message_id)).sort()).toEqual(sent.map((m) => m.message_id).sort());
    // the job is done once the worker finishes it (just after the removal is recorded)
    await expect.poll(() => removalJob(postId), { timeout: 10_000 }).toBeUndefined();
    // the post says so (ad.removedAt, and adState's), and stays published with its history
    const shown = (await stack.call("GET", `${p.base}/posts/${postId}`, undefined, p.cookie)).json;
    expect(shown.status).toBe("published");
    expect(Date.parse(shown.ad.removedAt)).toBe(Date.parse((await adRow(postId)).adRemovedAt!));
    expect(shown.adState.removedAt).toBe(shown.ad.removedAt);
    expect(shown.adState.removalRemindedAt).toBeNull();
    // the project's activity says Pressa removed it, once
    const removedLines = (await stack.call("GET", `${p.base}/activity?action=post.adRemoved`, undefined, p.cookie)).json.items;
    expect(removedLines).toMatchObject([{ actor: { type: "system" }, target: { type: "post", id: postId }, details: { title: "Sold" } }]);
    // the owner was told nothing: nothing needed them
    expect(stack.smtp.mailsTo(await ownerEmail(p)).filter((m) => /реклам/i.test(m.subject))).toEqual([]);
  }, 90_000);

  test("a term of 48 hours or more: the owner (e-mail) and the approver (Telegram) are reminded to delete it by hand, once; nothing is deleted", async () => {
    const p = await projectWithChannel(stack);
    const { postId } = await publishedAd(p, { ...AD, feedMinutes: 2880 }, "Двое суток в ленте");
    const { publishedAt } = await adRow(postId);
    // queued for the term itself: there is nothing for the bot to check
    expect(Date.parse((await removalJob(postId)).runAt)).toBe(Date.parse(publishedAt) + 2880 * 60_000);
    const email = await ownerEmail(p);
    const before = stack.smtp.mailsTo(email).length;

    await termComes(postId, 2880);
    const mail = await stack.smtp.waitForMail(email, before + 1);
    expect(mail.subject).toBe("Pressa: рекламу «Sold» пора удалить из канала");
    expect(mail.text).toMatch(/удалите пост в канале вручную/);
    const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => m.text?.startsWith("🗑")), 10_000);
    expect(notice.text).toContain("Срок рекламы «Sold»");
    expect(notice.text).toContain(`https://t.me/${p.channel.username}/${stack.telegram!.messages(p.channel.id)[0].message_id}`);
    const shown = (await stack.call("GET", `${p.base}/posts/${postId}`, undefined, p.cookie)).json;
    expect(shown.adState.removalRemindedAt).not.toBeNull();
    expect(shown.adState.removedAt).toBeNull();
    expect(stack.telegram!.messages(p.channel.id)).toHaveLength(1);
    expect(deletesIn(p.channel.id)).toEqual([]);

    // a stray second run (a retry, a second worker) reminds nobody again
    await stack.sql`select app_private.queue_ad_removal(${postId}, now())`;
    await expect.poll(() => removalJob(postId), { timeout: 10_000 }).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1500));
    expect(stack.smtp.mailsTo(email)).toHaveLength(before + 1);
    expect(stack.telegram!.messages(p.admin.id).filter((m) => m.text?.startsWith("🗑"))).toHaveLength(1);
    // the activity has one line for it
    const dueLines = (await stack.call("GET", `${p.base}/activity?action=post.adRemovalDue`, undefined, p.cookie)).json.items;
    expect(dueLines).toMatchObject([{ actor: { type: "system" }, target: { type: "post", id: postId } }]);
  }, 90_000);

  test("the bot's right lost before the term: owner and approver told how to grant it once, tried again, deleted once it is back", async () => {
    const p = await projectWithChannel(stack, { language: "en" });
    const { postId } = await publishedAd(p, AD, "Flowers for the holidays");
    const email = await ownerEmail(p);
    const before = stack.smtp.mailsTo(email).length;
    stack.telegram!.setBotRights(p.channel.id, { can_delete_messages: false });

    await termComes(postId, 60);
    const mail = await stack.smtp.waitForMail(email, before + 1);
    expect(mail.subject).toBe("Pressa: the bot cannot delete the ad “Sold”");
    expect(mail.text).toContain("Administrators → the bot → turn on “Delete messages”");
    const notice = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => m.text?.startsWith("⚠️ The ad")), 10_000);
    expect(notice.text).toContain(`@${p.channel.username}`);
    // tried again in 10 minutes, the ad still in the channel
    await expect.poll(async () => Date.parse((await removalJob(postId))?.runAt ?? "0") - Date.now(), { timeout: 10_000 })
      .toBeGreaterThan(9 * 60_000);
    expect(stack.telegram!.messages(p.channel.id)).toHaveLength(1);
    expect((await adRow(postId)).adRemovedAt).toBeNull();

    // the next try, the right still missing: nobody is told twice
    await jobDueNow(postId);
    await expect.poll(async () => Date.parse((await removalJob(postId))?.runAt ?? "0") - Date.now(), { timeout: 10_000 })
      .toBeGreaterThan(9 * 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(stack.smtp.mailsTo(email)).toHaveLength(before + 1);
    expect(stack.telegram!.messages(p.admin.id).filter((m) => m.text?.startsWith("⚠️ The ad"))).toHaveLength(1);

    // granted: the next try deletes it
    stack.telegram!.setBotRights(p.channel.id, "administrator");
    await jobDueNow(postId);
    await expect.poll(async () => (await adRow(postId)).adRemovedAt, { timeout: 10_000 }).not.toBeNull();
    expect(stack.telegram!.messages(p.channel.id)).toEqual([]);
    expect((await adRow(postId)).adRemovalBlockedAt).toBeNull();
  }, 90_000);

  test("the right found missing half an hour before the term: the owner is told then, while there is time to grant it", async () => {
    const p = await projectWithChannel(stack);
    const { postId } = await publishedAd(p, AD, "Told ahead");
    const email = await ownerEmail(p);
    const before = stack.smtp.mailsTo(email).length;
    stack.telegram!.setBotRights(p.channel.id, { can_delete_messages: false });
    await jobDueNow(postId); // the early check
    const mail = await stack.smtp.waitForMail(email, before + 1);
    expect(mail.subject).toBe("Pressa: бот не может удалить рекламу «Sold»");
    expect(mail.text).toContain("канал → Администраторы → бот → включите «Удаление сообщений»");
    const term = Date.parse((await adRow(postId)).publishedAt) + 60 * 60_000;
    await expect.poll(async () => Date.parse((await removalJob(postId))?.runAt ?? "0"), { timeout: 10_000 }).toBe(term);
    expect(stack.telegram!.messages(p.channel.id)).toHaveLength(1);
  }, 60_000);

  test("the right still missing when Telegram's 48 hours run out: the retries end in the reminder to delete it by hand", async () => {
    const p = await projectWithChannel(stack);
    const { postId } = await publishedAd(p, AD, "Never granted");
    const email = await ownerEmail(p);
    const before = stack.smtp.mailsTo(email).length;
    stack.telegram!.setBotRights(p.channel.id, { can_delete_messages: false });
    // the owner was told at the term and never granted it; the ad went out 48 hours ago now
    await termComes(postId, 2880);
    const mail = await stack.smtp.waitForMail(email, before + 1);
    expect(mail.subject).toBe("Pressa: рекламу «Sold» пора удалить из канала");
    await expect.poll(async () => (await adRow(postId)).adRemovalRemindedAt, { timeout: 10_000 }).not.toBeNull();
    await expect.poll(() => removalJob(postId), { timeout: 10_000 }).toBeUndefined();
    expect(stack.telegram!.messages(p.channel.id)).toHaveLength(1);
  }, 60_000);

  test("an ad deleted from Pressa before its term takes its removal job with it", async () => {
    const p = await projectWithChannel(stack);
    const { postId } = await publishedAd(p, AD, "Deleted early");
    expect(await removalJob(postId)).toBeDefined();
    const res = await stack.call("DELETE", `${p.base}/posts/${postId}`, { deleteFromChannels: true }, p.cookie);
    expect(res.status, res.text).toBe(200);
    expect(stack.telegram!.messages(p.channel.id)).toEqual([]);
    expect(await removalJob(postId)).toBeUndefined();
  }, 60_000);

  test("an ad whose channel changed meanwhile is left alone: the new channel's messages are not ours to touch", async () => {
    const p = await projectWithChannel(stack);
    const { postId } = await publishedAd(p, AD, "Old channel");
    // the chat it went to is no longer the project's channel (another chat, no real one's id)
    await stack.sql`update app_public.channels set chat_id = -7000000000000 - id where project_id = ${p.project.id}`;
    await termComes(postId, 60);
    await expect.poll(() => removalJob(postId), { timeout: 10_000 }).toBeUndefined();
    expect(stack.telegram!.messages(p.channel.id)).toHaveLength(1);
    expect((await adRow(postId)).adRemovedAt).toBeNull();
  }, 60_000);
});

describe("planning an ad the bot deletes needs its right to delete", () => {
  test("without it: 409 ads.cannotDelete naming the channel, when scheduled, written and scheduled, or rescheduled; nothing planned", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Own post"] });
    stack.telegram!.setBotRights(p.channel.id, { can_delete_messages: false });
    const at = new Date(Date.now() + 5 * 3600_000).toISOString();
    const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Sold", content: "Buy", ad: AD }, p.cookie)).json;

    const scheduled = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: at }, p.cookie);
    expect(scheduled.status).toBe(409);
    expect(scheduled.json).toMatchObject({ code: "ads.cannotDelete", params: { channel: `@${p.channel.username}` } });
    expect(scheduled.json.message).toContain("Delete messages");
    const written = await stack.call("POST", `${p.base}/posts`, { writeDraft: true, title: "New ad", content: "Buy", scheduledFor: at, ad: AD }, p.cookie);
    expect(written.status).toBe(409);
    expect(written.json.code).toBe("ads.cannotDelete");
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json).toEqual([]);
    expect((await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json.map((d: { title: string }) => d.title).sort())
      .toEqual(["Own post", "Sold"]);
    // an own post, planned, cannot become such an ad either
    const own = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: at }, p.cookie)).json;
    const moved = await stack.call("PUT", `${p.base}/posts/${own.id}`, { draftId: p.drafts[0].id, scheduledFor: at, ad: AD }, p.cookie);
    expect(moved.status).toBe(409);
    expect(moved.json.code).toBe("ads.cannotDelete");
    expect((await stack.call("GET", `${p.base}/posts/${own.id}`, undefined, p.cookie)).json.ad).toBeNull();

    // terms the bot does not keep need no right: kept for good, or 48 hours and more (a reminder)
    for (const feedMinutes of [0, 2880]) {
      const kept = await stack.call("PUT", `${p.base}/posts/${own.id}`, { draftId: p.drafts[0].id, scheduledFor: at, ad: { ...AD, feedMinutes } }, p.cookie);
      expect(kept.status, kept.text).toBe(200);
    }
    // granted: planned
    stack.telegram!.setBotRights(p.channel.id, "administrator");
    expect((await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: at }, p.cookie)).status).toBe(201);
  }, 60_000);

  test("Telegram's slow answer holds nothing: the post stays free to change meanwhile, and a replayed key asks no more", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Own post"] });
    const at = new Date(Date.now() + 5 * 3600_000).toISOString();
    const own = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: at }, p.cookie);
    const questions = () => stack.telegram!.requests.filter((r) => r.method.toLowerCase() === "getchatmember").length;

    // an update under If-Match that makes it an ad: Telegram takes 3 s to say the bot may delete
    stack.telegram!.failNext("getChatMember", { delayMs: 3000 });
    const order: string[] = [];
    const slow = stack.call("PUT", `${p.base}/posts/${own.json.id}`, { draftId: p.drafts[0].id, scheduledFor: at, ad: AD }, p.cookie,
      { "if-match": own.headers.get("etag")! }).then((r) => (order.push("ad"), r));
    await stack.telegram!.waitFor(() => stack.telegram!.requests.some((r) => r.method.toLowerCase() === "getchatmember" && r.status === undefined));
    // meanwhile the owner moves the same post: its row is not locked by the waiting update
    const later = new Date(Date.now() + 6 * 3600_000).toISOString();
    const moved = await stack.call("PUT", `${p.base}/posts/${own.json.id}`, { draftId: p.drafts[0].id, scheduledFor: later }, p.cookie);
    order.push("move");
    expect(moved.status, moved.text).toBe(200);
    // and the slow one, its version now stale, changes nothing
    expect((await slow).status).toBe(412);
    expect(order).toEqual(["move", "ad"]);
    expect((await stack.call("GET", `${p.base}/posts/${own.json.id}`, undefined, p.cookie)).json).toMatchObject({ scheduledFor: later, ad: null });

    // a creation under Idempotency-Key asks once; its replay answers the stored post without asking
    const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Sold", content: "Buy", ad: AD }, p.cookie)).json;
    const before = questions();
    const made = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: at }, p.cookie, { "idempotency-key": "ad-once" });
    expect(made.status, made.text).toBe(201);
    expect(questions()).toBe(before + 1);
    // the bot loses the right since: the replay still answers what the first request did
    stack.telegram!.setBotRights(p.channel.id, { can_delete_messages: false });
    const replayed = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: at }, p.cookie, { "idempotency-key": "ad-once" });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.json).toEqual(made.json);
    expect(questions()).toBe(before + 1);
  }, 60_000);
});
