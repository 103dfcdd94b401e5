/*
 * GET /api/projects/overview, the home cards' figures, as the owner and as an attacker sees
 * them: subscribers now and their change over 7 days (absent while unknown), the next post,
 * posts waiting for approval and failures, and posts waiting for review as each role sees them
 * (every one for an owner or editor, an author's own), seeded through the product's own rules (the bot's
 * approval flow against the Bot API double, the statistics' SQL rules); another account's
 * projects never appear; and one request answers every card with one statement, however many
 * projects the account has.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ProjectOverview } from "../../contract/stats.ts";
import { buttonData, failedInTelegram, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { connectSampled, memberUpdates, subscriberHistory } from "../helpers/stats.ts";
import { addMember } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

type Project = Awaited<ReturnType<typeof projectWithChannel>>;

const overview = async (cookie: string) => {
  const res = await stack.call("GET", "/api/projects/overview", undefined, cookie);
  expect(res.status, res.text).toBe(200);
  return res.json as ProjectOverview[];
};

test("a card's figures: subscribers and their week, the next post, waiting for approval, failures", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { drafts: ["Failing", "Awaiting", "Later"] });
  telegram.setMemberCount(p.channel.id, 120);
  await connectSampled(stack, p.project.id);
  // Fresh: the count is known, its week is not (no sample from 7 days ago).
  let [card] = await overview(p.cookie);
  expect(card).toMatchObject({ projectId: p.project.id, channelConnected: true, subscribersChange7d: null });
  expect(card.subscribers).toEqual(expect.any(Number));

  // 101 a week ago, 120 at the last sample, and 5 join and 2 leave since.
  await subscriberHistory(stack, p.project.id, 101, 120);
  await memberUpdates(stack, p.channel.id, "join", 5);
  await memberUpdates(stack, p.channel.id, "leave", 2);

  // One post fails in Telegram, one waits for the approver, one is planned for tomorrow.
  await failedInTelegram(stack, p, p.drafts[0].id);
  const awaiting = await sentForApproval(stack, p, p.drafts[1].id, 3600_000);
  const tomorrow = new Date(Date.now() + 26 * 3600_000).toISOString();
  const later = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[2].id, scheduledFor: tomorrow }, p.cookie);
  expect(later.status, later.text).toBe(201);

  [card] = await overview(p.cookie);
  expect(card).toEqual({
    projectId: p.project.id,
    channelConnected: true,
    channelAwaitingHandle: null,
    subscribers: 123,
    subscribersChange7d: 22,
    // the earliest post still to go out: the one waiting for approval, due in an hour
    nextPostAt: (await stack.sql`select scheduled_for from app_public.posts where id = ${awaiting.postId}`)[0].scheduledFor,
    nextPostTitle: "Awaiting",
    nextPostRecurring: false,
    awaitingApproval: 1,
    failed: 1,
    uncertain: 0,
    lateApproval: 0,
    lateSince: null,
    inReview: 0,
    adIncome: [],
  });

  // Past its time still undecided, the waiting post is late, and since when says by how much.
  const [{ due }] = await stack.sql`update app_public.posts set scheduled_for = now() - interval '21 minutes'
    where id = ${awaiting.postId} returning to_char(scheduled_for at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as due`;
  [card] = await overview(p.cookie);
  expect(card).toMatchObject({ awaitingApproval: 1, lateApproval: 1 });
  expect(Date.parse(card.lateSince!)).toBe(Date.parse(`${due.slice(0, 23)}Z`));

  // The approver answers: nothing waits any more, and the next post is still that one.
  const approve = telegram.userPressesButton(p.admin.id, p.admin.id, awaiting.preview.message_id, buttonData(awaiting.preview, "approve", awaiting.postId));
  await telegram.waitFor(() => telegram.callbackAnswer(approve), 10_000);
  [card] = await overview(p.cookie);
  expect(card).toMatchObject({ awaitingApproval: 0, lateApproval: 0, lateSince: null, failed: 1 });
}, 90_000);

test("a series' next date is the next post; a project without a channel has no figures of its own, one waiting says for whom", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Rotating"] });
  const at = new Date(Date.now() + 30 * 3600_000);
  at.setUTCSeconds(0, 0);
  const series = await stack.call("POST", `${p.base}/posts`, { scheduledFor: at.toISOString(), isRecurring: true, recurringType: "daily", title: "" }, p.cookie);
  expect(series.status, series.text).toBe(201);
  const bare = (await stack.call("POST", "/api/projects", { name: "No channel yet", adminHandle: "someone_else" }, p.cookie)).json;
  // a channel asked of the same approver, not allowed yet
  const pending = (await stack.call("POST", "/api/projects", { name: "Waiting", adminHandle: p.admin.username }, p.cookie)).json;
  const other = stack.telegram!.addChannel({ username: `pending_${Date.now().toString(36)}`, title: "Pending", owner: p.admin.id });
  const asked = await stack.call("POST", `/api/projects/${pending.id}/channels`, { type: "telegram", link: `@${other.username}` }, p.cookie);
  expect(asked.json, asked.text).toMatchObject({ status: "pending" });

  const cards = await overview(p.cookie);
  // newest project first, as the list of projects
  expect(cards.map((c) => c.projectId)).toEqual([pending.id, bare.id, p.project.id]);
  expect(cards[2]).toMatchObject({ nextPostAt: at.toISOString(), nextPostRecurring: true, awaitingApproval: 0, failed: 0 });
  expect(cards[1]).toEqual({
    projectId: bare.id, channelConnected: false, channelAwaitingHandle: null, subscribers: null, subscribersChange7d: null,
    nextPostAt: null, nextPostTitle: null, nextPostRecurring: null, awaitingApproval: 0, failed: 0, uncertain: 0,
    lateApproval: 0, lateSince: null, inReview: 0, adIncome: [],
  });
  expect(cards[0]).toMatchObject({ projectId: pending.id, channelConnected: false, channelAwaitingHandle: p.admin.username, subscribers: null });
}, 60_000);

test("posts waiting for review: every one for the owner and an editor, an author's own for the author, none for a viewer", async () => {
  const p = await projectWithChannel(stack, { drafts: ["First author's", "Second author's", "Owner's"] });
  const editor = await addMember(stack, p.project.id, p.cookie, "editor");
  const author = await addMember(stack, p.project.id, p.cookie, "author");
  const second = await addMember(stack, p.project.id, p.cookie, "author", "second-author");
  const viewer = await addMember(stack, p.project.id, p.cookie, "viewer");
  const card = async (cookie: string) => (await overview(cookie)).find((c) => c.projectId === p.project.id)!;
  const plan = async (draftId: number, hours: number, cookie: string) => {
    const res = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: new Date(Date.now() + hours * 3600_000).toISOString() }, cookie);
    expect(res.status, res.text).toBe(201);
    return res.json as { id: number; status: string; scheduledFor: string };
  };
  // each author plans a post: it waits for review; the owner's own post, later, does not
  const first = await plan(p.drafts[0].id, 5, author.cookie);
  const later = await plan(p.drafts[1].id, 30, second.cookie);
  expect([first.status, later.status]).toEqual(["in_review", "in_review"]);
  expect((await plan(p.drafts[2].id, 50, p.cookie)).status).toBe("draft");

  expect(await card(p.cookie)).toMatchObject({ inReview: 2, awaitingApproval: 0 });
  expect((await card(editor.cookie)).inReview).toBe(2);
  expect((await card(author.cookie)).inReview).toBe(1);
  expect((await card(second.cookie)).inReview).toBe(1);
  expect((await card(viewer.cookie)).inReview).toBe(0);
  // a post in review goes out at its time once approved: it is the next post
  expect(await card(viewer.cookie)).toMatchObject({ nextPostAt: first.scheduledFor, nextPostTitle: "First author's" });

  // the editor returns the first: it no longer waits, for the owner nor for its author
  const returned = await stack.call("POST", `${p.base}/posts/${first.id}/review`, { decision: "return" }, editor.cookie);
  expect(returned.status, returned.text).toBe(200);
  expect((await card(p.cookie)).inReview).toBe(1);
  expect((await card(author.cookie)).inReview).toBe(0);
  expect((await card(second.cookie)).inReview).toBe(1);
}, 90_000);

test("another account's projects never appear, and a visitor without a session is refused", async () => {
  const alice = await projectWithChannel(stack, { drafts: ["Alice's post"] });
  await sentForApproval(stack, alice, alice.drafts[0].id, 3600_000);
  const mallory = await stack.signIn(uniqueEmail("mallory"));
  expect(await overview(mallory.cookie)).toEqual([]);
  const own = (await stack.call("POST", "/api/projects", { name: "Mallory's", adminHandle: "mallory_admin" }, mallory.cookie)).json;
  const seen = await overview(mallory.cookie);
  expect(seen.map((c) => c.projectId)).toEqual([own.id]);
  expect((await overview(alice.cookie)).map((c) => c.projectId)).not.toContain(own.id);
  // "overview" is not a project id, and a project id under it is not another way in
  expect((await stack.call("GET", `/api/projects/overview?userId=${alice.project.userId}`, undefined, mallory.cookie)).json)
    .toEqual(seen);

  const anonymous = await stack.call("GET", "/api/projects/overview");
  expect(anonymous.status).toBe(401);
  expect(anonymous.json).toMatchObject({ code: expect.any(String), message: expect.any(String) });
}, 60_000);

test("20 projects: one request, one statement, every card", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("many"));
  for (let i = 0; i < 20; i++) {
    const res = await stack.call("POST", "/api/projects", { name: `Project ${i}`, adminHandle: "many_admin" }, cookie);
    expect(res.status, res.text).toBe(201);
  }
  await overview(cookie); // the session is looked up once, then cached
  const before = stack.queries.length;
  const cards = await overview(cookie);
  const statements = stack.queries.slice(before);
  expect(cards).toHaveLength(20);
  expect(new Set(cards.map((c) => c.projectId)).size).toBe(20);
  expect(statements).toHaveLength(1);
  expect(statements[0]).toContain("account_project_overview");
});

test("the read uses the indexes: no sequential scan of posts, channels or their statistics", async () => {
  const { user } = await stack.signIn(uniqueEmail("plan"));
  // the tables here are tiny, where a scan is cheapest; forbidding scans shows whether an index
  // serves each step. The function's plain query is planned as it is inlined, for this user.
  const [{ prosrc }] = await stack.sql`select prosrc from pg_proc where proname = 'account_project_overview'`;
  const body = (prosrc as string).replace(/\/\*[\s\S]*?\*\//, "").replaceAll("p_user_id", String(user.id));
  const plan = await stack.sql.begin(async (tx) => {
    await tx`set local enable_seqscan = off`;
    return (await tx.unsafe(`explain ${body}`)).map((r) => String(Object.values(r)[0])).join("\n");
  });
  expect(plan).toContain("Index");
  expect(plan).not.toMatch(/Seq Scan on (posts|channels|channel_stats|projects)/);
  // the posts waiting for review are a project's few rows of their partial index
  expect(plan).toContain("posts_in_review_idx");
});
