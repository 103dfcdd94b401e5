/*
 * Review before Telegram (docs/teams.md "Review", shared/DESIGN.md "Teams"): an author's post
 * waits in `in_review` and nothing reaches the approver's chat until an editor or owner approves
 * it; approval continues to the approver in Telegram as the editor's own act would, return puts
 * it back to draft with the comment. Editors and owners hear of a post to review, the author of
 * the outcome (mails of tasks/notifications__send.ts, read from the SMTP sink). Through the
 * real bot and the Bot API double. Home of api/routes/review.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { approvalPreview, buttonData, postReaches, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A project with its channel, and an editor and an author besides its owner. */
async function team(drafts: string[], options: { language?: string } = {}) {
  const p = await projectWithChannel(stack, { drafts, ...options });
  const [owner] = await stack.sql<{ email: string }[]>`
    select u.email from app_public.users u join app_public.projects p on p.user_id = u.id where p.id = ${p.project.id}`;
  const editor = await addMember(stack, p.project.id, p.cookie, "editor");
  const author = await addMember(stack, p.project.id, p.cookie, "author");
  return { ...p, ownerEmail: owner.email, editor, author };
}

const approvalJob = async (postId: number) =>
  (await stack.sql`select 1 from graphile_worker.jobs where key = ${`post:${postId}:approval`}`).length;
/** Messages in the approver's chat besides the bot's first question (the connection). */
const approverMessages = (p: Awaited<ReturnType<typeof team>>) =>
  stack.telegram!.messages(p.admin.id).filter((m) => m.message_id !== p.question.message_id);
const settle = () => new Promise((r) => setTimeout(r, 1500));
/** The mails to `email` about the team (not its invitation or sign-in codes), oldest first. */
const teamMails = (email: string) => stack.smtp.mailsTo(email).filter((m) => !/приглашение|invitation|код для входа/.test(m.subject));
const teamMail = (email: string, nth = 1) => until(async () => teamMails(email)[nth - 1]);

describe("an author's post waits for review", () => {
  test("publish → in_review with no approval job and nothing in Telegram; an editor's approval sends the preview, the admin approves, it is published", async () => {
    const p = await team(["Author's story"]);
    await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { content: "A story the author wrote." }, p.author.cookie);
    const scheduledFor = new Date(Date.now() + 25_000);
    const created = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: scheduledFor.toISOString() }, p.author.cookie);
    expect(created.status, created.text).toBe(201);
    // due within 2 hours, an editor's post would ask the approver at once; the author's waits
    expect(created.json).toMatchObject({ status: "in_review", createdBy: p.author.user.id, reviewAuthorId: p.author.user.id, reviewPublish: false });
    const postId = created.json.id;

    const published = await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.author.cookie);
    expect(published.status, published.text).toBe(200);
    expect(published.json).toMatchObject({ status: "in_review", reviewPublish: true, reviewAuthorEmail: p.author.email.toLowerCase() });
    expect(await approvalJob(postId)).toBe(0);

    // editors and owners are told once (the Publish on a waiting post tells nobody again)
    const toEditor = await teamMail(p.editor.email);
    expect(toEditor.subject).toBe("Pressa: пост «Author's story» ждёт проверки");
    expect(toEditor.text).toContain(p.author.email.toLowerCase());
    expect(toEditor.text).toContain(`/project/${p.project.id}/review`);
    await teamMail(p.ownerEmail);
    // the queue lists it, for every member
    const queue = await stack.call("GET", `${p.base}/posts/review`, undefined, p.editor.cookie);
    expect(queue.json.map((x: { id: number }) => x.id)).toEqual([postId]);
    await settle();
    expect(approverMessages(p)).toEqual([]);
    expect(teamMails(p.editor.email)).toHaveLength(1);
    expect(teamMails(p.author.email)).toHaveLength(0);

    const approved = await stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "approve" }, p.editor.cookie);
    expect(approved.status, approved.text).toBe(200);
    // the author had pressed Publish: the approver is asked at once, as the editor's own Publish would
    expect(approved.json.status).toBe("scheduled");
    const preview = await approvalPreview(stack, p, postId, 10_000);
    expect(preview.text).toBe("A story the author wrote.");
    const toAuthor = await teamMail(p.author.email);
    expect(toAuthor.subject).toBe("Pressa: пост «Author's story» одобрен");
    expect(toAuthor.text).toContain(p.editor.email.toLowerCase());
    expect((await stack.call("GET", `${p.base}/posts/review`, undefined, p.editor.cookie)).json).toEqual([]);

    const telegram = stack.telegram!;
    const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
    await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
    const inChannel = await telegram.waitFor(() => telegram.messages(p.channel.id)[0], 40_000);
    expect(inChannel.text).toBe("A story the author wrote.");
    expect(Date.now()).toBeGreaterThanOrEqual(scheduledFor.getTime() - 100);
    await postReaches(stack, postId, "published");
  }, 90_000);

  test("approve of a post the author only scheduled asks the approver 2 hours before its time", async () => {
    const p = await team(["Later"]);
    const scheduledFor = inDays(2);
    const postId = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor }, p.author.cookie)).json.id;
    const approved = await stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "approve" }, p.cookie);
    expect(approved.json.status).toBe("draft");
    const [job] = await stack.sql`select run_at from graphile_worker.jobs where key = ${`post:${postId}:approval`}`;
    expect(new Date(job.runAt).getTime()).toBe(new Date(scheduledFor).getTime() - 2 * 3_600_000);
  });

  test("return → draft with the comment, mailed to the author; it never reaches Telegram; a later comment reaches the author too", async () => {
    const p = await team(["Needs work"], { language: "en" });
    const postId = (await stack.call("POST", `${p.base}/posts`, {
      draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() + 60_000).toISOString(),
    }, p.author.cookie)).json.id;
    await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.author.cookie);

    const returned = await stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "return", comment: "Shorter, please." }, p.editor.cookie);
    expect(returned.status, returned.text).toBe(200);
    expect(returned.json).toMatchObject({ status: "draft", reviewPublish: false, returnedAt: expect.any(String) });
    expect(await approvalJob(postId)).toBe(0);

    const comments = await stack.call("GET", `${p.base}/posts/${postId}/comments`, undefined, p.author.cookie);
    expect(comments.json).toEqual([{
      id: expect.any(Number), author: { userId: p.editor.user.id, email: p.editor.email.toLowerCase() }, text: "Shorter, please.", createdAt: expect.any(String),
    }]);
    // in the project's language
    const mail = await teamMail(p.author.email);
    expect(mail.subject).toBe("Pressa: the post “Needs work” was returned to you");
    expect(mail.text).toContain("Comment: Shorter, please.");

    // a comment on the returned post reaches its author; the author's own does not mail them
    await stack.call("POST", `${p.base}/posts/${postId}/comments`, { text: "Sure, on it." }, p.author.cookie);
    await stack.call("POST", `${p.base}/posts/${postId}/comments`, { text: "And a better title." }, p.cookie);
    const third = await teamMail(p.author.email, 2);
    expect(third.subject).toBe("Pressa: a new comment on the post “Needs work”");
    expect(third.text).toContain("And a better title.");
    await settle();
    expect(teamMails(p.author.email)).toHaveLength(2);
    expect(approverMessages(p)).toEqual([]);
    expect((await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status).toBe("draft");

    // publishing again sends it to review again
    const again = await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.author.cookie);
    expect(again.json).toMatchObject({ status: "in_review", returnedAt: null });
  }, 60_000);

  test("an author or a viewer may not review (403 team.forbidden), and a double review changes nothing", async () => {
    const p = await team(["Twice"]);
    const viewer = await addMember(stack, p.project.id, p.cookie, "viewer");
    const postId = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inDays(3) }, p.author.cookie)).json.id;
    await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.author.cookie);
    const before = (await stack.sql`select p::text as row from app_public.posts p where id = ${postId}`)[0].row;
    for (const cookie of [p.author.cookie, viewer.cookie]) {
      const refused = await stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "approve" }, cookie);
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe("team.forbidden");
    }
    expect((await stack.sql`select p::text as row from app_public.posts p where id = ${postId}`)[0].row).toBe(before);
    const bad = await stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "maybe" }, p.editor.cookie);
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe("review.decisionInvalid");

    // two presses at once (two editors, or a double click): one decides
    const [a, b] = await Promise.all([
      stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "approve" }, p.editor.cookie),
      stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "return", comment: "No" }, p.cookie),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((x) => x.status === 409)!.json.code).toBe("review.notWaiting");
    // (the worker may be sending the approved post's preview meanwhile: compare the review's own fields)
    const decided = () => stack.sql`select status, returned_at, review_publish from app_public.posts where id = ${postId}`;
    const after = await decided();
    const late = await stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "return", comment: "Too late" }, p.editor.cookie);
    expect(late.status).toBe(409);
    expect(await decided()).toEqual(after);
    // only the winner's comment (if it was the return) is there; the late one left none
    const texts = (await stack.call("GET", `${p.base}/posts/${postId}/comments`, undefined, p.editor.cookie)).json.map((c: { text: string }) => c.text);
    expect(texts).not.toContain("Too late");
    expect(texts.length).toBeLessThanOrEqual(1);
  });

  test("each member's own switch decides their mail: an editor who turned review mail off gets none", async () => {
    const p = await team(["Quiet"]);
    await stack.call("PATCH", "/api/notifications", { reviewRequested: false }, p.editor.cookie);
    const postId = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inDays(3) }, p.author.cookie)).json.id;
    expect(postId).toBeGreaterThan(0);
    await teamMail(p.ownerEmail);
    await settle();
    expect(teamMails(p.editor.email)).toEqual([]);
  });
});

test("an approval job that meets a post waiting for review sends nothing and leaves it waiting", async () => {
  const p = await team(["Held"]);
  const postId = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inDays(1) }, p.author.cookie)).json.id;
  // a stale job (queued before the author's edit, say) finds it
  const [claim] = await stack.sql`select app_public.claim_post_for_approval(${postId}, 'stale-job') as d`;
  expect(claim.d).toBeNull();
  expect((await stack.sql`select status, approval_preview from app_public.posts where id = ${postId}`)[0]).toEqual({ status: "in_review", approvalPreview: {} });
  await stack.sql`select graphile_worker.add_job('posts__send_approval', json_build_object('postId', ${postId}::bigint))`;
  await settle();
  expect(approverMessages(p)).toEqual([]);
  expect((await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status).toBe("in_review");
});

describe("series", () => {
  test("an author's series makes occurrences that wait for review; an editor's skip it", async () => {
    const p = await team(["One", "Two", "Three"]);
    const soon = new Date(Date.now() + 30 * 60_000).toISOString();
    const byAuthor = await stack.call("POST", `${p.base}/posts`, { scheduledFor: soon, recurringType: "daily", title: "Daily" }, p.author.cookie);
    expect(byAuthor.status, byAuthor.text).toBe(201);
    // its first occurrence is due within 2 hours: the worker makes it at once
    const occurrence = await until(async () =>
      (await stack.sql`select id, status from app_public.posts where series_id = ${byAuthor.json.id}`)[0]
    );
    expect(occurrence.status).toBe("in_review");
    expect(await approvalJob(occurrence.id)).toBe(0);
    const mail = await teamMail(p.editor.email);
    expect(mail.subject).toContain("ждёт проверки");

    const byEditor = await stack.call("POST", `${p.base}/posts`, { scheduledFor: soon, recurringType: "daily", title: "Editor's" }, p.editor.cookie);
    const editorsOccurrence = await until(async () =>
      (await stack.sql`select id, status from app_public.posts where series_id = ${byEditor.json.id}`)[0]
    );
    expect(editorsOccurrence.status).not.toBe("in_review");
    // its preview goes out at once (the occurrence is due within 2 hours); the author's never does
    await approvalPreview(stack, p, editorsOccurrence.id, 15_000);
    expect((await stack.sql`select status from app_public.posts where id = ${occurrence.id}`)[0].status).toBe("in_review");
  }, 60_000);
});

async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("never came");
    await new Promise((r) => setTimeout(r, 100));
  }
}
