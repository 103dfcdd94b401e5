import { until } from "../helpers/until.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { uploadedImage } from "../helpers/images.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const jobRunAt = async (key: string) =>
  (await stack.sql`select run_at from graphile_worker.jobs where key = ${key}`)[0]?.runAt as string | undefined;

describe("scheduling posts", () => {
  test("a one-time post copies its draft; the approval request is queued 2 hours before", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Hello"] });
    const imageUrl = await uploadedImage(stack, p.project.id, p.cookie);
    await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { content: "Body", imageUrl }, p.cookie);
    const at = inHours(5);
    const res = await stack.call("POST", `${p.base}/posts`, { projectId: p.project.id, draftId: p.drafts[0].id, scheduledFor: at, isRecurring: false }, p.cookie);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      status: "draft", title: "Hello", content: "Body", imageUrl,
      isRecurring: false, recurringType: "none", draftId: p.drafts[0].id, publishedLinks: {}, recurringLastPost: null,
    });
    expect(res.json.scheduledFor).toBe(at);
    const runAt = await jobRunAt(`post:${res.json.id}:approval`);
    expect(Math.abs(Date.parse(runAt!) - (new Date(at).getTime() - 2 * 3600_000))).toBeLessThan(1000);
    const list = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json;
    expect(list.map((x: { id: number }) => x.id)).toEqual([res.json.id]);
  });

  test("the polled posts list answers 304 without a body while nothing changed", async () => {
    const p = await projectWithChannel(stack, { drafts: ["Polled", "Second"] });
    await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inHours(5), isRecurring: false }, p.cookie);
    const get = (ifNoneMatch?: string) =>
      stack.app.request(`${p.base}/posts`, { headers: { cookie: p.cookie, ...(ifNoneMatch ? { "if-none-match": ifNoneMatch } : {}) } });
    const first = await get();
    const tag = first.headers.get("etag")!;
    expect(first.status).toBe(200);
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const [listed] = await first.json();
    // what the client sees, not the worker's bookkeeping (sending worker, message ids)
    expect(Object.keys(listed).sort()).toEqual([
      "ad", "adState", "approvalMessageIds", "awaitingText", "channelChanged", "content", "createdAt", "createdBy", "draftId", "editedAt", "endsAfter", "endsOn", "entities", "id", "imageUrl",
      "imageUrls", "isRecurring", "lastErrorCode", "lastErrorParams", "occurrencesMade", "options", "pendingEdit", "planId", "projectId", "publishedAt", "publishedLinks",
      "recurringLastPost", "recurringType", "returnedAt", "reviewAuthorEmail", "reviewAuthorId", "reviewPublish", "scheduledFor", "seriesId", "skippedOccurrences",
      "status", "title",
    ]);

    const unchanged = await get(tag);
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe("");
    expect(unchanged.headers.get("etag")).toBe(tag);

    await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[1].id, scheduledFor: inHours(6), isRecurring: false }, p.cookie);
    const changed = await get(tag);
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(tag);
    expect(await changed.json()).toHaveLength(2);
    // another user's If-None-Match does not reveal the list: still 404
    const other = await stack.signIn(uniqueEmail());
    const foreign = await stack.app.request(`${p.base}/posts`, { headers: { cookie: other.cookie, "if-none-match": tag } });
    expect(foreign.status).toBe(404);
  });

  test("a recurring series has placeholder text and needs drafts", async () => {
    const p = await projectWithChannel(stack, { drafts: ["One"] });
    const res = await stack.call("POST", `${p.base}/posts`, {
      scheduledFor: inHours(1), isRecurring: true, recurringType: "weekly", title: "Weekly", content: "(from drafts)",
    }, p.cookie);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ isRecurring: true, recurringType: "weekly", draftId: null, title: "Weekly", status: "draft" });
    const empty = await projectWithChannel(stack);
    const refused = await stack.call("POST", `${empty.base}/posts`, { scheduledFor: inHours(1), isRecurring: true, recurringType: "daily" }, empty.cookie);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe("schedule.noDraftsForRecurring");
  });

  test("refusals: past time, no draft chosen, a bad timestamp, no channel", async () => {
    const p = await projectWithChannel(stack, { drafts: ["x"] });
    const past = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: new Date(Date.now() - 60_000).toISOString() }, p.cookie);
    expect(past.status).toBe(400);
    expect(past.json).toEqual({ message: "Cannot schedule posts in the past. Please select a future time.", code: "schedule.pastTime" });
    const noDraft = await stack.call("POST", `${p.base}/posts`, { scheduledFor: inHours(1), isRecurring: false }, p.cookie);
    expect(noDraft.json).toMatchObject({ message: "schedule.selectDraft" });
    const badTime = await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: "tomorrow at noon" }, p.cookie);
    expect(badTime.status).toBe(400);
    expect(badTime.json.code).toBe("schedule.scheduledForInvalid");

    const { cookie } = await stack.signIn(uniqueEmail("nochannel"));
    const pid = (await stack.call("POST", "/api/projects", { name: "No channel", adminHandle: "someone_x" }, cookie)).json.id;
    const draft = (await stack.call("POST", `/api/projects/${pid}/drafts`, { title: "d" }, cookie)).json;
    // planning before the channel: the post is made and waits for one, saying so
    const noChannel = await stack.call("POST", `/api/projects/${pid}/posts`, { draftId: draft.id, scheduledFor: inHours(1) }, cookie);
    expect(noChannel.status, noChannel.text).toBe(201);
    const waiting = await until(
      async () => (await stack.call("GET", `/api/projects/${pid}/posts/${noChannel.json.id}`, undefined, cookie)).json,
      (post) => post.lastErrorCode === "schedule.waitingForChannel",
    );
    expect(waiting).toMatchObject({ status: "draft", draftId: draft.id });
  });

  test("PUT moves the post and its jobs; a post sent for approval goes back to draft", async () => {
    const p = await projectWithChannel(stack, { drafts: ["a", "b"] });
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inHours(5) }, p.cookie)).json;
    const later = inHours(30);
    const moved = await stack.call("PUT", `${p.base}/posts/${post.id}`, { draftId: p.drafts[1].id, scheduledFor: later, isRecurring: false }, p.cookie);
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ title: "b", draftId: p.drafts[1].id, status: "draft" });
    const runAt = await jobRunAt(`post:${post.id}:approval`);
    expect(Math.abs(Date.parse(runAt!) - (new Date(later).getTime() - 2 * 3600_000))).toBeLessThan(1000);

    await stack.call("POST", `${p.base}/posts/${post.id}/publish`, undefined, p.cookie);
    await expect.poll(async () => (await stack.sql`select approval_preview ? 'chatId' as sent from app_public.posts where id = ${post.id}`)[0].sent, { timeout: 10_000 }).toBe(true);
    const edited = await stack.call("PUT", `${p.base}/posts/${post.id}`, { draftId: p.drafts[1].id, scheduledFor: inHours(40) }, p.cookie);
    expect(edited.json.status).toBe("draft");
    expect(edited.json.approvalMessageIds).toEqual({});
    // the outdated approval request loses its buttons and says why
    await stack.telegram!.waitFor(() => stack.telegram!.messages(p.admin.id).find((m) => m.text?.includes("устарела")), 10_000);
  });

  test("a published post cannot be edited ('cannot edit published')", async () => {
    const p = await projectWithChannel(stack, { drafts: ["done"] });
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inHours(1) }, p.cookie)).json;
    // published in the project's channel, as the worker records it
    await stack.sql`update app_public.posts set status = 'published', channel_chat_id = ${p.channel.id} where id = ${post.id}`;
    const res = await stack.call("PUT", `${p.base}/posts/${post.id}`, { draftId: p.drafts[0].id, scheduledFor: inHours(2) }, p.cookie);
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ message: "cannot edit published", code: "schedule.cannotEditPublished" });
  });

  test("Publish refuses content over 4096 characters with current/max; only drafts can be published", async () => {
    const p = await projectWithChannel(stack, { drafts: ["long"] });
    await stack.call("PATCH", `${p.base}/drafts/${p.drafts[0].id}`, { content: "x".repeat(4097) }, p.cookie);
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inHours(3) }, p.cookie)).json;
    const res = await stack.call("POST", `${p.base}/posts/${post.id}/publish`, undefined, p.cookie);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: "schedule.captionTooLong: 4097/4096", code: "schedule.captionTooLong", params: { current: 4097, max: 4096 } });
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json[0].status).toBe("draft");
  });

  test("write, then schedule: the post's draft is made in the same request; a refusal leaves no draft; another account's project is 404", async () => {
    const p = await projectWithChannel(stack, { drafts: ["older"] });
    const drafts = async () => (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json as { id: number; title: string; scheduledPostId: number | null }[];
    const written = await stack.call("POST", `${p.base}/posts`, {
      writeDraft: true, title: "Written here", content: "Straight from the schedule form", scheduledFor: inHours(6),
    }, p.cookie);
    expect(written.status, written.text).toBe(201);
    expect(written.json).toMatchObject({ title: "Written here", content: "Straight from the schedule form", status: "draft", isRecurring: false });
    const made = (await drafts()).find((d) => d.title === "Written here")!;
    expect(made).toMatchObject({ id: written.json.draftId, scheduledPostId: written.json.id });

    const before = (await drafts()).length;
    const past = await stack.call("POST", `${p.base}/posts`, { writeDraft: true, title: "Too late", scheduledFor: inHours(-1) }, p.cookie);
    expect(past.json.code).toBe("schedule.pastTime");
    const untitled = await stack.call("POST", `${p.base}/posts`, { writeDraft: true, title: "  ", scheduledFor: inHours(2) }, p.cookie);
    expect(untitled.status).toBe(400);
    expect(untitled.json.code).toBe("drafts.titleRequired");
    expect((await drafts()).length).toBe(before);

    const { cookie: other } = await stack.signIn(uniqueEmail("writer"));
    const refused = await stack.call("POST", `${p.base}/posts`, { writeDraft: true, title: "Not mine", scheduledFor: inHours(2) }, other);
    expect(refused.status).toBe(404);
    expect((await drafts()).length).toBe(before);
  });

  test("another user's posts are 404; no session is 401", async () => {
    const p = await projectWithChannel(stack, { drafts: ["mine"] });
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inHours(3) }, p.cookie)).json;
    const { cookie: other } = await stack.signIn(uniqueEmail("other"));
    expect((await stack.call("GET", `${p.base}/posts`, undefined, other)).status).toBe(404);
    expect((await stack.call("PUT", `${p.base}/posts/${post.id}`, { draftId: p.drafts[0].id, scheduledFor: inHours(4) }, other)).status).toBe(404);
    expect((await stack.call("POST", `${p.base}/posts/${post.id}/publish`, undefined, other)).status).toBe(404);
    expect((await stack.call("DELETE", `${p.base}/posts/${post.id}`, {}, other)).status).toBe(404);
    expect((await stack.call("GET", `${p.base}/posts`)).status).toBe(401);
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json[0].status).toBe("draft");
  });
});

describe("the Published list", () => {
  /** `count` published posts, one a minute apart (several within one millisecond too). */
  async function publishedPosts(p: Awaited<ReturnType<typeof projectWithChannel>>, count: number) {
    await stack.sql`
      insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, published_links)
      select ${p.project.id}, 'Post ' || i, '', 'published', now() - make_interval(mins => i),
             -- posts 10 and 11 share a millisecond (and differ below it): the page boundary must split them right
             case when i in (10, 11) then timestamptz '2026-01-01 00:00:00.123' + make_interval(secs => (11 - i) * 0.0004)
                  else now() - make_interval(mins => i) end,
             jsonb_build_object('ch', 'https://t.me/ch/' || i)
      from generate_series(1, ${count}) as i`;
  }
  const ids = (posts: { title: string }[]) => posts.map((x) => Number(x.title.slice(5)));

  test("pages of 50, newest first; the next page starts after the last post shown, none repeated or skipped", async () => {
    const p = await projectWithChannel(stack);
    await publishedPosts(p, 120);
    const url = `${p.base}/posts/published`;
    const first = (await stack.call("GET", url, undefined, p.cookie)).json;
    expect(first).toHaveLength(50);
    expect(ids(first).slice(0, 3)).toEqual([1, 2, 3]);
    const seen = [...first];
    for (let page = 0; page < 3; page++) {
      const last = seen.at(-1);
      const next = await stack.call("GET", `${url}?limit=50&before=${encodeURIComponent(last.publishedAt)}&beforeId=${last.id}`, undefined, p.cookie);
      expect(next.status, next.text).toBe(200);
      seen.push(...next.json);
      if (next.json.length < 50) break;
    }
    // every post once, in order (posts 10 and 11 are the oldest: they were published in
    // January, in one millisecond as the API shows times, so the later id comes first)
    expect(ids(seen)).toEqual([...Array.from({ length: 120 }, (_, i) => i + 1).filter((i) => i !== 10 && i !== 11), 11, 10]);
    // a page boundary between the two posts of one millisecond
    const cut = seen.find((x) => x.title === "Post 11");
    const rest = (await stack.call("GET", `${url}?limit=5&before=${encodeURIComponent(cut.publishedAt)}&beforeId=${cut.id}`, undefined, p.cookie)).json;
    expect(ids(rest)).toEqual([10]);
  });

  test("bad page parameters are 400 JSON; another user's list is 404", async () => {
    const p = await projectWithChannel(stack);
    await publishedPosts(p, 3);
    const url = `${p.base}/posts/published`;
    for (const query of ["limit=0", "limit=101", "limit=abc", "before=2026-01-01T00:00:00.000Z", "beforeId=5", "before=yesterday&beforeId=5", "before=2026-01-01T00:00:00.000Z&beforeId=0"]) {
      const res = await stack.call("GET", `${url}?${query}`, undefined, p.cookie);
      expect(res.status, query).toBe(400);
      expect(res.json.code).toBe("posts.publishedQueryInvalid");
    }
    expect((await stack.call("GET", `${url}?limit=2`, undefined, p.cookie)).json).toHaveLength(2);
    const { cookie: other } = await stack.signIn(uniqueEmail("other"));
    expect((await stack.call("GET", url, undefined, other)).status).toBe(404);
  });
});

describe("deleting posts", () => {
  async function publishedPost(p: Awaited<ReturnType<typeof projectWithChannel>>, index: number) {
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[index].id, scheduledFor: inHours(1) }, p.cookie)).json;
    const sent = await stack.telegram!.channelPost(p.channel.id, `published ${index}`);
    // as the worker records a publication: the chat and the message ids in it
    await stack.sql`update app_public.posts set status = 'published', channel_chat_id = ${p.channel.id},
      channel_message_ids = ${stack.sql.json([sent.message_id])} where id = ${post.id}`;
    return { postId: post.id as number, messageId: sent.message_id };
  }

  test("delete removes the post and its jobs", async () => {
    const p = await projectWithChannel(stack, { drafts: ["gone"] });
    const post = (await stack.call("POST", `${p.base}/posts`, { draftId: p.drafts[0].id, scheduledFor: inHours(5) }, p.cookie)).json;
    const res = await stack.call("DELETE", `${p.base}/posts/${post.id}`, { deleteFromChannels: false, deleteRecurringSeries: false }, p.cookie);
    expect(res.status).toBe(200);
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json).toEqual([]);
    expect(await jobRunAt(`post:${post.id}:approval`)).toBeUndefined();
    // the draft is free again
    expect((await stack.call("DELETE", `${p.base}/drafts/${p.drafts[0].id}`, undefined, p.cookie)).status).toBe(200);
  });

  test("deleteFromChannels removes the channel message too", async () => {
    const p = await projectWithChannel(stack, { drafts: ["a"] });
    const { postId, messageId } = await publishedPost(p, 0);
    const res = await stack.call("DELETE", `${p.base}/posts/${postId}`, { deleteFromChannels: true, deleteRecurringSeries: false }, p.cookie);
    expect(res.status).toBe(200);
    expect(stack.telegram!.messages(p.channel.id).find((m) => m.message_id === messageId)).toBeUndefined();
  });

  test("when Telegram refuses to delete, the answer says so and the post stays", async () => {
    const p = await projectWithChannel(stack, { drafts: ["old"] });
    const { postId, messageId } = await publishedPost(p, 0);
    stack.telegram!.advanceClock(49 * 3600); // bots cannot delete messages older than 48 hours
    const res = await stack.call("DELETE", `${p.base}/posts/${postId}`, { deleteFromChannels: true }, p.cookie);
    expect(res.status).toBe(409);
    expect(res.json.code).toBe("schedule.channelDeleteFailed");
    expect(res.json.message).toMatch(/Telegram refused to delete the message/);
    expect(res.json.message).toMatch(/The post was not deleted/);
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.map((x: { id: number }) => x.id)).toEqual([postId]);
    expect(stack.telegram!.messages(p.channel.id).find((m) => m.message_id === messageId)).toBeDefined();
    // without removing from the channel it can be deleted here
    expect((await stack.call("DELETE", `${p.base}/posts/${postId}`, { deleteFromChannels: false }, p.cookie)).status).toBe(200);
    stack.telegram!.advanceClock(-49 * 3600);
  });

  test("deletes waiting on a slow Telegram do not hold up other requests", async () => {
    const p = await projectWithChannel(stack, { drafts: ["d0", "d1", "d2", "d3", "d4", "d5"] });
    const posts = [];
    for (let i = 0; i < 6; i++) posts.push(await publishedPost(p, i));
    stack.telegram!.failNext("deleteMessage", { delayMs: 3_000 }, 6); // more deletes than the pool has connections
    let deletesAnswered = 0;
    const deletes = posts.map(({ postId }) =>
      stack.call("DELETE", `${p.base}/posts/${postId}`, { deleteFromChannels: true }, p.cookie).then((res) => {
        deletesAnswered++;
        return res;
      })
    );
    // the account runs two requests at a time (api/middleware/account_share.ts); the other four
    // wait their turn holding no connection, and two wait on Telegram holding none either
    await stack.telegram!.waitFor(() => stack.telegram!.requests.filter((r) => r.method === "deleteMessage").length >= 2, 5_000);
    const other = await projectWithChannel(stack, { drafts: ["elsewhere"] });
    const list = await stack.call("GET", `${other.base}/posts`, undefined, other.cookie);
    expect(list.status).toBe(200);
    expect(deletesAnswered).toBe(0);
    for (const res of await Promise.all(deletes)) expect(res.status).toBe(200);
    for (const { messageId } of posts) expect(stack.telegram!.messages(p.channel.id).find((m) => m.message_id === messageId)).toBeUndefined();
    expect((await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json).toEqual([]);
  });

  test("deleteRecurringSeries removes the series and its unpublished occurrences, keeps published ones", async () => {
    const p = await projectWithChannel(stack, { drafts: ["s1", "s2", "s3"] });
    const series = (await stack.call("POST", `${p.base}/posts`, { scheduledFor: inHours(1), isRecurring: true, recurringType: "daily" }, p.cookie)).json;
    await expect.poll(async () => (await stack.sql`select count(*)::int as n from app_public.posts where series_id = ${series.id}`)[0].n, { timeout: 10_000 }).toBe(1);
    const [occurrence] = await stack.sql`select id from app_public.posts where series_id = ${series.id}`;
    await stack.sql`update app_public.posts set status = 'published' where id = ${occurrence.id}`;
    const [next] = await stack.sql`select * from app_public.spawn_series_occurrence(${series.id}, now() + interval '1 day')`;
    const res = await stack.call("DELETE", `${p.base}/posts/${next.id}`, { deleteFromChannels: false, deleteRecurringSeries: true }, p.cookie);
    expect(res.status).toBe(200);
    expect(res.json.deleted.sort()).toEqual([series.id, next.id].sort());
    const left = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json;
    expect(left.map((x: { id: number }) => x.id)).toEqual([occurrence.id]);
  });
});
