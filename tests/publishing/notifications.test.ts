/*
 * Notifications to the owner by e-mail (issue 17), delivered to a real SMTP server: a
 * rejected post, a failed one, lost channel rights and a queue running low each mail the
 * owner in the project's language, at most once per kind and day; a kind switched off in
 * the settings mails nothing.
 * Home of tasks/notifications__send.ts (docs/testing.md).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approvalPreview, buttonData, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

type Project = Awaited<ReturnType<typeof projectWithChannel>>;

const ownerOf = async (p: Project) =>
  (await stack.sql`select u.email from app_public.users u join app_public.projects pr on pr.user_id = u.id where pr.id = ${p.project.id}`)[0]
    .email as string;

async function postFor(p: Project, draftIndex: number, inMs: number, content = "Text") {
  await stack.call("PATCH", `${p.base}/drafts/${p.drafts[draftIndex].id}`, { content }, p.cookie);
  const { id } = (await stack.call("POST", `${p.base}/posts`, {
    draftId: p.drafts[draftIndex].id, scheduledFor: new Date(Date.now() + inMs).toISOString(),
  }, p.cookie)).json;
  return id as number;
}

async function reject(p: Project, postId: number) {
  const telegram = stack.telegram!;
  expect((await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie)).status).toBe(200);
  const preview = await approvalPreview(stack, p, postId, 10_000);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "reject", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
}

/** Lets queued mail jobs run: a mail that should not come has had its chance. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

test("a rejected post mails the owner once a day, in the project's language, with a link to it", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Morning digest", "Evening digest"] });
  const email = await ownerOf(p);
  const before = stack.smtp.mailsTo(email).length;
  await reject(p, await postFor(p, 0, 3600_000));
  const mail = await stack.smtp.waitForMail(email, before + 1);
  expect(mail.subject).toBe("Pressa: пост «Morning digest» отклонён");
  expect(mail.text).toContain("Администратор канала отклонил пост «Morning digest»");
  expect(mail.text).toContain(`/project/${p.project.id}/schedule`);
  expect(mail.text).toContain("Настройки → Уведомления");

  // a second rejection the same day: no second mail of that kind
  await reject(p, await postFor(p, 1, 3600_000));
  await settle();
  expect(stack.smtp.mailsTo(email)).toHaveLength(before + 1);
}, 60_000);

test("a post Telegram refuses mails the owner in English for an English project, the reason in words", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Launch"], language: "en" });
  const email = await ownerOf(p);
  const before = stack.smtp.mailsTo(email).length;
  const postId = await postFor(p, 0, 4000);
  await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
  const preview = await approvalPreview(stack, p, postId, 10_000);
  telegram.failNext("sendMessage", { code: 400, description: "Bad Request: chat not found" });
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  const mail = await stack.smtp.waitForMail(email, before + 1, 20_000);
  expect(mail.subject).toBe("Pressa: the post “Launch” was not published");
  expect(mail.text).toContain("chat not found");
  expect(mail.text).toContain("Settings → Notifications");
}, 60_000);

test("the bot losing its rights mails the owner about the channel", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Announcement"] });
  const email = await ownerOf(p);
  const before = stack.smtp.mailsTo(email).length;
  telegram.setBotRights(p.channel.id, { can_post_messages: false });
  await stack.sql`update app_public.channels set rights_checked_at = now() - interval '11 minutes' where project_id = ${p.project.id}`;
  const postId = await postFor(p, 0, 3600_000);
  await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
  const mail = await stack.smtp.waitForMail(email, before + 1, 20_000);
  expect(mail.subject).toBe(`Pressa: нет прав на публикацию в канале проекта «${p.project.name}»`);
  // the stored reason, said in Russian with the channel's name
  expect(mail.text).toContain(`@${p.channel.username}`);
  expect(mail.text).toMatch(/Бот больше не/);
  expect(mail.text).toContain(`/project/${p.project.id}/channels`);
}, 60_000);

test("a queue running dry within 3 days mails the owner with the date; switched off, it does not", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Only one"] });
  const email = await ownerOf(p);
  const before = stack.smtp.mailsTo(email).length;
  // every day at one time, 3 hours ahead: one draft covers today only
  const at = new Date(Date.now() + 3 * 3600_000);
  const moscow = new Date(at.getTime() + 3 * 3600_000);
  const time = `${String(moscow.getUTCHours()).padStart(2, "0")}:${String(moscow.getUTCMinutes()).padStart(2, "0")}`;
  for (let day = 0; day < 7; day += 1) {
    expect((await stack.call("POST", `${p.base}/content-plans`, { dayOfWeek: day, time, postLength: 300 }, p.cookie)).status).toBe(201);
  }
  const mail = await stack.smtp.waitForMail(email, before + 1, 20_000);
  expect(mail.subject).toMatch(/^Pressa: черновики проекта «.+» закончатся \d+ \S+$/);
  expect(mail.text).toContain("осталось черновиков: 0");
  expect(mail.text).toContain(`/project/${p.project.id}/drafts`);

  // another account with the kind switched off gets nothing
  const q = await projectWithChannel(stack, { drafts: ["Only one"] });
  const off = await stack.call("PATCH", "/api/notifications", { queueLow: false }, q.cookie);
  expect(off.json).toEqual({ queueLow: false, postFailed: true, postRejected: true, channelLost: true, ...TEAM_KINDS_ON, weeklySummary: true });
  for (let day = 0; day < 7; day += 1) await stack.call("POST", `${q.base}/content-plans`, { dayOfWeek: day, time, postLength: 300 }, q.cookie);
  await expect.poll(async () => (await stack.sql`select count(*)::int as n from app_public.posts where project_id = ${q.project.id}`)[0].n,
    { timeout: 10_000 }).toBe(1);
  await settle();
  expect(stack.smtp.mailsTo(await ownerOf(q))).toHaveLength(1); // the sign-in code only
}, 60_000);

/** A team's review mails (docs/review.md) and the webhook switch-off (docs/api.md), on until switched off like the owner's kinds. */
const TEAM_KINDS_ON = {
  reviewRequested: true, reviewApproved: true, reviewReturned: true, postCommented: true, webhookDisabled: true,
  adRemovalDue: true, adCannotDelete: true,
};

test("notification settings: every kind on at first, changed one at a time; bad input changes nothing", async () => {
  const { cookie } = await stack.signIn(`settings-${crypto.randomUUID()}@example.com`);
  expect((await stack.call("GET", "/api/notifications", undefined, cookie)).json)
    .toEqual({ queueLow: true, postFailed: true, postRejected: true, channelLost: true, ...TEAM_KINDS_ON, weeklySummary: true });
  expect((await stack.call("PATCH", "/api/notifications", { postRejected: false }, cookie)).json)
    .toEqual({ queueLow: true, postFailed: true, postRejected: false, channelLost: true, ...TEAM_KINDS_ON, weeklySummary: true });
  const cases: [unknown, string][] = [
    [{ postRejected: "no" }, "notifications.invalid"],
    [{ weekly: true }, "notifications.invalid"],
    [[], "request.notJsonObject"],
  ];
  for (const [bad, code] of cases) {
    const res = await stack.call("PATCH", "/api/notifications", bad, cookie);
    expect(res.status, JSON.stringify(bad)).toBe(400);
    expect(res.json.code).toBe(code);
  }
  expect((await stack.call("GET", "/api/notifications", undefined, cookie)).json.postRejected).toBe(false);
  expect((await stack.call("GET", "/api/notifications", undefined, undefined)).status).toBe(401);
});
