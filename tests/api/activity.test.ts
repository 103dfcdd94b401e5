/*
 * A project's activity log (docs/teams.md, shared/DESIGN.md "Teams"): every act writes who did
 * it — a member, the approver in Telegram, or Pressa itself — in its own transaction; the log
 * reads newest first, a page at a time, filtered by member and action, for members only.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ActivityItem } from "../../contract/activity.ts";
import { buttonData, failedInTelegram, hasButton, postReaches, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

async function activity(base: string, cookie: string, query = "") {
  const answer = await stack.call("GET", `${base}/activity${query}`, undefined, cookie);
  expect(answer.status, answer.text).toBe(200);
  return answer.json as { items: ActivityItem[]; next: number | null };
}

describe("activity", () => {
  test("members, drafts, posts, the approver's decision and the send each leave one entry, with who acted, newest first", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Launch", "Second"] });
    const [owner] = await stack.sql`select u.id, u.email from app_public.users u join app_public.projects pr on pr.user_id = u.id where pr.id = ${p.project.id}`;
    const editor = await addMember(stack, p.project.id, p.cookie, "editor");
    await stack.call("PATCH", `${p.base}/members/${editor.user.id}`, { role: "author" }, p.cookie);
    await stack.call("PATCH", p.base, { description: "Our channel" }, p.cookie);

    const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3000);
    stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
    await postReaches(stack, postId, "published");
    const failedId = await failedInTelegram(stack, p, p.drafts[1].id);

    const { items } = await activity(p.base, editor.cookie);
    const seen = items.map((i) => `${i.action}:${i.actor.type}`);
    // newest first: the failure, then the first post's publication and its approval in Telegram
    expect(seen.slice(0, 1)).toEqual(["post.failed:system"]);
    expect(seen).toEqual(expect.arrayContaining([
      "post.published:system", "post.approved:telegram", "post.scheduled:user", "project.updated:user",
      "member.roleChanged:user", "member.joined:user", "member.invited:user", "draft.created:user", "channel.connected:telegram",
    ]));
    expect(items.map((i) => i.id)).toEqual([...items.map((i) => i.id)].sort((a, b) => b - a));

    const approved = items.find((i) => i.action === "post.approved" && i.target.id === postId)!;
    expect(approved.actor).toEqual({ type: "telegram", userId: p.admin.id, handle: p.admin.username });
    expect(approved.target).toEqual({ type: "post", id: postId });
    expect(approved.details.title).toBe("Launch");
    const failed = items.find((i) => i.action === "post.failed")!;
    expect(failed.target.id).toBe(failedId);
    expect(failed.details.reason).toEqual(expect.any(String));
    const changed = items.find((i) => i.action === "member.roleChanged")!;
    expect(changed.actor).toEqual({ type: "user", userId: owner.id, email: owner.email });
    expect(changed.details).toEqual({ email: editor.email.toLowerCase(), from: "editor", to: "author" });
    expect(items.find((i) => i.action === "project.updated")!.details).toEqual({ fields: ["description"] });
    expect(items.filter((i) => i.action === "draft.created").map((i) => i.details.title).sort()).toEqual(["Launch", "Second"]);
  });

  test("the rest of the contract's acts: a member removed, a draft deleted, a post edited and rejected in Telegram, the channel disconnected", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Rejected one", "Edited one", "Deleted one"] });
    const [owner] = await stack.sql`select u.id, u.email from app_public.users u join app_public.projects pr on pr.user_id = u.id where pr.id = ${p.project.id}`;
    const byOwner = { type: "user", userId: owner.id, email: owner.email };
    const editor = await addMember(stack, p.project.id, p.cookie, "editor");
    expect((await stack.call("DELETE", `${p.base}/members/${editor.user.id}`, undefined, p.cookie)).status).toBe(200);
    expect((await stack.call("DELETE", `${p.base}/drafts/${p.drafts[2].id}`, undefined, p.cookie)).status).toBe(200);
    const at = new Date(Date.now() + 5 * 3600_000).toISOString();
    const edited = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[1].id, scheduledFor: at }, p.cookie)).json;
    const put = await stack.call("PUT", `${p.base}/posts/${edited.id}`, { draftId: p.drafts[1].id, scheduledFor: at, title: "Edited one, better" }, p.cookie);
    expect(put.status, put.text).toBe(200);
    const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 3 * 3600_000);
    stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "reject", postId));
    await postReaches(stack, postId, "rejected");
    const [channel] = (await stack.call("GET", `${p.base}/channels`, undefined, p.cookie)).json;
    expect((await stack.call("DELETE", `${p.base}/channels/${channel.id}`, undefined, p.cookie)).status).toBe(200);

    const { items } = await activity(p.base, p.cookie);
    const one = (action: string) => {
      const found = items.filter((i) => i.action === action);
      expect(found, action).toHaveLength(1);
      return found[0];
    };
    expect(one("member.removed")).toMatchObject({ actor: byOwner, target: { type: "member", id: editor.user.id } });
    expect(one("draft.deleted")).toMatchObject({ actor: byOwner, target: { type: "draft", id: p.drafts[2].id }, details: { title: "Deleted one" } });
    expect(one("post.edited")).toMatchObject({ actor: byOwner, target: { type: "post", id: edited.id }, details: { title: put.json.title } });
    expect(one("post.rejected")).toMatchObject({ actor: { type: "telegram", userId: p.admin.id, handle: p.admin.username }, target: { type: "post", id: postId } });
    expect(one("channel.disconnected")).toMatchObject({ actor: byOwner, target: { type: "channel", id: channel.id } });
    // newest first: the channel went last
    expect(items[0].action).toBe("channel.disconnected");
  });

  test("pages by before and limit without repeats; filters by member and by action", async () => {
    const p = await projectWithChannel(stack);
    const author = await addMember(stack, p.project.id, p.cookie, "author");
    for (let i = 0; i < 5; i++) await stack.call("POST", `${p.base}/drafts`, { title: `Author's ${i}`, content: "" }, author.cookie);
    await stack.call("POST", `${p.base}/drafts`, { title: "Owner's", content: "" }, p.cookie);

    const first = await activity(p.base, p.cookie, "?limit=3");
    expect(first.items).toHaveLength(3);
    expect(first.next).toBe(first.items[2].id);
    const all: number[] = [...first.items.map((i) => i.id)];
    let next = first.next;
    while (next !== null) {
      const page = await activity(p.base, p.cookie, `?limit=3&before=${next}`);
      all.push(...page.items.map((i) => i.id));
      next = page.next;
    }
    expect(new Set(all).size).toBe(all.length);
    const whole = await activity(p.base, p.cookie, "?limit=100");
    expect(all).toEqual(whole.items.map((i) => i.id));
    expect(whole.next).toBeNull();

    const byAuthor = await activity(p.base, p.cookie, `?actor=${author.user.id}&action=draft.created`);
    expect(byAuthor.items.map((i) => i.details.title)).toEqual([4, 3, 2, 1, 0].map((n) => `Author's ${n}`));
    const joined = await activity(p.base, p.cookie, "?action=member.joined");
    expect(joined.items.map((i) => i.actor)).toEqual([{ type: "user", userId: author.user.id, email: author.email.toLowerCase() }]);
  });

  test("a refused act writes nothing; a stranger reads nothing; bad queries are 400", async () => {
    const p = await projectWithChannel(stack);
    const viewer = await addMember(stack, p.project.id, p.cookie, "viewer");
    const before = (await activity(p.base, p.cookie)).items.length;
    expect((await stack.call("POST", `${p.base}/drafts`, { title: "Not mine to add" }, viewer.cookie)).status).toBe(403);
    expect((await activity(p.base, p.cookie)).items).toHaveLength(before);

    const { cookie: stranger } = await stack.signIn(uniqueEmail("stranger"));
    expect((await stack.call("GET", `${p.base}/activity`, undefined, stranger)).status).toBe(404);
    for (const query of ["?limit=0", "?limit=101", "?before=abc", "?action=post.exploded", "?actor=-1"]) {
      const bad = await stack.call("GET", `${p.base}/activity${query}`, undefined, p.cookie);
      expect(bad.status, query).toBe(400);
      expect(bad.json.code, query).toBe("activity.queryInvalid");
    }
  });
});

describe("a post's whole life with a team", () => {
  test("invited, joined, written, sent for review, reviewed, asked in Telegram, approved, published: each with its actor, in order", async () => {
    const p = await projectWithChannel(stack);
    const [owner] = await stack.sql`select u.id, u.email from app_public.users u join app_public.projects pr on pr.user_id = u.id where pr.id = ${p.project.id}`;
    const author = await addMember(stack, p.project.id, p.cookie, "author");
    // due in 10 s: once approved it goes out at once
    const at = new Date(Date.now() + 10_000).toISOString();
    const created = await stack.call("POST", `${p.base}/posts`, { scheduledFor: at, title: "Team story", content: "Written by the author", writeDraft: true }, author.cookie);
    expect(created.json.status).toBe("in_review");
    const postId = created.json.id;
    await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, author.cookie);
    expect((await stack.call("POST", `${p.base}/posts/${postId}/review`, { decision: "approve" }, p.cookie)).status).toBe(200);
    const preview = await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => hasButton(m, "approve", postId)), 20_000);
    await postReaches(stack, postId, "scheduled");
    await expect.poll(async () => (await stack.sql`select approval_preview ? 'chatId' as sent from app_public.posts where id = ${postId}`)[0].sent, { timeout: 10_000 }).toBe(true);
    stack.telegram!.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
    await postReaches(stack, postId, "published", 30_000);

    const { items } = await activity(p.base, author.cookie, "?limit=100");
    const life = items.reverse().filter((i) => i.action !== "channel.connected").map((i) => {
      const who = i.actor.type === "user" ? (i.actor.userId === owner.id ? "owner" : i.actor.userId === author.user.id ? "author" : "?") : i.actor.type;
      return `${i.action} by ${who}`;
    });
    expect(life).toEqual([
      "member.invited by owner",
      "member.joined by author",
      "draft.created by author",
      "post.scheduled by author",
      "post.inReview by author",
      "post.reviewed by owner",
      "post.approvalRequested by system",
      "post.approved by telegram",
      "post.published by system",
    ]);
  });
});
